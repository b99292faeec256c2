/** startTestbed: the HTTP servers (one per replica), their shared store and their lifetime. */
import { createServer, type Server } from "node:http";
import { createServer as createTlsServer } from "node:https";
import { isIP } from "node:net";
import {
  MAX_TESTBED_REPLICAS,
  resolveLatencyProfile,
  type BuiltinProfileName,
  type LatencyProfile,
  type LatencyProfileInput,
} from "@taillab/api";
import { S3_MIN_PART_BYTES } from "@taillab/core";
import { isValidBucketName } from "./bucket-name.ts";
import { createDirectoryStore } from "./directory-store.ts";
import { createLatencyProfileInterceptor } from "./latency-profile-interceptor.ts";
import { isPassThrough } from "./latency-sampler.ts";
import { createMemoryStore, type ObjectStore } from "./object-store.ts";
import { createRequestHandler, type TestbedStats } from "./request-handler.ts";
import type {
  InterceptDecision,
  InterceptedRequest,
  RequestInterceptor,
} from "./request-interceptor.ts";
import { createServiceSlots, type ServiceSlots } from "./service-slots.ts";
import { createTieBoard } from "./tie-board.ts";
import { createSigV4Verifier, type Credentials } from "./sigv4-verifier.ts";

export type { TestbedStats };

export type StoreOptions = { kind: "memory" } | { kind: "directory"; path: string };

export interface TestbedOptions {
  /** Interface to listen on; loopback unless asked, so a demo never exposes its objects. */
  host?: string;
  /** 0 (the default) picks a free port; read it from `Testbed.port`. */
  port?: number;
  /** Default memory. */
  store?: StoreOptions;
  /** When set, every request must be signed with these (SigV4); otherwise anything goes. */
  credentials?: Credentials;
  /** Default us-east-1. Signatures must be scoped to it. */
  region?: string;
  /** Created at start; existing ones (directory store) are kept. */
  buckets?: string[];
  /** Called for every request on every replica. Not together with `profile`. */
  interceptor?: RequestInterceptor;
  /**
   * Servers on as many ports (1 to 16, default 1) sharing one store, like replicas of one
   * storage service. With a fixed `port` they take port, port + 1, …
   */
  replicas?: number;
  /** Latency profile applied to each replica on its own: a builtin name or a profile object. */
  profile?: BuiltinProfileName | LatencyProfileInput;
  /** Seeds each replica's random stream (default 1): the same seed replays the same delays. */
  seed?: number;
  /**
   * Multipart uploads: the least size of every part but the last (EntityTooSmall below it).
   * Default 5 MiB, as S3; tests may lower it to upload small parts.
   */
  minPartSizeBytes?: number;
  /** Serve https with this certificate and key (PEM), as a lab server with its own CA does. */
  tls?: { cert: string; key: string };
  /**
   * Every response's Date header is this far ahead of this machine's clock (behind when
   * negative), as from a server whose clock is off: what clock checks against the server see.
   * Default 0 (Node's own Date header).
   */
  clockSkewMs?: number;
}

export interface TestbedReplica {
  /** 0 for the first replica. */
  index: number;
  /** http://host:port, without a trailing slash. */
  url: string;
  port: number;
  stats(): TestbedStats;
}

export interface Testbed {
  /** The first replica's URL, without a trailing slash. */
  url: string;
  /** The first replica's port. */
  port: number;
  /** Every replica's URL, the first replica first (as started: see `replicas` after a resize). */
  urls: string[];
  /** The replicas serving now. */
  replicas: TestbedReplica[];
  /** Stops listening and drops every connection, idle keep-alive ones included. */
  close(): Promise<void>;
  /** Summed over the replicas; each replica's own are in `replicas[i].stats()`. */
  stats(): TestbedStats;
  /**
   * Another latency profile from the next request on, on every replica (a live lab's knobs).
   * Requests waiting in a queue keep their place when the number of slots stays the same.
   * Throws as startTestbed does for an unknown or invalid profile.
   */
  setProfile(profile: BuiltinProfileName | LatencyProfileInput): void;
  /**
   * Starts replicas up to `count`, or stops the last ones down to it: they stop taking
   * connections and finish what they serve. Answers every replica's URL.
   */
  setReplicas(count: number): Promise<string[]>;
}

/** Longer than the 60 s idle timeout of common client pools, so the server never closes first. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) =>
      reject(
        new Error(`testbed: cannot listen on ${host}:${port} (${error.code ?? error.message})`),
      );
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      const address = server.address();
      resolve(typeof address === "object" && address !== null ? address.port : port);
    });
  });
}

/** The address clients should use: a wildcard listen is reached through loopback. */
function urlHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return isIP(host) === 6 ? `[${host}]` : host;
}

