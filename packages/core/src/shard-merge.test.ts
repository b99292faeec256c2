import {
  CLIENT_HEALTH_VERSION,
  DISTRIBUTED_SCHEMA_VERSION,
  RunSpecSchema,
  type ClientFigures,
  type ClientHealth,
  type Operation,
  type RunEnvironment,
  type ShardResult,
} from "@taillab/api";
import { describe, expect, it } from "vitest";
import { clientVerdict } from "./client-health.ts";
import type { LogicalRequest } from "./logical-request.ts";
import { PhaseAccount, type PhaseAccountShape } from "./phase-account.ts";
import { createRandom } from "./random.ts";
import {
  mergeShards,
  missingShardProblem,
  shardMergeProblems,
  type ShardFolderState,
} from "./shard-merge.ts";
import { evenShares, firstClientOfShard } from "./shard-plan.ts";
import { shardResultProblems } from "./shard-result-check.ts";

const T0_MS = 1_764_000_000_000;
const SHARDS = 3;
const CLIENTS = 6;
const spec = RunSpecSchema.parse({
  endpoints: [{ url: "http://127.0.0.1:9000" }],
  clients: CLIENTS,
  samples: 3000,
  objectSize: 1024,
  phases: ["write", "read"],
});
const environment: RunEnvironment = {
  taillabVersion: "0.1.0",
  os: "linux",
  cpuModel: "test",
  cpuCount: 2,
  memoryBytes: 1,
  node: "v24",
  server: null,
};
const PHASES: { op: Operation; phaseIndex: number }[] = [
  { op: "PUT", phaseIndex: 0 },
  { op: "GET", phaseIndex: 1 },
];

/** A shard's requests, times in µs since T0: its clients, lognormal-ish latencies with stalls. */
function shardRequests(index: number, op: Operation, phaseIndex: number): LogicalRequest[] {
  const random = createRandom(index * 31 + phaseIndex + 1);
  const clients = evenShares(CLIENTS, SHARDS)[index] as number;
  const first = firstClientOfShard(CLIENTS, { index, count: SHARDS });
  const requests: LogicalRequest[] = [];
  const phaseStartUs = phaseIndex * 3_500_000 + index * 700; // shards start a little apart
  for (let client = first; client < first + clients; client += 1) {
    let at = phaseStartUs;
    for (let n = 0; n < 250; n += 1) {
      const stall = random.next() < 0.01 ? 400_000 : 0;
      const serviceUs = Math.round(800 + 4000 * random.next() ** 3 + stall);
      const failed = random.next() < 0.005;
      requests.push({
        op,
        intendedStartUs: at,
        phaseIndex,
        client,
        measured: true,
        winner: failed ? null : 0,
        attempts: [
          {
            replica: 0,
            readyUs: at + 20,
            sentUs: at + 50,
            headersUs: at + serviceUs,
            firstByteUs: at + serviceUs,
            endUs: at + serviceUs + 30,
            bytes: failed ? 0 : 1024,
            error: failed ? "SlowDown" : null,
          },
        ],
      });
      at += serviceUs + 30;
    }
  }
  return requests;
}

const shapeOf = (op: Operation): PhaseAccountShape => ({
  op,
  loop: "closed",
  hedgeBudgetPct: null,
});

/** Shard I's result, its run clock started (I + 1) seconds before T0. */
function shardResult(index: number, overrides: Partial<ShardResult> = {}): ShardResult {
  const runStartEpochMs = T0_MS - (index + 1) * 1000;
  const offsetUs = (T0_MS - runStartEpochMs) * 1000;
  const phases = PHASES.map(({ op, phaseIndex }) => {
    const account = new PhaseAccount(shapeOf(op));
    for (const request of shardRequests(index, op, phaseIndex)) {
      account.add({
        ...request,
        intendedStartUs: request.intendedStartUs + offsetUs,
        attempts: request.attempts.map((attempt) => ({
          ...attempt,
          readyUs: attempt.readyUs + offsetUs,
          sentUs: attempt.sentUs + offsetUs,
          headersUs: attempt.headersUs + offsetUs,
          firstByteUs: attempt.firstByteUs + offsetUs,
          endUs: attempt.endUs + offsetUs,
        })),
      });
    }
    const phase = { ...account.shape, summary: account.summary(), account: account.snapshot() };
    account.destroy();
    return phase;
  });
  return {
    schemaVersion: DISTRIBUTED_SCHEMA_VERSION,
    kind: "taillab-shard-result",
    runId: "r1",
    index,
    shards: SHARDS,
    spec,
    environment,
    endpointUrls: ["http://127.0.0.1:9000"],
    runStartEpochMs,
    startAtMs: T0_MS - 5000,
    t0Ms: T0_MS,
    startedAtMs: T0_MS + index * 0.7,
    clock: { offsetMs: 100 * index, boundMs: 500 },
    status: "complete",
    error: null,
    points: [
      { params: { clients: 2, samples: 1000, objectSizeBytes: 1024 }, finished: true, phases },
    ],
    recordCount: null,
    ...overrides,
  };
}

