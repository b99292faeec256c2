/**
 * `pnpm bench engine`: TailLab's closed loop against a bare undici loop, both sending the same
 * signed 4 KiB requests with 16 in flight, against MinIO and against the embedded testbed (run in
 * its own process so its CPU is not counted as the client's). Prints ops/s and client CPU seconds
 * per 1 000 requests; process.cpuUsage() covers every thread of this process.
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
import { runBareLoop } from "./bare-undici-loop.ts";
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
  opsPerSec: number;
  cpuSecondsPer1000: number;
  errors: number;
}

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
        opsPerSec: summary.opsPerSec,
        cpuSecondsPer1000: ((cpuSeconds() - phaseCpu) * 1000) / summary.requests,
        errors: summary.errors,
      });
    },
  });
  return measurements;
}

async function measureBareLoop(server: Server): Promise<Measurement[]> {
  const prefix = `bench/bare-${Date.now()}/`;
  const keys = Array.from({ length: REQUESTS }, (_, index) => `${prefix}${index}`);
  const body = randomBytes(SIZE_BYTES);
  const measurements: Measurement[] = [];
  for (const op of ["PUT", "GET", "DELETE"] as const) {
    const cpuBefore = cpuSeconds();
    const startedMs = performance.now();
    const { errors } = await runBareLoop({
      url: server.url,
      bucket: BUCKET,
      region: "us-east-1",
      credentials: server.credentials,
      op,
      keys,
      inFlight: IN_FLIGHT,
      body,
    });
    const seconds = (performance.now() - startedMs) / 1000;
    measurements.push({
      server: server.name,
      client: "bare undici loop",
      op,
      opsPerSec: REQUESTS / seconds,
      cpuSecondsPer1000: ((cpuSeconds() - cpuBefore) * 1000) / REQUESTS,
      errors,
    });
  }
  return measurements;
}

const results: Measurement[] = [];
for (const start of [startMinioServer, startTestbed]) {
  const server = await start();
  try {
    process.stderr.write(`${server.name}: bare loop…\n`);
    results.push(...(await measureBareLoop(server)));
    // One worker per core, and the default (one per core but one): with the server on the same
    // cores, every extra worker thread competes with the server it measures.
    for (const workers of new Set([availableParallelism(), defaultWorkerCount()])) {
      process.stderr.write(`${server.name}: TailLab fast path, ${workers} worker(s)…\n`);
      results.push(...(await measureTailLab(server, "fast", workers)));
    }
    process.stderr.write(`${server.name}: TailLab SDK path…\n`);
    results.push(...(await measureTailLab(server, "sdk", availableParallelism())));
  } finally {
    await server.stop();
  }
}

const bareOf = (measurement: Measurement) =>
  results.find(
    (other) =>
      other.server === measurement.server &&
      other.op === measurement.op &&
      other.client === "bare undici loop",
  );
process.stdout.write(
  `\n${REQUESTS} requests per phase, ${SIZE_BYTES} B objects, ${IN_FLIGHT} in flight, ${availableParallelism()} cores\n\n`,
);
process.stdout.write(
  formatTable([
    ["server", "client", "op", "ops/s", "CPU-s/1000", "ops vs bare", "CPU vs bare", "errors"],
    ...results.map((measurement) => {
      const bare = bareOf(measurement);
      return [
        measurement.server,
        measurement.client,
        measurement.op,
        measurement.opsPerSec.toFixed(0),
        measurement.cpuSecondsPer1000.toFixed(3),
        bare ? `${(measurement.opsPerSec / bare.opsPerSec).toFixed(2)}x` : "",
        bare ? `${(measurement.cpuSecondsPer1000 / bare.cpuSecondsPer1000).toFixed(2)}x` : "",
        String(measurement.errors),
      ];
    }),
  ]),
);
