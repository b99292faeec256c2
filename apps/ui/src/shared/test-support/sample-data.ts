import {
  codeOf,
  coded,
  englishOf,
  type CodedMessage,
  type ConnectionReport,
  type Experiment,
  type IntervalStats,
  type LiveTuning,
  type SavedEndpoint,
} from "@taillab/api";

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

type Check = ConnectionReport["checks"][number];

/** A check as the backend reports it: its detail in English, its code and params. */
function check(name: Check["name"], ok: boolean | null, detail: CodedMessage): Check {
  return { name, ok, detail: englishOf(detail), ...codeOf(detail) };
}

const PASSED: Record<Check["name"], CodedMessage> = {
  reachable: coded("serverAnswered", { status: 404 }),
  credentials: coded("keyAccepted"),
  bucket: coded("bucketAnswers", { bucket: "loadgen" }),
  requests: coded("probeWorked", { kib: 1 }),
};

/** A test whose check `at` failed as `problem` says, the checks before it passed: the backend's way. */
export function failedReport(
  verdict: ConnectionReport["verdict"],
  problem: CodedMessage,
  at: Check["name"] = "bucket",
): ConnectionReport {
  const sentence = coded("labelled", { label: "http://127.0.0.1:9000", text: problem });
  const names = Object.keys(PASSED) as Check["name"][];
  const failed = names.indexOf(at);
  return {
    verdict,
    message: englishOf(sentence),
    ...codeOf(sentence),
    checks: names.map((name, index) =>
      index < failed
        ? check(name, true, PASSED[name])
        : index === failed
          ? check(name, false, problem)
          : check(name, null, coded("notTried")),
    ),
    server: "MinIO",
    timings: [],
  };
}

export const BUCKET_REPORT = failedReport(
  "bucket",
  coded("bucketDoesNotExist", { bucket: "loadgen" }),
);

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

/**
 * Three seconds of a phase as its interval log gives them: 100, 90 and 80 answered, 0, 1 and 2
 * failed. With `counts`, what seconds have kept since (a run stored before has neither): the
 * bytes a second's answers moved, and its failures' codes (SlowDown).
 */
export function threeSeconds(counts?: { bytes: (requests: number) => number }): IntervalStats[] {
  return [0, 1, 2].map((index): IntervalStats => {
    const requests = 100 - index * 10;
    const errorsByCode: Record<string, number> = index > 0 ? { SlowDown: index } : {};
    return {
      startMs: index * 1000,
      lengthMs: 1000,
      requests,
      errors: index,
      p50Ms: 2,
      p99Ms: 8,
      p999Ms: 12,
      maxMs: 15,
      ...(counts ? { bytes: counts.bytes(requests), errorsByCode } : {}),
    };
  });
}
