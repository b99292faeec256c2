import type { ClientHealth, PhaseSummary } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { formatPhaseTailLabFigures } from "./s3bench-text.ts";

const share = {
  fromMs: 100,
  requests: 10,
  meanMs: 120,
  clientQueueMs: 5,
  hedgeWaitMs: 0,
  serverMs: 110,
  transferMs: 5,
};

function health(change: Partial<ClientHealth>): ClientHealth {
  return {
    version: 1,
    verdict: { keptUp: true, reasons: [] },
    figures: {
      cpuCores: 0.4,
      availableCores: 2,
      busiestWorkerCpu: 0.2,
      eventLoopDelayP99Ms: 1.5,
      stallShare: 0.01,
      starts: 100,
      missedStarts: 3,
      behindMs: 4,
      shed: 0,
    },
    workers: 1,
    clientsPerWorker: 4,
    tailStallMs: { p99: 30, p999: 30 },
    arrivals: "kept",
    seconds: [],
    ...change,
  };
}

const PHASE: PhaseSummary = {
  op: "GET",
  loop: "open",
  requests: 100,
  errors: 0,
  errorsByCode: {},
  bytes: 0,
  durationMs: 1000,
  throughputMBps: 0,
  opsPerSec: 100,
  steady: null,
  latencyMs: null,
  clientQueueMs: null,
  serviceMs: null,
  ttfbMs: null,
  transferMs: null,
  missedStarts: 3,
  tail: { p99: share, p999: share },
};

describe("the client's health in the text of a phase", () => {
  it("says the client kept up, that an open loop kept every arrival, and takes the stall out of server", () => {
    const text = formatPhaseTailLabFigures({ ...PHASE, client: health({}) });
    expect(text).toContain("Client:            kept up (CPU 0.40 of 2 cores");
    expect(text).toContain("every arrival kept; the 3 that started late count from their schedule");
    expect(text).toContain("client stall 30.000 ms, server 80.000 ms");
  });

  it("names the bottleneck, why, and what to do; and a live lab's shed arrivals", () => {
    const text = formatPhaseTailLabFigures({
      ...PHASE,
      client: health({
        verdict: { keptUp: false, reasons: ["clients-per-worker"] },
        arrivals: "shed",
        figures: { ...health({}).figures, shed: 42 },
      }),
    });
    expect(text).toContain("THE BOTTLENECK, not the server: a worker thread was busy");
    expect(text).toContain("try: more workers (--workers); fewer clients or a lower rate");
    expect(text).toContain("Arrivals:          42 shed");
  });

  it("names the shards of a distributed run whose client was the bottleneck", () => {
    const bound = (boundShards: number[]) =>
      formatPhaseTailLabFigures({
        ...PHASE,
        client: health({ verdict: { keptUp: false, reasons: ["cpu"] }, boundShards }),
      });
    expect(bound([2])).toContain("THE BOTTLENECK on shard 2, not the server: TailLab's CPU use");
    expect(bound([0, 2])).toContain("THE BOTTLENECK on shards 0, 2, not the server");
  });

  it("says nothing of a run recorded before the client's health was kept", () => {
    const text = formatPhaseTailLabFigures(PHASE);
    expect(text).not.toContain("Client:");
    expect(text).toContain("server 110.000 ms");
  });
});
