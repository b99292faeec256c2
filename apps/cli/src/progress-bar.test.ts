import type { RunProgress } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { formatProgressLine } from "./progress-bar.ts";

const progress: RunProgress = {
  runId: "r",
  pointIndex: 1,
  pointCount: 4,
  params: { clients: 8, samples: 1000, objectSizeBytes: 4096 },
  op: "GET",
  done: 250,
  total: 1000,
  errors: 2,
  opsPerSec: 5,
  p50Ms: 1.234,
  p99Ms: 9.5,
  elapsedMs: 50_000,
};

describe("progress line", () => {
  it("shows the point, bar, counts, rate, time left, latency and errors", () => {
    expect(formatProgressLine(progress)).toBe(
      "point 2/4 GET    [######..................]  25% 250/1000 5 ops/s ETA 2m30s p50 1.23 ms p99 9.50 ms errors 2",
    );
  });

  it("leaves out what is not known yet", () => {
    const line = formatProgressLine({
      ...progress,
      pointCount: 1,
      opsPerSec: 0,
      p50Ms: null,
      p99Ms: null,
      errors: 0,
    });
    expect(line).toBe("GET    [######..................]  25% 250/1000 0 ops/s");
  });
});