async function openStore(options: StoreOptions | undefined): Promise<ObjectStore> {
  return options?.kind === "directory" ? createDirectoryStore(options.path) : createMemoryStore();
}

function checkOptions(options: TestbedOptions): number {
  const invalid = (options.buckets ?? []).filter((bucket) => !isValidBucketName(bucket));
  if (invalid.length > 0) {
    throw new Error(
      `testbed: ${invalid.map((bucket) => `"${bucket}"`).join(", ")} is not a valid S3 bucket name (3-63 characters: a-z, 0-9, '.', '-')`,
    );
  }
  const replicas = options.replicas ?? 1;
  const port = options.port ?? 0;
  if (port !== 0 && port + replicas - 1 > 65535) {
    throw new Error(`testbed: ${replicas} replicas from port ${port} would pass port 65535`);
  }
  const minPartSizeBytes = options.minPartSizeBytes ?? S3_MIN_PART_BYTES;
  if (!Number.isSafeInteger(minPartSizeBytes) || minPartSizeBytes < 0) {
    throw new Error(
      `testbed: minPartSizeBytes must be a whole number of bytes from 0, not ${minPartSizeBytes}`,
    );
  }
  if (options.profile !== undefined && options.interceptor !== undefined) {
    throw new Error("testbed: give a latency profile or an interceptor, not both");
  }
  if (!Number.isFinite(options.clockSkewMs ?? 0)) {
    throw new Error(
      `testbed: clockSkewMs must be a number of milliseconds, not ${options.clockSkewMs}`,
    );
  }
  checkReplicaCount(replicas);
  return replicas;
}

function checkReplicaCount(replicas: number): void {
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > MAX_TESTBED_REPLICAS) {
    throw new Error(
      `testbed: replicas must be a whole number from 1 to ${MAX_TESTBED_REPLICAS}, not ${replicas}`,
    );
  }
}

/** The profile to apply, or undefined when it would change nothing. */
function profileOf(
  input: BuiltinProfileName | LatencyProfileInput | undefined,
  replicas: number,
): LatencyProfile | undefined {
  if (input === undefined) return undefined;
  let profile: LatencyProfile;
  try {
    profile = resolveLatencyProfile(input);
  } catch (error) {
    throw new Error(`testbed: ${(error as Error).message}`, { cause: error });
  }
  const noisy = profile.noisyNeighbour;
  if (noisy !== undefined && noisy.replica >= replicas) {
    throw new Error(
      `testbed: the noisy neighbour is replica ${noisy.replica}, but replicas run from 0 to ${replicas - 1}`,
    );
  }
  return isPassThrough(profile) ? undefined : profile;
}

function emptyStats(): TestbedStats {
  return {
    received: 0,
    completed: 0,
    aborted: 0,
    resets: 0,
    served: 0,
    tiesDropped: 0,
    byOperation: {},
  };
}

