import type { ActiveRun, IntervalStats, RunEvent, RunProgress } from "@taillab/api";
import { describe, expect, it } from "vitest";
import {
  adoptActiveRun,
  IDLE_RUN,
  mergeIntervals,
  missingLatencies,
  overallProgress,
  reduceRunEvent,
  seriesProgress,
  shownPhase,
  type LiveRunState,
} from "./live-run-state.ts";
import { stoppedInPoint } from "./live-status.ts";

const POINTS = [
  { clients: 1, samples: 100, objectSizeBytes: 4096 },
  { clients: 4, samples: 100, objectSizeBytes: 4096 },
];
const SERIES = { index: 0, count: 1, mode: "normal" as const };

const started: RunEvent = {
  type: "started",
  runId: "r1",
  name: "Sweep",
  points: POINTS,
  // Two points × write, read, cleanup of 100 each.
  requestCount: 600,
  series: SERIES,
};

function progress(
  changes: Partial<RunProgress>,
  intervals: IntervalStats[] | null = null,
): Extract<RunEvent, { type: "progress" }> {
  const full: RunProgress = {
    runId: "r1",
    pointIndex: 0,
    pointCount: 2,
    params: POINTS[0] ?? { clients: 1, samples: 1, objectSizeBytes: 1 },
    op: "PUT",
    done: 0,
    total: 100,
    errors: 0,
    opsPerSec: 1000,
    p50Ms: 1,
    p99Ms: 5,
    elapsedMs: 0,
    ...changes,
  };
  return {
    type: "progress",
    progress: full,
    percentiles: { p50Ms: 1, p90Ms: 2, p99Ms: 5, p999Ms: 9, maxMs: 12, count: full.done },
    intervals: intervals ? { pointIndex: full.pointIndex, op: full.op, intervals } : null,
  };
}

/** The run's "finished" event: complete unless told. */
function finishedEvent(changes: Partial<Extract<RunEvent, { type: "finished" }>> = {}): RunEvent {
  return {
    type: "finished",
    runId: "r1",
    status: "complete",
    error: null,
    series: SERIES,
    seriesRunIds: ["r1"],
    ...changes,
  };
}

/** `count` seconds from second `from`, each answered in `valueMs`. */
function seconds(from: number, count: number, valueMs = 1): IntervalStats[] {
  return Array.from({ length: count }, (_, index) => ({
    startMs: (from + index) * 1000,
    lengthMs: 1000,
    requests: 10,
    errors: 0,
    p50Ms: valueMs,
    p99Ms: valueMs,
    p999Ms: valueMs,
    maxMs: valueMs,
  }));
}

const run = (...events: RunEvent[]): LiveRunState => events.reduce(reduceRunEvent, IDLE_RUN);

describe("live run reducer", () => {
  it("follows a run from its start to its progress", () => {
    const state = run(started, progress({ done: 50, elapsedMs: 500 }));
    expect(state).toMatchObject({
      status: "running",
      runId: "r1",
      name: "Sweep",
      requestCount: 600,
    });
    expect(state.percentiles?.p999Ms).toBe(9);
    expect(overallProgress(state)).toEqual({
      done: 50,
      total: 600,
      fraction: 50 / 600,
      elapsedMs: 500,
      etaMs: (500 * 550) / 50,
    });
  });

  it("adds a finished phase's requests and time when the next phase starts", () => {
    const state = run(
      started,
      progress({ done: 100, elapsedMs: 1000 }),
      progress({ op: "GET", done: 20, elapsedMs: 100 }),
      progress({ op: "GET", done: 100, elapsedMs: 400 }),
      progress({ op: "DELETE", done: 100, elapsedMs: 50 }),
      progress({ pointIndex: 1, op: "PUT", done: 10, elapsedMs: 30 }),
    );
    expect(state.doneBefore).toBe(300);
    expect(overallProgress(state)).toMatchObject({ done: 310, elapsedMs: 1480 });
  });

  it("keeps notices of its own run, and ignores others", () => {
    const state = run(
      started,
      { type: "notice", runId: "r1", message: "replica 2 is slow" },
      { type: "notice", runId: "other", message: "not ours" },
    );
    expect(state.notices).toEqual([{ id: 1, message: "replica 2 is slow" }]);
  });

  it("ends with the finished status, and a late progress event does not revive it", () => {
    const finished = finishedEvent();
    const state = run(started, progress({ done: 90 }), finished, progress({ done: 95 }));
    expect(state.status).toBe("finished");
    expect(state.finished).toMatchObject({ status: "complete" });
    expect(state.progress?.done).toBe(90);
    // A complete run is complete, whatever the last progress said.
    expect(overallProgress(state)).toMatchObject({ done: 600, etaMs: null });
  });

  it("counts a stopped run's requests as they were", () => {
    const state = run(started, progress({ done: 90 }), finishedEvent({ status: "stopped" }));
    expect(overallProgress(state)).toMatchObject({ done: 90, total: 600, etaMs: null });
  });

  it("keeps a failed run's reason", () => {
    const state = run(
      started,
      finishedEvent({
        status: "failed",
        error: {
          message: 'endpoint http://127.0.0.1:9000: bucket "loadgen" does not exist (NoSuchBucket)',
        },
      }),
    );
    expect(state.finished?.error?.message).toContain("NoSuchBucket");
  });

  it("joins a run it did not see start from its progress", () => {
    const state = run(progress({ runId: "r9", done: 5 }));
    expect(state).toMatchObject({ status: "running", runId: "r9" });
  });

  it("starts afresh for the next run of a mode series", () => {
    const state = run(started, progress({ done: 50 }, seconds(0, 10)), {
      ...started,
      runId: "r2",
      series: { index: 1, count: 3, mode: "hedged" },
    });
    expect(state).toMatchObject({ runId: "r2", progress: null, overTime: null, doneBefore: 0 });
    expect(state.series).toEqual({ index: 1, count: 3, mode: "hedged" });
  });
});

