import type { ConnectionReport, Experiment, LiveTuning, SavedEndpoint } from "@taillab/api";

/** Records as the backend answers them, for the UI's unit tests. */

export function savedEndpoint(overrides: Partial<SavedEndpoint> = {}): SavedEndpoint {
  return {
    id: "e1",
    name: "MinIO",
    kind: "minio",
    url: "http://127.0.0.1:9000",
    region: "us-east-1",
    addressing: "path",
    bucket: "loadgen",
    credentials: { kind: "stored", accessKeyId: "minioadmin" },
    hasSecret: true,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

export function testbedEndpoint(overrides: Partial<SavedEndpoint> = {}): SavedEndpoint {
  return savedEndpoint({
    id: "tb",
    name: "Testbed",
    kind: "testbed",
    url: undefined,
    credentials: { kind: "anonymous" },
    hasSecret: false,
    testbed: { replicas: 3, profile: "stalls", seed: 1 },
    ...overrides,
  });
}

export const OK_REPORT: ConnectionReport = {
  verdict: "ok",
  message: "MinIO at http://127.0.0.1:9000 answers and bucket loadgen is usable.",
  checks: [
    { name: "reachable", ok: true, detail: "HTTP 200 in 2 ms" },
    { name: "credentials", ok: true, detail: "keys accepted" },
    { name: "bucket", ok: true, detail: "loadgen exists" },
    { name: "requests", ok: true, detail: "PUT, GET, DELETE of a probe key" },
  ],
  server: "MinIO",
  timings: [
    { op: "HEAD", latencyMs: 1.234 },
    { op: "PUT", latencyMs: 3.5 },
    { op: "GET", latencyMs: 2.25 },
  ],
};

export const BUCKET_REPORT: ConnectionReport = {
  verdict: "bucket",
  message: 'endpoint http://127.0.0.1:9000: bucket "loadgen" does not exist (NoSuchBucket)',
  checks: [
    { name: "reachable", ok: true, detail: "HTTP 404 in 2 ms" },
    { name: "credentials", ok: true, detail: "keys accepted" },
    { name: "bucket", ok: false, detail: "NoSuchBucket" },
    { name: "requests", ok: null, detail: "" },
  ],
  server: "MinIO",
  timings: [],
};

export function experiment(overrides: Partial<Experiment> = {}): Experiment {
  return {
    id: "x1",
    name: "S3Mock lab",
    description: "",
    endpointId: "e1",
    spec: { clients: [8], samples: [256], objectSize: ["32KiB"] },
    builtIn: false,
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

/** The live tail lab's knobs where the built-in lab starts them. */
export const LIVE_TUNING: LiveTuning = {
  serviceMs: 5,
  stallProbability: 0.01,
  stallMs: 500,
  replicas: 2,
  mode: "normal",
  hedgeDelay: { kind: "fixed", delayMs: 20 },
  hedgeBudgetPercent: 10,
};