/** A shard's client health: one second, kept up or CPU-bound. */
function clientHealth(keptUp: boolean): ClientHealth {
  const figures: ClientFigures = {
    cpuCores: keptUp ? 0.5 : 1.95,
    availableCores: 2,
    busiestWorkerCpu: 0.5,
    eventLoopDelayP99Ms: 1,
    stallShare: 0,
    starts: 100,
    missedStarts: 0,
    behindMs: 0,
    shed: 0,
  };
  const verdict = clientVerdict(figures);
  return {
    version: CLIENT_HEALTH_VERSION,
    verdict,
    figures,
    workers: 1,
    clientsPerWorker: 2,
    tailStallMs: null,
    arrivals: null,
    seconds: [{ startMs: 0, ...figures, verdict }],
  };
}

function folderOf(results: ShardResult[], extra: Partial<ShardFolderState> = {}): ShardFolderState {
  return {
    shards: SHARDS,
    results,
    readyAtMs: new Map(),
    aborted: new Set(),
    progressAtMs: new Map(),
    ...extra,
  };
}

describe("merging the shards of a distributed run", () => {
  it("gives the figures of one account of every shard's requests, second by second", () => {
    const merged = mergeShards(folderOf([0, 1, 2].map((index) => shardResult(index))));
    expect(merged.runStartEpochMs).toBe(T0_MS);
    expect(merged.status).toBe("complete");
    const [point] = merged.points;
    expect(point?.params).toEqual({ clients: CLIENTS, samples: 3000, objectSizeBytes: 1024 });
    for (const { op, phaseIndex } of PHASES) {
      const all = new PhaseAccount(shapeOf(op));
      for (const index of [0, 1, 2]) {
        for (const request of shardRequests(index, op, phaseIndex)) all.add(request);
      }
      const phase = point?.phases.find((each) => each.shape.op === op);
      // Percentiles, means, extremes, steady window, tail: all from merged histograms and sums.
      expect(phase?.summary).toEqual(all.summary());
      const replayed = new PhaseAccount(shapeOf(op));
      replayed.merge(phase!.account);
      expect(replayed.intervalStats()).toEqual(all.intervalStats());
      replayed.destroy();
      all.destroy();
    }
  });

  it("says how together the shards started and how far apart their clocks were", () => {
    const { distributed } = mergeShards(folderOf([0, 1, 2].map((index) => shardResult(index))));
    expect(distributed).toMatchObject({
      shardCount: 3,
      t0: new Date(T0_MS).toISOString(),
      startSpreadMs: 1.4,
      clockSkewMs: 200,
      clockSkewBoundMs: 1000,
      merged: [0, 1, 2],
    });
    expect(distributed.shards.map((shard) => shard.startOffsetMs)).toEqual([0, 0.7, 1.4]);
    expect(distributed.shards[1]?.points[0]?.phases.map((phase) => phase.op)).toEqual([
      "PUT",
      "GET",
    ]);
  });

  it("names a missing shard, keeps the others' figures and says the run is not complete", () => {
    const merged = mergeShards(
      folderOf([shardResult(0), shardResult(2)], {
        readyAtMs: new Map([
          [0, T0_MS - 3000],
          [1, T0_MS - 3000],
          [2, T0_MS - 3000],
        ]),
        progressAtMs: new Map([[1, T0_MS + 2000]]),
      }),
    );
    expect(merged.status).toBe("stopped");
    expect(merged.points[0]?.finished).toBe(false);
    expect(merged.distributed.merged).toEqual([0, 2]);
    const missing = merged.distributed.shards[1];
    expect(missing?.status).toBe("missing");
    expect(missing?.problem).toMatch(/started but left no result: killed or cut off mid-run/);
    expect(merged.points[0]?.phases[0]?.summary.requests).toBe(
      shardResult(0).points[0]!.phases[0]!.summary.requests +
        shardResult(2).points[0]!.phases[0]!.summary.requests,
    );
  });

  it("reports no start spread nor busy window when two shards' clocks were surely over 1 s apart", () => {
    // Shard 2's clock 3 s ahead of the server's: by its own clock it started with the others.
    const ahead = shardResult(2, { clock: { offsetMs: -3000, boundMs: 40 } });
    const results = [
      shardResult(0, { clock: { offsetMs: 0, boundMs: 40 } }),
      shardResult(1),
      ahead,
    ];
    const merged = mergeShards(folderOf(results));
    expect(merged.distributed.clocksApart).toEqual({ shards: [1, 2], apartMs: 3100, boundMs: 540 });
    expect(merged.distributed.startSpreadMs).toBeNull();
    for (const phase of merged.points[0]!.phases) expect(phase.summary.steady).toBeNull();
    // Within the limit once the bounds are counted: the figures stand.
    const close = shardResult(2, { clock: { offsetMs: -1300, boundMs: 400 } });
    const kept = mergeShards(folderOf([shardResult(0), shardResult(1), close]));
    expect(kept.distributed.clocksApart).toBeUndefined();
    expect(kept.distributed.startSpreadMs).toBe(1.4);
    expect(kept.points[0]!.phases[0]!.summary.steady).not.toBeNull();
  });

  it("names a shard the barrier refused for its clock, and the others as aborted by it", () => {
    const refused = shardResult(1, {
      t0Ms: null,
      startedAtMs: null,
      runStartEpochMs: T0_MS - 5000,
      clock: { offsetMs: -3000, boundMs: 500 },
      status: "failed",
      error: "shard 1: this machine's clock is about 3.0 s ahead of the storage server's (…)",
      points: [],
    });
    const merged = mergeShards(
      folderOf([refused], {
        readyAtMs: new Map([
          [0, T0_MS - 3000],
          [2, T0_MS - 3000],
        ]),
        aborted: new Set([1]),
      }),
    );
    expect(merged.points).toEqual([]);
    expect(merged.distributed).toMatchObject({ t0: null, startSpreadMs: null, merged: [1] });
    expect(merged.distributed.clocksApart).toBeUndefined();
    expect(merged.distributed.shards.map(({ status, problem }) => ({ status, problem }))).toEqual([
      {
        status: "missing",
        problem:
          "did not start: shard 1 gave up at the start barrier, which aborts the run for every shard",
      },
      { status: "failed", problem: refused.error },
      expect.objectContaining({ status: "missing" }),
    ]);
  });

  it.each<[string, boolean[], { keptUp: boolean; boundShards: number[] }]>([
    ["every shard kept up", [true, true, true], { keptUp: true, boundShards: [] }],
    [
      "one shard's client was the bottleneck",
      [true, false, true],
      { keptUp: false, boundShards: [1] },
    ],
    ["two were", [false, true, false], { keptUp: false, boundShards: [0, 2] }],
  ])("carries the shards' client health: %s", (_, keptUp, expected) => {
    const withClient = (index: number) => {
      const result = shardResult(index);
      const phases = result.points[0]!.phases.map((phase) => ({
        ...phase,
        summary: { ...phase.summary, client: clientHealth(keptUp[index] as boolean) },
      }));
      return { ...result, points: [{ ...result.points[0]!, phases }] };
    };
    const merged = mergeShards(folderOf([0, 1, 2].map(withClient)));
    for (const phase of merged.points[0]!.phases) {
      const client = phase.summary.client;
      expect(client?.verdict.keptUp).toBe(expected.keptUp);
      expect(client?.verdict.reasons).toEqual(expected.keptUp ? [] : ["cpu"]);
      expect(client?.boundShards).toEqual(expected.boundShards);
      expect(client?.figures.starts).toBe(3 * 100);
      // Each shard's second 0 on the merged clock: its run clock started (I + 1) s before T0.
      expect(client?.seconds.map((second) => second.startMs)).toEqual([-1000, -2000, -3000]);
    }
  });

  it("leaves the merged phase without client health when no shard measured it", () => {
    const merged = mergeShards(folderOf([0, 1, 2].map((index) => shardResult(index))));
    expect(merged.points[0]?.phases.every((phase) => phase.summary.client === undefined)).toBe(
      true,
    );
  });

  it.each([
    [{ aborted: new Set([1]) }, /gave up at the start barrier/],
    [
      { aborted: new Set([0]), readyAtMs: new Map([[1, 5]]) },
      /^did not start: shard 0 gave up at the start barrier, which aborts the run for every shard$/,
    ],
    [{ readyAtMs: new Map([[1, 5]]) }, /was ready at the barrier but left no progress/],
    [{}, /never reached the start barrier/],
  ])("says why a shard left no result", (extra, reason) => {
    expect(missingShardProblem(1, folderOf([], extra))).toMatch(reason);
  });

  it("refuses shards of another spec, version, run or shard count, naming each", () => {
    const problems = shardMergeProblems([
      shardResult(0),
      shardResult(1, { spec: { ...spec, clients: [7] } }),
      shardResult(2, { environment: { ...environment, taillabVersion: "0.2.0" } }),
      shardResult(2, { runId: "r2", shards: 4 }),
    ]);
    expect(problems).toEqual([
      "shard 1: its spec differs from shard 0's (clients)",
      "shard 2: measured by TailLab 0.2.0, shard 0 by 0.1.0",
      "shard 2: two results for the same index",
      "shard 2: belongs to run r2, not r1",
      "shard 2: one of 4 shards, not 3",
    ]);
    expect(() => mergeShards(folderOf([shardResult(0), shardResult(1, { runId: "r2" })]))).toThrow(
      /belongs to run r2/,
    );
  });
});

