import type { RequestRecord, RunProgress } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { LIVE_TIMELINE_BUCKETS, LiveRunView } from "./live-run-view.ts";

/** A GET that took `latencyMs` from its intended start. */
function record(latencyMs: number, overrides: Partial<RequestRecord> = {}): RequestRecord {
  return {
    op: "GET",
    key: "k",
    bytes: 1,
    intendedStartUs: 1_000,
    startUs: 1_000,
    firstByteUs: 1_000,
    endUs: 1_000 + latencyMs * 1000,
    status: 200,
    error: null,
    attempt: 1,
    replica: 0,
    winner: true,
    ...overrides,
  };
}

describe("LiveRunView", () => {
  it("decimates the requests since the last snapshot, indexed within the phase", () => {
    const view = new LiveRunView();
    view.startPhase(2);
    view.addRecords(Array.from({ length: 1000 }, (_, index) => record(index === 500 ? 900 : 5)));
    const first = view.snapshot("GET");
    expect(first.timeline?.pointIndex).toBe(2);
    expect(first.timeline?.buckets).toHaveLength(LIVE_TIMELINE_BUCKETS);
    expect(first.timeline?.buckets[0]).toMatchObject({ firstIndex: 0, lastIndex: 4, count: 5 });
    expect(Math.max(...(first.timeline?.buckets.map((bucket) => bucket.max) ?? []))).toBe(900);

    view.addRecords([record(7), record(8)]);
    const second = view.snapshot("GET");
    expect(second.timeline?.buckets).toEqual([
      { firstIndex: 1000, lastIndex: 1000, count: 1, min: 7, max: 7, mean: 7 },
      { firstIndex: 1001, lastIndex: 1001, count: 1, min: 8, max: 8, mean: 8 },
    ]);
    expect(view.snapshot("GET").timeline).toBeNull();
    view.close();
  });

  it("keeps percentiles of the phase so far, of successful logical requests only", () => {
    const view = new LiveRunView();
    view.startPhase(0);
    view.addRecords([
      ...Array.from({ length: 99 }, () => record(10)),
      record(1000),
      record(2000, { winner: false, attempt: 2 }),
      record(3000, { error: "SlowDown", status: 503 }),
    ]);
    view.snapshot("GET");
    const { percentiles } = view.snapshot("GET");
    // HDR keeps 3 significant digits.
    expect(percentiles?.count).toBe(100);
    expect(percentiles?.p50Ms).toBeCloseTo(10, 1);
    expect(percentiles?.p99Ms).toBeCloseTo(10, 1);
    expect(percentiles?.p999Ms).toBeCloseTo(1000, -1);
    expect(percentiles?.maxMs).toBeCloseTo(1000, -1);

    view.startPhase(0);
    expect(view.snapshot("GET")).toEqual({ percentiles: null, timeline: null });
    view.addRecords([record(4)]);
    expect(view.snapshot("GET").percentiles?.count).toBe(1);
    view.close();
  });

  it("answers for the operation asked and drops the others' new requests", () => {
    const view = new LiveRunView();
    view.startPhase(0);
    view.addRecords([record(3, { op: "PUT" }), record(4)]);
    expect(view.snapshot("PUT").timeline?.op).toBe("PUT");
    view.addRecords([record(5)]);
    expect(view.snapshot("GET").timeline?.buckets).toEqual([
      { firstIndex: 1, lastIndex: 1, count: 1, min: 5, max: 5, mean: 5 },
    ]);
    view.close();
  });

  it("builds progress whose done, percentiles and timeline end at the same request", () => {
    const view = new LiveRunView();
    view.startPhase(1);
    // The engine's line was taken 45 requests in; 76 have arrived since (one failed, hedged).
    const engineLine: RunProgress = {
      runId: "r",
      pointIndex: 1,
      pointCount: 2,
      params: { clients: 2, samples: 120, objectSizeBytes: 1024 },
      op: "GET",
      done: 45,
      total: 120,
      errors: 0,
      opsPerSec: 900,
      p50Ms: 5,
      p99Ms: 9,
      elapsedMs: 50,
    };
    view.addRecords([
      ...Array.from({ length: 75 }, () => record(5)),
      record(20, { winner: false, error: "SlowDown", status: 503 }),
      record(30, { attempt: 2, winner: false, error: "SlowDown", status: 503 }),
    ]);
    const event = view.progressEvent(engineLine);
    expect(event.progress).toEqual({ ...engineLine, done: 76, errors: 1 });
    expect(event.percentiles?.count).toBe(75);
    expect(event.timeline?.buckets.at(-1)?.lastIndex).toBe(74);
    view.close();
  });
});
