/**
 * `pnpm bench added-latency`: the latency TailLab itself adds to a request, next to a bare undici
 * loop's. A testbed process with a fixed 5 ms service time; closed-loop GETs of 4 KiB at 1, 8 and
 * 64 in flight (after a write phase at the same concurrency that creates the objects). Added
 * latency = client-measured latency − the testbed's x-taillab-service-time-us, per request.
 *
 * Run with `node --require ./service-time-tap.ts`: the tap reads the stamps off the responses in
 * TailLab's worker thread, since TailLab's records do not keep headers. The bare loop runs on a
 * worker thread too (bare-loop-worker.ts), where the same tap runs, so both carry the same
 * instrument and thread layout.
 */
import { HedgeOptionsSchema, type RequestRecord } from "@taillab/api";
import { formatTable } from "@taillab/report";
import { encodeS3Key, epochNowMs, runPoint } from "../src/index.ts";
import {
  addedLatencyStats,
  type AddedLatencyStats,
  type TimedRequests,
} from "./added-latency-stats.ts";
import type { BarePhase } from "./bare-loop-worker.ts";
import { runBareLoopOnWorker } from "./bare-undici-loop.ts";
import { collectServiceTimes } from "./service-time-channel.ts";
import { startTestbedProcess } from "./testbed-process.ts";

const SIZE_BYTES = 4096;
const BUCKET = "bench";
const FIXED_5MS = { description: "fixed 5 ms", serviceTime: { kind: "fixed", ms: 5 } } as const;
const TAILLAB_WORKERS = 1;
/** BENCH_ADDED_IN_FLIGHT=8,64 runs only those levels (to profile one, or save time). */
function inFlightChosen(inFlight: number): boolean {
  const chosen = process.env.BENCH_ADDED_IN_FLIGHT;
  return chosen === undefined || chosen.split(",").map(Number).includes(inFlight);
}
/**
 * Per round and client; enough over the rounds for a stable p99. 1 in flight is slow (each
 * request takes its 5 ms), so fewer there.
 */
const LEVELS = [
  { inFlight: 1, requests: 1_000 },
  { inFlight: 8, requests: 2_000 },
  { inFlight: 64, requests: 2_000 },
]
  .filter((level) => inFlightChosen(level.inFlight))
  .map((level) => ({
    ...level,
    requests: Number(process.env.BENCH_ADDED_REQUESTS ?? level.requests),
  }));
/**
 * Each level runs in rounds, bare loop and TailLab in turn (which goes first alternates), and
 * each client's figures are over all its rounds: a change in the machine's load during the bench
 * then falls on both clients alike.
 */
const ROUNDS = Number(process.env.BENCH_ADDED_ROUNDS ?? 4);
/** The goal: TailLab adds at most 1.1× what the bare loop adds, at p50 and at p99. */
const MAX_RATIO_TO_BARE = 1.1;
/** Stamps sent in the last event-loop turn of TailLab's worker may still be on their way. */
const STAMP_WAIT_MS = 2_000;

type Level = (typeof LEVELS)[number];
type Client = "bare undici loop" | "TailLab";

interface Measurement {
  level: Level;
  client: Client;
  stats: AddedLatencyStats;
}

async function withTestbed<T>(use: (url: string) => Promise<T>): Promise<T> {
  const testbed = await startTestbedProcess({
    buckets: [BUCKET],
    profile: FIXED_5MS,
  });
  try {
    return await use(testbed.urls[0] as string);
  } finally {
    await testbed.stop();
  }
}

function assertComplete(client: Client, timed: TimedRequests, hint: string): void {
  let missing = 0;
  for (let index = 0; index < timed.serviceTimeUs.length; index++) {
    if (Number.isNaN(timed.serviceTimeUs[index])) missing++;
  }
  if (missing > 0) {
    throw new Error(
      `${client}: ${missing} of ${timed.serviceTimeUs.length} GETs have no x-taillab-service-time-us stamp (${hint})`,
    );
  }
}

