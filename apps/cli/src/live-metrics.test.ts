import type { RunProgress } from "@taillab/api";
import { formatOpenMetrics } from "@taillab/report";
import { describe, expect, it } from "vitest";
import { LiveMetricsBook, parseMetricsAddress } from "./live-metrics.ts";

function progress(op: RunProgress["op"], done: number, errors: number): RunProgress {
  return {
    runId: "r",
    pointIndex: 0,
    pointCount: 2,
    params: { clients: 1, samples: 10, objectSizeBytes: 1 },
    op,
    done,
    total: 10,
    errors,
    opsPerSec: 5,
    p50Ms: null,
    p99Ms: null,
    elapsedMs: 0,
  };
}

const LIVE = {
  recentPercentiles: { p50Ms: 2, p90Ms: 3, p99Ms: 4, p999Ms: 5, maxMs: 6, count: 3 },
  ended: false,
  clientSeconds: [],
};

describe("LiveMetricsBook", () => {
  it("sums each operation's counters over its phases, each of which counts from 0", () => {
    const book = new LiveMetricsBook();
    book.onPhaseStart();
    book.onProgress(progress("PUT", 4, 1), LIVE);
    book.onProgress(progress("PUT", 10, 2), { ...LIVE, ended: true });
    book.onPhaseStart();
    book.onProgress(progress("GET", 3, 0), LIVE);
    book.onPhaseStart();
    book.onProgress(progress("PUT", 6, 0), LIVE);
    expect(book.metrics().operations).toEqual([
      { op: "PUT", requests: 16, errors: 2, opsPerSec: 5, p50Ms: 2, p99Ms: 4, p999Ms: 5 },
      { op: "GET", requests: 3, errors: 0, opsPerSec: 0, p50Ms: 2, p99Ms: 4, p999Ms: 5 },
    ]);
    const text = formatOpenMetrics(book.metrics());
    expect(text).toContain('taillab_requests_total{op="PUT"} 16\n');
    expect(text).toContain('taillab_latency_p99_seconds{op="GET"} 0.004\n');
    expect(text).toContain("taillab_run_points 2\n");
    expect(text).not.toMatch(/^taillab_client_bound /m);
    expect(text.endsWith("# EOF\n")).toBe(true);
  });
});

describe("--metrics ADDRESS", () => {
  it.each([
    ["127.0.0.1:9464", { host: "127.0.0.1", port: 9464 }],
    ["[::1]:0", { host: "::1", port: 0 }],
    ["localhost:80", { host: "localhost", port: 80 }],
  ])("reads %s", (text, address) => {
    expect(parseMetricsAddress(text)).toEqual(address);
  });

  it.each(["9464", "127.0.0.1", "127.0.0.1:70000", "::1:9464", "host:port"])(
    "refuses %s in one line naming the flag",
    (text) => {
      expect(() => parseMetricsAddress(text)).toThrow(
        `expected HOST:PORT such as 127.0.0.1:9464, got "${text}"`,
      );
    },
  );
});
