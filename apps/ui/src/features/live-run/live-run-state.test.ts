import type { ActiveRun, RunEvent, RunProgress } from "@taillab/api";
import { describe, expect, it } from "vitest";
import {
  adoptActiveRun,
  appendTimeline,
  capBuckets,
  IDLE_RUN,
  missingLatencies,
  overallProgress,
  reduceRunEvent,
  seriesProgress,
  shownPhase,
  type LiveRunState,
  type TimelineBucket,
} from "./live-run-state.ts";

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
  timeline: TimelineBucket[] | null = null,
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
    timeline: timeline ? { pointIndex: full.pointIndex, op: full.op, buckets: timeline } : null,
  };
}

/** The run's "finished" event: complete and not stopped unless told. */
function finishedEvent(changes: Partial<Extract<RunEvent, { type: "finished" }>> = {}): RunEvent {
  return {
    type: "finished",
    runId: "r1",
    status: "complete",
    stopped: false,
    error: null,
    series: SERIES,
    seriesRunIds: ["r1"],
    ...changes,
  };
}

function buckets(from: number, count: number, width = 1, value = 1): TimelineBucket[] {
  return Array.from({ length: count }, (_, index) => ({
    firstIndex: from + index * width,
    lastIndex: from + (index + 1) * width - 1,
    count: width,
    min: value,
    max: value,
    mean: value,
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
    expect(state.finished).toMatchObject({ status: "complete", stopped: false });
    expect(state.progress?.done).toBe(90);
    // A complete run is complete, whatever the last progress said.
    expect(overallProgress(state)).toMatchObject({ done: 600, etaMs: null });
  });

  it("counts a stopped run's requests as they were", () => {
    const state = run(started, progress({ done: 90 }), finishedEvent({ stopped: true }));
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
    expect(state.finished?.error).toContain("NoSuchBucket");
  });

  it("joins a run it did not see start from its progress", () => {
    const state = run(progress({ runId: "r9", done: 5 }));
    expect(state).toMatchObject({ status: "running", runId: "r9" });
  });

  it("starts afresh for the next run of a mode series", () => {
    const state = run(started, progress({ done: 50 }, buckets(0, 10)), {
      ...started,
      runId: "r2",
      series: { index: 1, count: 3, mode: "hedged" },
    });
    expect(state).toMatchObject({ runId: "r2", progress: null, timeline: null, doneBefore: 0 });
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
      progress({ pointIndex: 1, op: "GET", done: 100, elapsedMs: 400 }, buckets(0, 100)),
    );
    const cleaning = reduceRunEvent(
      reads,
      progress({ pointIndex: 1, op: "DELETE", done: 40, elapsedMs: 40 }, buckets(0, 40)),
    );
    expect(shownPhase(cleaning)).toMatchObject({ kept: false, progress: { op: "DELETE" } });
    const finished = reduceRunEvent(cleaning, finishedEvent());
    const shown = shownPhase(finished);
    expect(shown).toMatchObject({ kept: true, progress: { op: "GET", pointIndex: 1, done: 100 } });
    expect(shown?.percentiles?.count).toBe(100);
    expect(shown?.timeline?.buckets).toHaveLength(100);
  });

  it("keeps its count, percentiles and timeline from the same event", () => {
    const state = run(
      started,
      progress({ op: "GET", done: 45 }, buckets(0, 45)),
      progress({ op: "GET", done: 76 }, buckets(45, 31)),
    );
    const shown = shownPhase(state);
    expect(shown?.progress.done).toBe(76);
    expect(shown?.percentiles?.count).toBe(76);
    expect((shown?.timeline?.buckets.at(-1)?.lastIndex ?? 0) + 1).toBe(76);
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
    ["once answers come", [started, progress({ done: 5 }, buckets(0, 5))], null],
  ])("%s: %s", (_name, events, reason) => {
    expect(missingLatencies(run(...events))).toBe(reason);
  });
});

describe("live timeline", () => {
  it("appends a phase's buckets and starts over for a new phase", () => {
    const state = run(
      started,
      progress({ done: 10 }, buckets(0, 10)),
      progress({ done: 20 }, buckets(10, 10)),
    );
    expect(state.timeline?.buckets).toHaveLength(20);
    const next = reduceRunEvent(state, progress({ op: "GET", done: 5 }, buckets(0, 5)));
    expect(next.timeline).toMatchObject({ op: "GET" });
    expect(next.timeline?.buckets).toHaveLength(5);
  });

  it("starts over when indices go back (a repetition of the same point)", () => {
    const first = appendTimeline(null, { pointIndex: 0, op: "PUT", buckets: buckets(0, 10) });
    const again = appendTimeline(first, { pointIndex: 0, op: "PUT", buckets: buckets(0, 3) });
    expect(again.buckets).toHaveLength(3);
  });

  it("never holds more than the cap, folding older buckets while keeping their extremes", () => {
    let timeline = appendTimeline(null, { pointIndex: 0, op: "GET", buckets: buckets(0, 300) });
    // A one-request stall early in the run.
    const stalled = timeline.buckets.map((bucket, index) =>
      index === 7 ? { ...bucket, max: 1000 } : bucket,
    );
    timeline = { ...timeline, buckets: stalled };
    for (let event = 1; event < 40; event += 1) {
      timeline = appendTimeline(
        timeline,
        { pointIndex: 0, op: "GET", buckets: buckets(event * 300, 300) },
        2000,
      );
      expect(timeline.buckets.length).toBeLessThanOrEqual(2000);
    }
    const all = timeline.buckets;
    expect(all[0]?.firstIndex).toBe(0);
    expect(all.at(-1)?.lastIndex).toBe(40 * 300 - 1);
    expect(Math.max(...all.map((bucket) => bucket.max))).toBe(1000);
    expect(all.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(40 * 300);
    // The newest half keeps full detail.
    expect(all.slice(-1000).every((bucket) => bucket.count === 1)).toBe(true);
  });

  it("caps a list that is already short as it is", () => {
    const short = buckets(0, 10);
    expect(capBuckets(short, 2000)).toBe(short);
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