describe("a mode series", () => {
  const series = (index: number, mode: "normal" | "hedged" | "tied") => ({
    index,
    count: 3,
    mode,
  });
  const startedRun = (index: number, mode: "normal" | "hedged" | "tied"): RunEvent => ({
    ...started,
    runId: `r${index + 1}`,
    name: `Tail (${mode})`,
    series: series(index, mode),
  });
  const finishedRun = (index: number, mode: "normal" | "hedged" | "tied"): RunEvent =>
    finishedEvent({
      runId: `r${index + 1}`,
      series: series(index, mode),
      seriesRunIds: [`r${index + 1}`],
    });

  it("counts the whole series' requests and time, and its time left from both", () => {
    const state = run(
      startedRun(0, "normal"),
      progress({ runId: "r1", op: "DELETE", pointIndex: 1, done: 100, elapsedMs: 6000 }),
      finishedRun(0, "normal"),
      startedRun(1, "hedged"),
      progress({ runId: "r2", done: 60, elapsedMs: 600 }),
    );
    expect(overallProgress(state)).toMatchObject({ done: 60, total: 600 });
    expect(seriesProgress(state)).toEqual({
      done: 660,
      total: 1800,
      fraction: 660 / 1800,
      elapsedMs: 6600,
      etaMs: (6600 / 660) * (1800 - 660),
    });
  });

  it("goes by this run's pace when it joined the series part way", () => {
    const state = run(startedRun(2, "tied"), progress({ runId: "r3", done: 60, elapsedMs: 600 }));
    expect(seriesProgress(state)).toMatchObject({
      done: 1260,
      total: 1800,
      etaMs: (600 / 60) * (1800 - 1260),
    });
  });

  it("is the run's own progress for a single run", () => {
    const state = run(started, progress({ done: 50, elapsedMs: 500 }));
    expect(seriesProgress(state)).toEqual(overallProgress(state));
  });
});

describe("the phase shown", () => {
  it("is the running one, then after a run that ended with its cleanup, the last measured", () => {
    const reads = run(
      started,
      progress({ pointIndex: 1, op: "GET", done: 100, elapsedMs: 400 }, seconds(0, 4)),
    );
    const cleaning = reduceRunEvent(
      reads,
      progress({ pointIndex: 1, op: "DELETE", done: 40, elapsedMs: 40 }, seconds(4, 1)),
    );
    expect(shownPhase(cleaning)).toMatchObject({ kept: false, progress: { op: "DELETE" } });
    const finished = reduceRunEvent(cleaning, finishedEvent());
    const shown = shownPhase(finished);
    expect(shown).toMatchObject({ kept: true, progress: { op: "GET", pointIndex: 1, done: 100 } });
    expect(shown?.percentiles?.count).toBe(100);
    expect(shown?.overTime?.intervals).toHaveLength(4);
  });

  it("keeps its count, percentiles and seconds from the same event", () => {
    const state = run(
      started,
      progress({ op: "GET", done: 45 }, seconds(0, 2)),
      progress({ op: "GET", done: 76 }, seconds(2, 1)),
    );
    const shown = shownPhase(state);
    expect(shown?.progress.done).toBe(76);
    expect(shown?.percentiles?.count).toBe(76);
    expect(shown?.overTime?.intervals.map((interval) => interval.startMs)).toEqual([0, 1000, 2000]);
  });
});

describe("a phase without latencies", () => {
  const noAnswers = (changes: Partial<RunProgress>): RunEvent => ({
    ...progress(changes),
    percentiles: null,
  });

  it.each<[string, RunEvent[], ReturnType<typeof missingLatencies>]>([
    ["before any event", [started], "waiting"],
    ["while requests are out", [started, noAnswers({ done: 0 })], "waiting"],
    ["after every request failed", [started, noAnswers({ done: 40, errors: 40 })], "failed"],
    [
      "after an all-error run ended",
      [started, noAnswers({ done: 100, errors: 100 }), finishedEvent({ status: "failed" })],
      "failed",
    ],
    ["after a run that timed nothing", [started, finishedEvent({ status: "failed" })], "none"],
    ["once answers come", [started, progress({ done: 5 }, seconds(0, 1))], null],
  ])("%s: %s", (_name, events, reason) => {
    expect(missingLatencies(run(...events))).toBe(reason);
  });
});