function sumStats(all: readonly TestbedStats[]): TestbedStats {
  const total = emptyStats();
  for (const stats of all) {
    total.received += stats.received;
    total.completed += stats.completed;
    total.aborted += stats.aborted;
    total.resets += stats.resets;
    total.served += stats.served;
    total.tiesDropped += stats.tiesDropped;
    for (const [operation, count] of Object.entries(stats.byOperation)) {
      total.byOperation[operation] = (total.byOperation[operation] ?? 0) + count;
    }
  }
  return total;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

/** A replica taken out of service finishes what it serves for this long, then is cut off. */
const RETIRE_GRACE_MS = 5_000;

/** Stops taking connections, lets the requests in service finish, then closes the rest. */
function retireServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const cutOff = setTimeout(() => server.closeAllConnections(), RETIRE_GRACE_MS);
    cutOff.unref();
    server.close(() => {
      clearTimeout(cutOff);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** One replica: its server, its counters, and its latency profile's interceptor (if any). */
interface RunningReplica extends TestbedReplica {
  server: Server;
  counters: TestbedStats;
  interceptor: RequestInterceptor | undefined;
  /** Its queue, kept across a change of profile that keeps the number of slots. */
  slots: ServiceSlots | undefined;
  slotCount: number | undefined;
}

export async function startTestbed(options: TestbedOptions = {}): Promise<Testbed> {
  const host = options.host ?? "127.0.0.1";
  const region = options.region ?? "us-east-1";
  const replicaCount = checkOptions(options);
  let profile = profileOf(options.profile, replicaCount);
  const seed = options.seed ?? 1;
  const minPartSizeBytes = options.minPartSizeBytes ?? S3_MIN_PART_BYTES;
  const store = await openStore(options.store);
  for (const bucket of options.buckets ?? []) await store.createBucket(bucket);

  const virtualHostSuffixes = [".localhost"];
  if (isIP(host) === 0 && host !== "localhost") virtualHostSuffixes.push(`.${host.toLowerCase()}`);
  const verify =
    options.credentials && createSigV4Verifier({ credentials: options.credentials, region });
  // One clock for every replica, so the noisy neighbour's slow windows follow the testbed's start.
  const startedAt = performance.now();
  const elapsedMs = () => performance.now() - startedAt;
  // The replicas tell each other about tied requests through it, whichever profile runs.
  const ties = createTieBoard();

  /** A replica's shaping under `profile`: the queue it had is kept if its size is the same. */
  const shape = (replica: RunningReplica) => {
    if (profile === undefined) {
      replica.interceptor = options.interceptor && countingServed(options.interceptor, replica);
      replica.slots = undefined;
      replica.slotCount = undefined;
      return;
    }
    const slotCount = profile.queue?.slots;
    if (slotCount !== replica.slotCount) {
      replica.slots = slotCount === undefined ? undefined : createServiceSlots(slotCount);
      replica.slotCount = slotCount;
    }
    replica.interceptor = createLatencyProfileInterceptor({
      profile,
      seed,
      replica: replica.index,
      elapsedMs,
      ties,
      ...(replica.slots ? { slots: replica.slots } : {}),
      counters: {
        served: () => replica.counters.served++,
        tieDropped: () => replica.counters.tiesDropped++,
      },
    });
  };

  const replicas: RunningReplica[] = [];
  const startReplica = async (index: number): Promise<RunningReplica> => {
    const replica: RunningReplica = {
      index,
      url: "",
      port: 0,
      counters: emptyStats(),
      interceptor: undefined,
      slots: undefined,
      slotCount: undefined,
      server: options.tls ? createTlsServer(options.tls) : createServer(),
      stats: () => ({ ...replica.counters, byOperation: { ...replica.counters.byOperation } }),
    };
    shape(replica);
    replica.server.on(
      "request",
      createRequestHandler({
        store,
        region,
        minPartSizeBytes,
        virtualHostSuffixes,
        verify,
        interceptor: () => replica.interceptor,
        stats: replica.counters,
        clockSkewMs: options.clockSkewMs ?? 0,
      }),
    );
    replica.server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    replica.server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
    const requestedPort = options.port ? options.port + index : 0;
    replica.port = await listen(replica.server, host, requestedPort);
    replica.url = `${options.tls ? "https" : "http"}://${urlHost(host)}:${replica.port}`;
    return replica;
  };
  try {
    for (let index = 0; index < replicaCount; index++) replicas.push(await startReplica(index));
  } catch (error) {
    await Promise.all(
      replicas.filter((replica) => replica.server.listening).map((r) => closeServer(r.server)),
    );
    throw error;
  }

  const first = replicas[0] as RunningReplica;
  const retiring: Promise<void>[] = [];
  let closing: Promise<void> | undefined;
  const shown = (): TestbedReplica[] =>
    replicas.map(({ index, url, port, stats }) => ({ index, url, port, stats }));
  const testbed: Testbed = {
    url: first.url,
    port: first.port,
    urls: replicas.map((replica) => replica.url),
    replicas: shown(),
    close() {
      closing ??= Promise.all([
        ...replicas.map((replica) => closeServer(replica.server)),
        ...retiring,
      ]).then(() => undefined);
      return closing;
    },
    stats: () => sumStats(replicas.map((replica) => replica.stats())),
    setProfile(input) {
      if (options.interceptor !== undefined) {
        throw new Error("testbed: give a latency profile or an interceptor, not both");
      }
      profile = profileOf(input, replicas.length);
      for (const replica of replicas) shape(replica);
    },
    async setReplicas(count) {
      checkReplicaCount(count);
      const noisy = profile?.noisyNeighbour;
      if (noisy !== undefined && noisy.replica >= count) {
        throw new Error(
          `testbed: the noisy neighbour is replica ${noisy.replica}, but replicas would run from 0 to ${count - 1}`,
        );
      }
      while (replicas.length < count) replicas.push(await startReplica(replicas.length));
      for (const replica of replicas.splice(count)) retiring.push(retireServer(replica.server));
      testbed.replicas = shown();
      return replicas.map((replica) => replica.url);
    },
  };
  return testbed;
}

/** An interceptor of the caller's, with the requests it lets through counted as served. */
function countingServed(interceptor: RequestInterceptor, replica: RunningReplica) {
  return async (request: InterceptedRequest): Promise<InterceptDecision> => {
    const decision = await interceptor(request);
    if (!decision?.fault) replica.counters.served++;
    return decision;
  };
}
