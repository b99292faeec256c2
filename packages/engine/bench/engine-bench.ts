/**
 * `pnpm bench engine`: TailLab's closed loop against a bare undici loop, both sending the same
 * signed 4 KiB requests with 16 in flight, against MinIO and against the embedded testbed (run in
 * its own process so its CPU is not counted as the client's). Each client sends from a worker
 * thread started for the round. Prints ops/s and client CPU seconds per 1 000 requests;
 * process.cpuUsage() covers every thread of this process.
 */
import { HedgeOptionsSchema, type Operation } from "@taillab/api";
import { formatTable } from "@taillab/report";
import { startMinio } from "@taillab/test-support";
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import {
  createControlPlane,
  defaultWorkerCount,
  epochNowMs,
  runPoint,
  type ResolvedCredentials,
} from "../src/index.ts";
import { runBareLoopOnWorker } from "./bare-undici-loop.ts";
import { startTestbedProcess } from "./testbed-process.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const IN_FLIGHT = 16;
const SIZE_BYTES = 4096;
const BUCKET = "bench";

interface Server {
  name: string;
  url: string;
  credentials: ResolvedCredentials;
  stop(): Promise<void>;
}

interface Measurement {
  server: string;
  client: string;
  op: Operation;
  requests: number;
  seconds: number;
  cpuSeconds: number;
  errors: number;
}

/**
 * The bare loop and TailLab's default path run in rounds, in turn (which goes first alternates),
 * and each is judged over all its rounds: a change in the machine's load falls on both alike.
 */
const ROUNDS = Number(process.env.BENCH_ENGINE_ROUNDS ?? 3);
/** TailLab's default: one worker per core but one. */
const DEFAULT_CLIENT = `TailLab fast, ${defaultWorkerCount()} worker${defaultWorkerCount() > 1 ? "s" : ""}`;
/**
 * The goal: TailLab's default path at least as many ops/s as the bare loop, GET and PUT on MinIO,
 * at no more than 1.05× its CPU per request.
 */
const GOAL_RATIO_TO_BARE = 1.0;
const GOAL_CPU_RATIO_TO_BARE = 1.05;

function cpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

async function startTestbed(): Promise<Server> {
  const credentials = { accessKeyId: "BENCHKEY", secretAccessKey: randomBytes(16).toString("hex") };
  const testbed = await startTestbedProcess({ buckets: [BUCKET], credentials });
  return {
    name: "testbed (fast)",
    url: testbed.urls[0] as string,
    credentials,
    stop: () => testbed.stop(),
  };
}

async function startMinioServer(): Promise<Server> {
  const minio = await startMinio();
  const credentials = { accessKeyId: minio.accessKeyId, secretAccessKey: minio.secretAccessKey };
  const controlPlane = createControlPlane({
    url: minio.url,
    region: "us-east-1",
    addressing: "path",
    credentials,
    bucket: BUCKET,
    maxConnections: 1,
  });
  await controlPlane.createBucket();
  await controlPlane.close();
  return { name: "MinIO", url: minio.url, credentials, stop: () => minio.stop() };
}

async function measureTailLab(
  server: Server,
  transportKind: "fast" | "sdk",
  workers: number,
): Promise<Measurement[]> {
  const measurements: Measurement[] = [];
  let phaseCpu = 0;
  await runPoint({
    targets: [
      {
        url: server.url,
        region: "us-east-1",
        addressing: "path",
        credentials: server.credentials,
        bucket: BUCKET,
      },
    ],
    openLoop: null,
    workload: null,
    mode: "normal",
    hedge: HedgeOptionsSchema.parse({}),
    replicaChoice: "round-robin",
    transportKind,
    params: { clients: IN_FLIGHT, samples: REQUESTS, objectSizeBytes: SIZE_BYTES },
    phases: ["write", "read", "cleanup"],
    keyPrefix: `bench/taillab-${transportKind}-${Date.now()}/`,
    firstKey: 0,
    firstPhaseIndex: 0,
    workers,
    verify: false,
    runStartEpochMs: epochNowMs(),
    onPhaseStart: () => {
      phaseCpu = cpuSeconds();
    },
    onPhaseDone: ({ summary }) => {
      measurements.push({
        server: server.name,
        client: `TailLab ${transportKind}, ${workers} worker${workers > 1 ? "s" : ""}`,
        op: summary.op,
        requests: summary.requests,
        seconds: summary.requests / summary.opsPerSec,
        cpuSeconds: cpuSeconds() - phaseCpu,
        errors: summary.errors,
      });
    },
  });
  return measurements;
}

/**
 * On a new worker thread each round, as TailLab's requests run: both start cold. The bare loop
 * on this thread, warmed by its earlier rounds, was compared with TailLab's workers each
 * starting afresh, so TailLab's first phase (PUT) alone paid for its JIT warm-up.
 */
async function measureBareLoop(server: Server): Promise<Measurement[]> {
  const prefix = `bench/bare-${Date.now()}/`;
  const phases = await runBareLoopOnWorker({
    url: server.url,
    bucket: BUCKET,
    region: "us-east-1",
    credentials: server.credentials,
    keys: Array.from({ length: REQUESTS }, (_, index) => `${prefix}${index}`),
    inFlight: IN_FLIGHT,
    sizeBytes: SIZE_BYTES,
    ops: ["PUT", "GET", "DELETE"],
  });
  return phases.map(({ op, seconds, cpuSeconds, errors }) => ({
    server: server.name,
    client: "bare undici loop",
    op,
    requests: REQUESTS,
    seconds,
    cpuSeconds,
    errors,
  }));
}