async function timeBareLoop(level: Level): Promise<TimedRequests> {
  return withTestbed(async (url) => {
    const prefix = `bench/added-bare-${level.inFlight}-${Date.now()}/`;
    const keys = Array.from({ length: level.requests }, (_, index) => `${prefix}${index}`);
    const phases = await runBareLoopOnWorker({
      url,
      bucket: BUCKET,
      region: "us-east-1",
      credentials: null,
      keys,
      inFlight: level.inFlight,
      sizeBytes: SIZE_BYTES,
      ops: ["PUT", "GET"],
    });
    const [written, read] = phases as [BarePhase, BarePhase];
    if (written.errors + read.errors > 0) {
      throw new Error(`bare undici loop: ${written.errors} PUTs and ${read.errors} GETs failed`);
    }
    const timed = { latencyUs: read.latencyUs, serviceTimeUs: read.serviceTimeUs };
    assertComplete("bare undici loop", timed, "the server sent none");
    return timed;
  });
}

async function timeTailLab(level: Level): Promise<TimedRequests> {
  return withTestbed(async (url) => {
    const stamps = collectServiceTimes();
    const gets: RequestRecord[] = [];
    try {
      await runPoint({
        targets: [
          { url, region: "us-east-1", addressing: "path", credentials: null, bucket: BUCKET },
        ],
        openLoop: null,
        workload: null,
        mode: "normal",
        hedge: HedgeOptionsSchema.parse({}),
        replicaChoice: "round-robin",
        transportKind: "fast",
        params: { clients: level.inFlight, samples: level.requests, objectSizeBytes: SIZE_BYTES },
        phases: ["write", "read"],
        keyPrefix: `bench/added-taillab-${level.inFlight}-${Date.now()}/`,
        firstKey: 0,
        firstPhaseIndex: 0,
        workers: TAILLAB_WORKERS,
        verify: false,
        runStartEpochMs: epochNowMs(),
        onRecords: (records) => {
          for (const record of records) if (record.op === "GET") gets.push(record);
        },
      });
      // One stamp per PUT and per GET.
      await stamps.waitForStamps(2 * level.requests, STAMP_WAIT_MS);
      const failed = gets.filter((record) => record.error !== null).length;
      if (failed > 0) throw new Error(`TailLab: ${failed} of ${gets.length} GETs failed`);
      // The latency TailLab reports: a closed-loop request is meant to start when its client
      // takes it, before anything about it is built.
      const timed = {
        latencyUs: gets.map((record) => record.endUs - record.intendedStartUs),
        serviceTimeUs: gets.map(
          (record) => stamps.stampOf("GET", `/${BUCKET}/${encodeS3Key(record.key)}`) ?? Number.NaN,
        ),
      };
      assertComplete("TailLab", timed, "run this script with node --require ./service-time-tap.ts");
      return timed;
    } finally {
      stamps.close();
    }
  });
}

const ms = (value: number) => value.toFixed(3);

function ratioText(value: number, bare: number | undefined): string {
  return bare === undefined ? "" : `${(value / bare).toFixed(2)}×`;
}

function tableRows(measurements: readonly Measurement[]): string[][] {
  const bareAt = (level: Level) =>
    measurements.find((other) => other.level === level && other.client === "bare undici loop");
  return measurements.map(({ level, client, stats }) => {
    const bare = client === "TailLab" ? bareAt(level)?.stats : undefined;
    return [
      String(level.inFlight),
      client,
      String(stats.requests),
      ms(stats.latencyP50Ms),
      ms(stats.latencyP99Ms),
      ms(stats.serviceTimeP50Ms),
      `+${ms(stats.addedP50Ms)}`,
      `+${ms(stats.addedP99Ms)}`,
      ratioText(stats.addedP50Ms, bare?.addedP50Ms),
      ratioText(stats.addedP99Ms, bare?.addedP99Ms),
    ];
  });
}