describe("shardResultProblems", () => {
  const nowMs = T0_MS + 3_600_000;
  type Change = (result: ShardResult) => void;
  const phase = (result: ShardResult) => {
    const first = result.points[0]?.phases[0];
    if (!first) throw new Error("no phase");
    return first;
  };
  const latency = (result: ShardResult) => {
    const tally = phase(result).account.tallies.latency;
    if (!tally) throw new Error("no latency tally");
    return tally;
  };

  it("finds nothing wrong with sound shards", () => {
    for (let index = 0; index < SHARDS; index += 1) {
      expect(shardResultProblems(shardResult(index), nowMs)).toEqual([]);
    }
  });

  it.each<[string, Change, RegExp]>([
    ["an index out of range", (result) => (result.index = SHARDS), /index 3 is out of range/],
    [
      "a run clock in the future",
      (result) => (result.runStartEpochMs = nowMs + 1),
      /run clock starts in the future/,
    ],
    [
      "a histogram that does not decode",
      (result) => (latency(result).histogram = "bm90IGEgaGlzdG9ncmFt"),
      /point 1 PUT: latency histogram: not a readable HDR histogram/,
    ],
    [
      "a duration longer than its phase",
      (result) => {
        latency(result).maxUs = 4_503_599_627_370_500;
        latency(result).sumUs += 4_503_599_627_370_500;
      },
      /latency histogram: a duration of 4503599627370500 µs is longer than its phase/,
    ],
    [
      "a count its histogram does not hold",
      (result) => (latency(result).count += 1),
      /latency histogram: it holds \d+ values, its count says/,
    ],
    [
      "a summary that disagrees with its account",
      (result) => (phase(result).summary.requests += 1),
      /its summary counts/,
    ],
    [
      "more errors than requests",
      (result) => (phase(result).account.errorsByCode.SlowDown = 1_000_000),
      /errors in \d+ requests/,
    ],
    [
      "a segment after now",
      (result) => {
        const segment = phase(result).account.segments[0];
        if (segment) segment.lastEndUs = 10 * 3_600_000_000;
      },
      /segment .* is outside its run/,
    ],
  ])("finds %s", (_name, change, problem) => {
    const result = shardResult(0);
    change(result);
    expect(shardResultProblems(result, nowMs).join("\n")).toMatch(problem);
  });
});