/** BENCH_ENGINE_SERVERS=minio measures against MinIO alone (where the goal is judged). */
const SERVERS = (process.env.BENCH_ENGINE_SERVERS ?? "minio,testbed").split(",");
const STARTS = { minio: startMinioServer, testbed: startTestbed } as const;

const results: Measurement[] = [];
for (const start of SERVERS.map((name) => STARTS[name as keyof typeof STARTS])) {
  if (!start)
    throw new Error(
      `BENCH_ENGINE_SERVERS: expected minio and/or testbed, got ${SERVERS.join(",")}`,
    );
  const server = await start();
  try {
    const contenders = [
      { client: "bare undici loop", measure: () => measureBareLoop(server) },
      {
        client: DEFAULT_CLIENT,
        measure: () => measureTailLab(server, "fast", defaultWorkerCount()),
      },
    ];
    for (let round = 0; round < ROUNDS; round++) {
      for (const { client, measure } of round % 2 === 0 ? contenders : [...contenders].reverse()) {
        process.stderr.write(`${server.name}: round ${round + 1}, ${client}…\n`);
        results.push(...(await measure()));
      }
    }
    // One worker per core: with the server on the same cores, every extra worker thread
    // competes with the server it measures.
    if (availableParallelism() !== defaultWorkerCount()) {
      process.stderr.write(
        `${server.name}: TailLab fast path, ${availableParallelism()} workers…\n`,
      );
      results.push(...(await measureTailLab(server, "fast", availableParallelism())));
    }
    process.stderr.write(`${server.name}: TailLab SDK path…\n`);
    results.push(...(await measureTailLab(server, "sdk", availableParallelism())));
  } finally {
    await server.stop();
  }
}

/** Each server, client and operation over all its rounds. */
function pooled(measurements: readonly Measurement[]): Measurement[] {
  const groups = new Map<string, Measurement>();
  for (const measurement of measurements) {
    const key = `${measurement.server}\u0000${measurement.client}\u0000${measurement.op}`;
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { ...measurement });
      continue;
    }
    group.requests += measurement.requests;
    group.seconds += measurement.seconds;
    group.cpuSeconds += measurement.cpuSeconds;
    group.errors += measurement.errors;
  }
  return [...groups.values()];
}

const rows = pooled(results);
const opsPerSec = (measurement: Measurement) => measurement.requests / measurement.seconds;
const cpuPer1000 = (measurement: Measurement) =>
  (measurement.cpuSeconds * 1000) / measurement.requests;
const bareOf = (measurement: Measurement) =>
  rows.find(
    (other) =>
      other.server === measurement.server &&
      other.op === measurement.op &&
      other.client === "bare undici loop",
  );
const ratioToBare = (measurement: Measurement) => {
  const bare = bareOf(measurement);
  return bare ? opsPerSec(measurement) / opsPerSec(bare) : Number.NaN;
};
const cpuRatioToBare = (measurement: Measurement) => {
  const bare = bareOf(measurement);
  return bare ? cpuPer1000(measurement) / cpuPer1000(bare) : Number.NaN;
};
process.stdout.write(
  `\n${REQUESTS} requests per phase, ${SIZE_BYTES} B objects, ${IN_FLIGHT} in flight, ${availableParallelism()} cores; ` +
    `the bare loop and ${DEFAULT_CLIENT} over ${ROUNDS} rounds each, in turn\n\n`,
);
process.stdout.write(
  formatTable([
    [
      "server",
      "client",
      "op",
      "requests",
      "ops/s",
      "CPU-s/1000",
      "ops vs bare",
      "CPU vs bare",
      "errors",
    ],
    ...rows.map((measurement) => {
      const bare = bareOf(measurement);
      return [
        measurement.server,
        measurement.client,
        measurement.op,
        String(measurement.requests),
        opsPerSec(measurement).toFixed(0),
        cpuPer1000(measurement).toFixed(3),
        bare ? `${ratioToBare(measurement).toFixed(2)}x` : "",
        bare ? `${cpuRatioToBare(measurement).toFixed(2)}x` : "",
        String(measurement.errors),
      ];
    }),
  ]),
);
const judged = rows.filter(
  (row) => row.server === "MinIO" && row.client === DEFAULT_CLIENT && row.op !== "DELETE",
);
const short = judged.filter(
  (row) =>
    !(ratioToBare(row) >= GOAL_RATIO_TO_BARE && cpuRatioToBare(row) <= GOAL_CPU_RATIO_TO_BARE),
);
const judgedText = judged
  .map(
    (row) =>
      `${row.op} ${ratioToBare(row).toFixed(2)}× the ops/s at ${cpuRatioToBare(row).toFixed(2)}× the CPU`,
  )
  .join(", ");
process.stdout.write(
  `\nops/s: requests / the phase's whole duration (TailLab's summary; the bare loop's own clock).\n` +
    `Goal (${DEFAULT_CLIENT} at least ${GOAL_RATIO_TO_BARE.toFixed(1)}× the bare loop's ops/s at most ` +
    `${GOAL_CPU_RATIO_TO_BARE}× its CPU per request on MinIO, GET and PUT): ` +
    `${short.length === 0 ? "MET" : "NOT MET"} (${judgedText}).\n`,
);
