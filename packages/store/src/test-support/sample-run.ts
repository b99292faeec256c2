import {
  RESULTS_SCHEMA_VERSION,
  RunSpecSchema,
  type Operation,
  type PhaseHistograms,
  type RequestRecord,
  type RunEnvironment,
  type RunSpec,
  type RunSummary,
} from "@taillab/api";
import {
  createRandom,
  encodedHistogramsOf,
  intervalLogLines,
  PhaseAccount,
  phaseShapeOf,
  type IntervalLogLine,
  type LogicalRequest,
} from "@taillab/core";
import type { CreateRunInput } from "../results-store.ts";

/** Made-up runs for the store's tests, fixture process and bench. */

export const SAMPLE_ENVIRONMENT: RunEnvironment = {
  taillabVersion: "0.1.0",
  os: "linux 6.1.0 x64",
  cpuModel: "Test CPU",
  cpuCount: 2,
  memoryBytes: 8 * 1024 ** 3,
  node: "v24.0.0",
  server: "TestServer",
};

export function sampleSpec(input: Record<string, unknown> = {}): RunSpec {
  return RunSpecSchema.parse({ clients: 4, samples: 1000, objectSize: "4KiB", ...input });
}

export function sampleRunInput(id: string, spec: RunSpec = sampleSpec()): CreateRunInput {
  return {
    id,
    name: `run ${id}`,
    spec,
    environment: SAMPLE_ENVIRONMENT,
    keyPrefix: `${spec.keyPrefix}/${id}/`,
    runStartEpochMs: Date.now(),
  };
}

/** The run test-support/write-run-child.ts writes for the crash tests. */
export const CRASH_RUN = {
  points: 2,
  ops: ["PUT", "GET", "DELETE"] as Operation[],
  recordsPerPhase: 3000,
} as const;

const ERROR_CODES = ["SlowDown", "InternalError", "ECONNRESET"];

/**
 * `count` attempts of one phase: mostly single successful attempts, some failures, some hedged
 * pairs (a first attempt that lost and a backup that won), and a few keys outside the prefix.
 */
export function sampleRecords(options: {
  keyPrefix: string;
  op: Operation;
  count: number;
  seed: number;
  firstKey?: number;
  startUs?: number;
  phaseIndex?: number;
}): RequestRecord[] {
  const random = createRandom(options.seed);
  const records: RequestRecord[] = [];
  let clockUs = options.startUs ?? 0;
  let keyNumber = options.firstKey ?? 0;
  while (records.length < options.count) {
    const intendedStartUs = clockUs;
    const key = random.chance(0.01)
      ? `elsewhere/odd key ${keyNumber}`
      : `${options.keyPrefix}${keyNumber}`;
    keyNumber += 1;
    clockUs += 50 + Math.round(random.next() * 100);
    const latencyUs = Math.round(random.lognormal(2000, 0.5));
    const bytes = options.op === "DELETE" ? 0 : 4096;
    const base = {
      op: options.op,
      key,
      bytes,
      intendedStartUs,
      readyUs: intendedStartUs,
      sentUs: intendedStartUs + 20,
      // Every tenth request waits for a new connection; a PUT's body takes a while to send.
      connectUs: keyNumber % 10 === 0 ? 15 : 0,
      bodySentUs: intendedStartUs + 20 + (options.op === "PUT" ? Math.round(latencyUs / 8) : 0),
      headersUs: intendedStartUs + Math.round(latencyUs / 2),
      firstByteUs: intendedStartUs + Math.round(latencyUs / 2),
      endUs: intendedStartUs + latencyUs,
      status: 200,
      error: null,
      attempt: 1,
      replica: 0,
      winner: true,
      phaseIndex: options.phaseIndex ?? 0,
      client: keyNumber % 4,
      measured: true,
    } satisfies RequestRecord;
    if (random.chance(0.02) || records.length + 1 === options.count) {
      const error = ERROR_CODES[Math.floor(random.next() * ERROR_CODES.length)] ?? "SlowDown";
      records.push({ ...base, bytes: 0, status: 503, error, winner: false });
    } else if (random.chance(0.05)) {
      const backupStartUs = intendedStartUs + 1000;
      records.push({
        ...base,
        endUs: backupStartUs + 500,
        status: 0,
        error: "Cancelled",
        winner: false,
      });
      records.push({
        ...base,
        readyUs: backupStartUs,
        sentUs: backupStartUs + 20,
        connectUs: 0,
        bodySentUs: backupStartUs + 20 + (options.op === "PUT" ? 50 : 0),
        headersUs: backupStartUs + 200,
        firstByteUs: backupStartUs + 200,
        endUs: backupStartUs + 400,
        attempt: 2,
        replica: 1,
      });
    } else {
      records.push(base);
    }
  }
  return records.slice(0, options.count);
}

/** The records' logical requests: an attempt 1 and the attempts after it. */
function logicalRequests(records: readonly RequestRecord[]): LogicalRequest[] {
  const requests: LogicalRequest[] = [];
  for (const record of records) {
    const { connectUs, bodySentUs, ...timeline } = record;
    const attempt = {
      ...timeline,
      connectUs: connectUs ?? 0,
      bodySentUs: bodySentUs ?? timeline.sentUs,
    };
    const last = requests.at(-1);
    if (record.attempt > 1 && last) {
      if (record.winner) last.winner = last.attempts.length;
      (last.attempts as (typeof attempt)[]).push(attempt);
      continue;
    }
    requests.push({ ...record, attempts: [attempt], winner: record.winner ? 0 : null });
  }
  return requests;
}

/** The account the engine would have made of these records. */
function accountOf(spec: RunSpec, op: Operation, records: readonly RequestRecord[]): PhaseAccount {
  const account = new PhaseAccount(phaseShapeOf(spec, op));
  for (const request of logicalRequests(records)) account.add(request);
  return account;
}

/** The phase histograms and interval lines the engine would have written for these records. */
export function phaseOf(
  spec: RunSpec,
  pointIndex: number,
  op: Operation,
  records: readonly RequestRecord[],
): { histograms: PhaseHistograms; intervalLines: IntervalLogLine[] } {
  const account = accountOf(spec, op, records);
  const snapshot = account.snapshot();
  account.destroy();
  return {
    histograms: { pointIndex, op, ...encodedHistogramsOf(snapshot) },
    intervalLines: intervalLogLines(pointIndex, op, snapshot.intervals),
  };
}

export function sampleSummary(runId: string, spec: RunSpec, ops: Operation[]): RunSummary {
  const now = new Date().toISOString();
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    runId,
    startedAt: now,
    finishedAt: now,
    spec,
    endpointUrls: [],
    server: "TestServer",
    mode: spec.mode,
    loop: "closed",
    status: "complete",
    pointCount: 1,
    points: [
      {
        params: { clients: 4, samples: 1000, objectSizeBytes: 4096 },
        finished: true,
        phases: ops.map((op) => {
          const account = accountOf(
            spec,
            op,
            sampleRecords({ keyPrefix: "sample/", op, count: 1, seed: 1 }).map((record) => ({
              ...record,
              status: 200,
              error: null,
              winner: true,
            })),
          );
          const summary = account.summary();
          account.destroy();
          return summary;
        }),
      },
    ],
  };
}
