import type { ClientSecond, IntervalStats, RunProgress } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { LiveRunView } from "./live-run-view.ts";

const PROGRESS: RunProgress = {
  runId: "r",
  pointIndex: 0,
  pointCount: 1,
  params: { clients: 1, samples: 10, objectSizeBytes: 10 },
  op: "GET",
  done: 5,
  total: 10,
  errors: 0,
  opsPerSec: 10,
  p50Ms: 1,
  p99Ms: 2,
  elapsedMs: 500,
};

function second(startS: number, p99Ms: number): IntervalStats {
  return {
    startMs: startS * 1000,
    lengthMs: 1000,
    requests: 3,
    errors: 0,
    p50Ms: 1,
    p99Ms,
    p999Ms: p99Ms,
    maxMs: p99Ms,
  };
}

const PERCENTILES = { p50Ms: 1, p90Ms: 1.5, p99Ms: 2, p999Ms: 2, maxMs: 2, count: 5 };

describe("LiveRunView", () => {
  it("sends each changed second once, its newest figures, with the engine's percentiles", () => {
    const view = new LiveRunView();
    view.startPhase(0, "GET");
    view.update(PROGRESS, { percentiles: PERCENTILES, intervals: [second(0, 2)] });
    view.update(PROGRESS, { percentiles: PERCENTILES, intervals: [second(0, 5), second(1, 3)] });
    const event = view.progressEvent(PROGRESS);
    expect(event.percentiles).toEqual(PERCENTILES);
    expect(event.intervals).toEqual({
      pointIndex: 0,
      op: "GET",
      intervals: [second(0, 5), second(1, 3)],
    });
    expect(view.progressEvent(PROGRESS).intervals).toBeNull();
  });

  it("starts afresh with a phase, and when a mix's busiest operation changes", () => {
    const view = new LiveRunView();
    view.startPhase(0, "GET");
    view.update(PROGRESS, { percentiles: PERCENTILES, intervals: [second(0, 2)] });
    view.startPhase(1, "PUT");
    expect(view.progressEvent({ ...PROGRESS, op: "PUT" })).toMatchObject({
      percentiles: null,
      intervals: null,
    });
    view.update({ ...PROGRESS, op: "PUT" }, { percentiles: null, intervals: [second(2, 2)] });
    view.update({ ...PROGRESS, op: "HEAD" }, { percentiles: null, intervals: [second(3, 9)] });
    expect(view.progressEvent({ ...PROGRESS, op: "HEAD" }).intervals).toEqual({
      pointIndex: 1,
      op: "HEAD",
      intervals: [second(3, 9)],
    });
  });

  it("sends each changed second of the client's health once, the newest figures of each", () => {
    const client = (startS: number, keptUp: boolean): ClientSecond => ({
      startMs: startS * 1000,
      cpuCores: 0.5,
      availableCores: 2,
      busiestWorkerCpu: 0.5,
      eventLoopDelayP99Ms: 1,
      stallShare: keptUp ? 0 : 0.5,
      starts: 10,
      missedStarts: 0,
      behindMs: 0,
      shed: 0,
      verdict: { keptUp, reasons: keptUp ? [] : ["event-loop-delay"] },
    });
    const view = new LiveRunView();
    view.startPhase(0, "GET");
    const figures = { percentiles: PERCENTILES, intervals: [] };
    view.update(PROGRESS, { ...figures, clientSeconds: [client(0, true)] });
    view.update(PROGRESS, { ...figures, clientSeconds: [client(0, false), client(1, true)] });
    expect(view.progressEvent(PROGRESS).client).toEqual([client(0, false), client(1, true)]);
    expect(view.progressEvent(PROGRESS).client).toBeUndefined();
  });
});
