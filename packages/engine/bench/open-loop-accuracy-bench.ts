/**
 * `pnpm bench open-loop`: how closely the open loop keeps its schedule. 5 000 requests/s over 3
 * worker threads (more threads than this 2-core machine has, on purpose) against a testbed process
 * with no injected latency (warmed up first, so its own start-up is not what is measured), 4 KiB
 * objects, a write phase then a read phase, fixed and Poisson arrivals. From every first
 * attempt's record: how late it left the client queue (ready − intended start) and went on the
 * wire (sent − intended start), and how evenly the sends were spaced (coefficient of variation of
 * the gaps between consecutive sends: 0 for a perfectly even schedule, 1 for Poisson arrivals).
 * Beside them, the floor: a bare loop that only sleeps until each intended start, on this
 * machine, just before.
 */
import {
  HedgeOptionsSchema,
  type OpenLoop,
  type Operation,
  type PhaseSummary,
  type RequestRecord,
} from "@taillab/api";
import { exactPercentile, MISSED_START_TOLERANCE_MS } from "@taillab/core";
import { formatTable } from "@taillab/report";
import { epochNowMs, runPoint } from "../src/index.ts";
import { runBareLoop } from "./bare-undici-loop.ts";
import { startTestbedProcess } from "./testbed-process.ts";

const RATE_HZ = Number(process.env.BENCH_OPEN_LOOP_RATE ?? 5_000);
const SECONDS = Number(process.env.BENCH_OPEN_LOOP_SECONDS ?? 6);
const WORKERS = 3;
/**
 * In flight at most: far more than 5 000/s needs, so a slow answer never holds a request back
 * (the first requests to a fresh worker take milliseconds).
 */
const CLIENTS = 192;
/** Requests of each kind a bare loop sends the testbed before the measured runs. */
const TESTBED_WARMUP_REQUESTS = 10_000;
const SIZE_BYTES = 4096;
const BUCKET = "bench";
/** The goal: 99 % of requests on the wire within 1 ms of their intended start. */
const GOAL_P99_LATENESS_MS = 1;

interface Lateness {
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
}

interface PhaseAccuracy {
  arrivals: OpenLoop["arrivals"];
  op: Operation;
  requests: number;
  missedStarts: number;
  ready: Lateness;
  sent: Lateness;
  /** Of the gaps between consecutive intended starts, and between consecutive sends. */
  intendedGapCv: number;
  sentGapCv: number;
  sentRateHz: number;
}

function latenessOf(valuesUs: number[]): Lateness {
  const sortedMs = valuesUs.map((us) => us / 1000).sort((a, b) => a - b);
  return {
    p50Ms: exactPercentile(sortedMs, 50),
    p99Ms: exactPercentile(sortedMs, 99),
    p999Ms: exactPercentile(sortedMs, 99.9),
    maxMs: sortedMs.at(-1) as number,
  };
}

/** Coefficient of variation (standard deviation / mean) of the gaps between sorted times. */
function gapCv(timesUs: number[]): number {
  const sorted = [...timesUs].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((time, index) => time - (sorted[index] as number));
  const mean = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
  const variance = gaps.reduce((sum, gap) => sum + (gap - mean) ** 2, 0) / gaps.length;
  return Math.sqrt(variance) / mean;
}

function accuracyOf(
  arrivals: OpenLoop["arrivals"],
  summary: PhaseSummary,
  records: readonly RequestRecord[],
): PhaseAccuracy {
  const firsts = records.filter((record) => record.op === summary.op && record.attempt === 1);
  const sentUs = firsts.map((record) => record.sentUs);
  const spanUs = Math.max(...sentUs) - Math.min(...sentUs);
  return {
    arrivals,
    op: summary.op,
    requests: firsts.length,
    missedStarts: summary.missedStarts,
    ready: latenessOf(firsts.map((record) => record.readyUs - record.intendedStartUs)),
    sent: latenessOf(firsts.map((record) => record.sentUs - record.intendedStartUs)),
    intendedGapCv: gapCv(firsts.map((record) => record.intendedStartUs)),
    sentGapCv: gapCv(sentUs),
    sentRateHz: ((firsts.length - 1) * 1e6) / spanUs,
  };
}

/** The testbed's own start-up (its JIT compiling) would otherwise be counted as lateness. */
async function warmUp(url: string): Promise<void> {
  const keys = Array.from({ length: TESTBED_WARMUP_REQUESTS }, (_, index) => `warmup/${index}`);
  for (const op of ["PUT", "GET"] as const) {
    await runBareLoop({
      url,
      bucket: BUCKET,
      region: "us-east-1",
      credentials: null,
      op,
      keys,
      inFlight: 32,
      body: Buffer.alloc(SIZE_BYTES),
    });
  }
}

/**
 * The machine's floor: a loop that does nothing but sleep until each intended start (as the
 * pacer does, in Atomics.wait) at the same rate, and how late it wakes.
 */