/** Which in-flight levels keep TailLab within MAX_RATIO_TO_BARE of the bare loop. */
function describeGoal(measurements: readonly Measurement[]): string {
  const verdicts = LEVELS.map((level) => {
    const of = (client: Client) =>
      measurements.find((m) => m.level === level && m.client === client)?.stats;
    const bare = of("bare undici loop");
    const taillab = of("TailLab");
    if (!bare || !taillab) return { level, met: false, detail: "not measured" };
    const p50 = taillab.addedP50Ms / bare.addedP50Ms;
    const p99 = taillab.addedP99Ms / bare.addedP99Ms;
    return {
      level,
      met: p50 <= MAX_RATIO_TO_BARE && p99 <= MAX_RATIO_TO_BARE,
      detail: `p50 ${p50.toFixed(2)}×, p99 ${p99.toFixed(2)}×`,
    };
  });
  const list = (items: typeof verdicts) =>
    items.map((item) => `${item.level.inFlight} in flight (${item.detail})`).join(", ");
  const met = verdicts.filter((verdict) => verdict.met);
  const missed = verdicts.filter((verdict) => !verdict.met);
  return (
    `Goal (TailLab's added latency within ${MAX_RATIO_TO_BARE}× of the bare loop's at p50 and p99): ` +
    `${met.length > 0 ? `met at ${list(met)}` : "met at no level"}` +
    `${missed.length > 0 ? `; not met at ${list(missed)}` : ""}.`
  );
}

function pooled(rounds: readonly TimedRequests[]): TimedRequests {
  return {
    latencyUs: rounds.flatMap((round) => Array.from(round.latencyUs)),
    serviceTimeUs: rounds.flatMap((round) => Array.from(round.serviceTimeUs)),
  };
}

const CLIENTS: readonly { client: Client; time: (level: Level) => Promise<TimedRequests> }[] = [
  { client: "bare undici loop", time: timeBareLoop },
  { client: "TailLab", time: timeTailLab },
];

const measurements: Measurement[] = [];
for (const level of LEVELS) {
  const rounds = new Map<Client, TimedRequests[]>(CLIENTS.map(({ client }) => [client, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? CLIENTS : [...CLIENTS].reverse();
    for (const { client, time } of order) {
      process.stderr.write(
        `added latency: ${level.inFlight} in flight, round ${round + 1}, ${client}…\n`,
      );
      rounds.get(client)?.push(await time(level));
    }
  }
  for (const { client } of CLIENTS) {
    measurements.push({
      level,
      client,
      stats: addedLatencyStats(pooled(rounds.get(client) ?? [])),
    });
  }
}

process.stdout.write(
  `\nTool-added latency: 1 testbed replica with a fixed 5 ms service time, closed-loop GETs of ` +
    `${SIZE_BYTES} B, unsigned (the testbed runs without credentials); ${ROUNDS} rounds per level, ` +
    `the two clients in turn\n\n`,
);
process.stdout.write(
  formatTable([
    [
      "in flight",
      "client",
      "GETs",
      "latency p50 ms",
      "latency p99 ms",
      "stamp p50 ms",
      "added p50 ms",
      "added p99 ms",
      "p50 vs bare",
      "p99 vs bare",
    ],
    ...tableRows(measurements),
  ]),
);
process.stdout.write(
  `\nadded = client latency − the testbed's x-taillab-service-time-us stamp, request by request, ` +
    `for both clients.\n` +
    `TailLab: runPoint, transport "fast", ${TAILLAB_WORKERS} worker thread, latency = its records' ` +
    `endUs − intendedStartUs (what it reports); stamps read off its responses in the worker (service-time-tap.ts).\n` +
    `Bare loop: an undici Pool on a worker thread of its own with the same tap, timed the same way ` +
    `(before the request is built to the body fully read).\n` +
    `Reference (issue; bare loop against a separate Node server): +0.36 / +1.0 ms (p50 / p99) at 1 ` +
    `in flight, +0.40 / +3.0 ms at 8, +1.1 / +14 ms at 64.\n` +
    `${describeGoal(measurements)}\n`,
);