describe("live percentiles over time", () => {
  it("adds a phase's seconds, replaces the one still filling, and starts over for a new phase", () => {
    const state = run(
      started,
      progress({ done: 10 }, seconds(0, 2, 1)),
      progress({ done: 20 }, [...seconds(1, 1, 7), ...seconds(2, 1)]),
    );
    expect(state.overTime?.intervals.map((interval) => interval.p99Ms)).toEqual([1, 7, 1]);
    const next = reduceRunEvent(state, progress({ op: "GET", done: 5 }, seconds(3, 1)));
    expect(next.overTime).toMatchObject({ op: "GET" });
    expect(next.overTime?.intervals).toHaveLength(1);
  });

  it("keeps the newest seconds up to the cap", () => {
    let overTime = mergeIntervals(null, { pointIndex: 0, op: "GET", intervals: seconds(0, 50) });
    overTime = mergeIntervals(
      overTime,
      { pointIndex: 0, op: "GET", intervals: seconds(50, 50) },
      60,
    );
    expect(overTime.intervals).toHaveLength(60);
    expect(overTime.intervals[0]?.startMs).toBe(40_000);
  });
});

describe("joining a run in progress", () => {
  const active: ActiveRun = {
    runId: "r1",
    name: "Sweep",
    points: POINTS,
    requestCount: 600,
    startedAt: "2026-01-01T00:00:00.000Z",
    series: SERIES,
    shards: null,
    lastProgress: {
      runId: "r1",
      pointIndex: 1,
      pointCount: 2,
      params: POINTS[1] ?? { clients: 1, samples: 1, objectSizeBytes: 1 },
      op: "PUT",
      done: 40,
      total: 100,
      errors: 0,
      opsPerSec: 100,
      p50Ms: 1,
      p99Ms: 5,
      elapsedMs: 400,
    },
  };

  it("estimates the points already done from their samples", () => {
    const state = adoptActiveRun(IDLE_RUN, active, Date.parse(active.startedAt) + 4_000);
    expect(state).toMatchObject({ status: "running", runId: "r1", name: "Sweep" });
    // Point 0 holds half the samples, so half the requests (300).
    expect(state.doneBefore).toBe(300);
    expect(state.elapsedBefore).toBe(3_600);
    expect(overallProgress(state)).toMatchObject({ done: 340, elapsedMs: 4_000 });
  });

  it("leaves a run already followed, or another one, as it is", () => {
    const other = run({ ...started, runId: "r2" });
    expect(adoptActiveRun(other, active, 0)).toBe(other);
  });
});

describe("a run that ends only when stopped, and a stopped sweep", () => {
  it("counts an open loop's requests with no total and no time left", () => {
    const endless = { ...started, requestCount: 0, points: [{ ...POINTS[0]!, samples: 0 }] };
    const state = [endless, progress({ done: 1500, total: 0, elapsedMs: 3000 })].reduce(
      reduceRunEvent,
      IDLE_RUN,
    );
    expect(overallProgress(state)).toEqual({
      done: 1500,
      total: 0,
      fraction: 0,
      elapsedMs: 3000,
      etaMs: null,
    });
  });

  it("says which point a stopped sweep stopped in, and nothing for a run that completed", () => {
    const stopped = [
      started,
      progress({ pointIndex: 1, done: 40 }),
      finishedEvent({ status: "stopped" }),
    ].reduce(reduceRunEvent, IDLE_RUN);
    expect(stoppedInPoint(stopped)).toEqual({ index: 2, finished: 1, count: 2, measured: true });
    const beforeFirst = [
      started,
      progress({ pointIndex: 0, done: 0 }),
      finishedEvent({ status: "stopped" }),
    ].reduce(reduceRunEvent, IDLE_RUN);
    expect(stoppedInPoint(beforeFirst)).toMatchObject({ index: 1, finished: 0, measured: false });
    const complete = [started, progress({ pointIndex: 1, done: 100 }), finishedEvent()].reduce(
      reduceRunEvent,
      IDLE_RUN,
    );
    expect(stoppedInPoint(complete)).toBeNull();
  });

  it("keeps a live session's knobs and its changes, each marker once", () => {
    const tuning = {
      serviceMs: 5,
      stallProbability: 0.01,
      stallMs: 500,
      replicas: 2,
      mode: "normal" as const,
      hedgeDelay: { kind: "fixed" as const, delayMs: 20 },
      hedgeBudgetPercent: 10,
    };
    const marker = {
      atMs: 2000,
      tuning: { ...tuning, mode: "hedged" as const },
      changed: ["mode" as const],
    };
    const retuned: RunEvent = { type: "retuned", runId: "r1", marker };
    const state = [{ ...started, tuning }, retuned, retuned].reduce(reduceRunEvent, IDLE_RUN);
    expect(state.tuning?.mode).toBe("hedged");
    expect(state.markers).toEqual([marker]);
    expect(reduceRunEvent(state, { ...retuned, runId: "other" })).toBe(state);
  });
});