function pacingFloor(count: number): Lateness {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const gapMs = 1000 / RATE_HZ;
  const startMs = performance.now() + 20;
  const lateUs: number[] = [];
  for (let index = 0; index < count; index++) {
    const intendedMs = startMs + index * gapMs;
    for (let waitMs = intendedMs - performance.now(); waitMs > 0;) {
      Atomics.wait(flag, 0, 0, waitMs);
      waitMs = intendedMs - performance.now();
    }
    lateUs.push((performance.now() - intendedMs) * 1000);
  }
  return latenessOf(lateUs);
}

async function measure(arrivals: OpenLoop["arrivals"]): Promise<PhaseAccuracy[]> {
  const testbed = await startTestbedProcess({ buckets: [BUCKET] });
  const records: RequestRecord[] = [];
  const accuracies: PhaseAccuracy[] = [];
  try {
    await warmUp(testbed.urls[0] as string);
    await runPoint({
      targets: [
        {
          url: testbed.urls[0] as string,
          region: "us-east-1",
          addressing: "path",
          credentials: null,
          bucket: BUCKET,
        },
      ],
      openLoop: { rateHz: RATE_HZ, arrivals, seed: 1 },
      workload: null,
      mode: "normal",
      hedge: HedgeOptionsSchema.parse({}),
      replicaChoice: "round-robin",
      transportKind: "fast",
      params: { clients: CLIENTS, samples: RATE_HZ * SECONDS, objectSizeBytes: SIZE_BYTES },
      phases: ["write", "read"],
      keyPrefix: `bench/open-loop-${arrivals}-${Date.now()}/`,
      firstKey: 0,
      firstPhaseIndex: 0,
      workers: WORKERS,
      verify: false,
      runStartEpochMs: epochNowMs(),
      onRecords: (batch) => records.push(...batch),
      onPhaseDone: ({ summary }) => {
        accuracies.push(accuracyOf(arrivals, summary, records));
        records.length = 0;
      },
    });
  } finally {
    await testbed.stop();
  }
  return accuracies;
}

const ms = (value: number) => value.toFixed(3);

process.stderr.write(`open loop: the machine's floor…\n`);
const floor = pacingFloor(RATE_HZ * SECONDS);
const results: PhaseAccuracy[] = [];
for (const arrivals of ["fixed", "poisson"] as const) {
  process.stderr.write(`open loop: ${arrivals} arrivals…\n`);
  results.push(...(await measure(arrivals)));
}

process.stdout.write(
  `\nOpen-loop accuracy: ${RATE_HZ} requests/s for ${SECONDS} s per phase, ${WORKERS} worker threads, ` +
    `at most ${CLIENTS} in flight, ${SIZE_BYTES} B objects, a testbed process with no injected latency\n\n`,
);
process.stdout.write(
  formatTable([
    [
      "arrivals",
      "op",
      "requests",
      "sent/s",
      "ready−intended p50 / p99 / p99.9 / max ms",
      "sent−intended p50 / p99 / p99.9 / max ms",
      "missed starts",
      "gap CV intended",
      "gap CV sent",
    ],
    ...results.map((result) => [
      result.arrivals,
      result.op,
      String(result.requests),
      result.sentRateHz.toFixed(0),
      [result.ready.p50Ms, result.ready.p99Ms, result.ready.p999Ms, result.ready.maxMs]
        .map(ms)
        .join(" / "),
      [result.sent.p50Ms, result.sent.p99Ms, result.sent.p999Ms, result.sent.maxMs]
        .map(ms)
        .join(" / "),
      String(result.missedStarts),
      result.intendedGapCv.toFixed(3),
      result.sentGapCv.toFixed(3),
    ]),
  ]),
);
const missed = results.filter((result) => result.sent.p99Ms > GOAL_P99_LATENESS_MS);
process.stdout.write(
  `\nready: the request left the client queue (before signing); sent: undici wrote it on a ` +
    `connection. Missed starts: ready more than ${MISSED_START_TOLERANCE_MS} ms after the intended start.\n` +
    `Floor: a bare loop sleeping until each of ${RATE_HZ * SECONDS} intended starts at ${RATE_HZ}/s, ` +
    `on this machine just before, woke late by p50 / p99 / p99.9 / max ` +
    `${[floor.p50Ms, floor.p99Ms, floor.p999Ms, floor.maxMs].map(ms).join(" / ")} ms: ` +
    `no schedule kept by a thread can do better here.\n` +
    `Goal (p99 of sent − intended start ≤ ${GOAL_P99_LATENESS_MS} ms): ` +
    (missed.length === 0
      ? "MET in every phase.\n"
      : `NOT MET in ${missed.map((result) => `${result.arrivals} ${result.op} (${ms(result.sent.p99Ms)} ms)`).join(", ")}.\n`),
);
