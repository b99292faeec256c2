/** startTestbed: the HTTP server, its store and its lifetime. */
import { createServer, type Server } from "node:http";
import { isIP } from "node:net";
import { isValidBucketName } from "./bucket-name.ts";
import { createDirectoryStore } from "./directory-store.ts";
import { createMemoryStore, type ObjectStore } from "./object-store.ts";
import { createRequestHandler, type TestbedStats } from "./request-handler.ts";
import type { RequestInterceptor } from "./request-interceptor.ts";
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
  interceptor?: RequestInterceptor;
}

export interface Testbed {
  /** http://host:port, without a trailing slash. */
  url: string;
  port: number;
  /** Stops listening and drops every connection, idle keep-alive ones included. */
  close(): Promise<void>;
  stats(): TestbedStats;
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

export async function startTestbed(options: TestbedOptions = {}): Promise<Testbed> {
  const host = options.host ?? "127.0.0.1";
  const region = options.region ?? "us-east-1";
  const invalid = (options.buckets ?? []).filter((bucket) => !isValidBucketName(bucket));
  if (invalid.length > 0) {
    throw new Error(
      `testbed: ${invalid.map((bucket) => `"${bucket}"`).join(", ")} is not a valid S3 bucket name (3-63 characters: a-z, 0-9, '.', '-')`,
    );
  }
  const store = await openStore(options.store);
  for (const bucket of options.buckets ?? []) await store.createBucket(bucket);

  const virtualHostSuffixes = [".localhost"];
  if (isIP(host) === 0 && host !== "localhost") virtualHostSuffixes.push(`.${host.toLowerCase()}`);
  const stats: TestbedStats = { received: 0, completed: 0, aborted: 0, resets: 0, byOperation: {} };
  const server = createServer(
    createRequestHandler({
      store,
      region,
      virtualHostSuffixes,
      verify:
        options.credentials && createSigV4Verifier({ credentials: options.credentials, region }),
      interceptor: options.interceptor,
      stats,
    }),
  );
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  const port = await listen(server, host, options.port ?? 0);

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${port}`,
    port,
    close() {
      closing ??= new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
    stats: () => ({ ...stats, byOperation: { ...stats.byOperation } }),
  };
}
