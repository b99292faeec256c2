import { describe, expect, it } from "vitest";
import { exactPercentile } from "./exact-percentile.ts";
import { createLatencyWindow, requestClass } from "./latency-window.ts";
import { createRandom } from "./random.ts";

describe("createLatencyWindow", () => {
  it("answers nearest-rank percentiles like exactPercentile", () => {
    const latencies = createLatencyWindow(10);
    [4, 1, 3, 2].forEach((valueMs) => latencies.add(valueMs));
    expect(latencies.count).toBe(4);
    expect([0, 25, 50, 75, 100].map(latencies.percentile)).toEqual([1, 1, 2, 3, 4]);
  });

  it("keeps only the most recent values once full", () => {
    const latencies = createLatencyWindow(3);
    [100, 200, 1, 2, 3].forEach((valueMs) => latencies.add(valueMs));
    expect(latencies.count).toBe(3);
    expect(latencies.percentile(100)).toBe(3);
    expect(latencies.percentile(0)).toBe(1);
  });

  it("evicts one copy of a repeated value at a time", () => {
    const latencies = createLatencyWindow(3);
    [5, 5, 9, 1].forEach((valueMs) => latencies.add(valueMs));
    expect([0, 50, 100].map(latencies.percentile)).toEqual([1, 5, 9]);
  });

  it("matches exactPercentile of the last `size` values over a long random stream", () => {
    const random = createRandom(11);
    const size = 1000;
    const latencies = createLatencyWindow(size);
    const all: number[] = [];
    for (let index = 0; index < 5000; index += 1) {
      const valueMs = Math.round(random.lognormal(5, 0.8) * 10) / 10;
      all.push(valueMs);
      latencies.add(valueMs);
      if (index % 97 === 0 || index === 4999) {
        const recent = all.slice(-size).sort((a, b) => a - b);
        for (const level of [0, 5, 50, 95, 99, 99.9, 100]) {
          expect(latencies.percentile(level)).toBe(exactPercentile(recent, level));
        }
      }
    }
  });

  it("refuses an empty query, a bad size and a bad latency", () => {
    expect(() => createLatencyWindow().percentile(50)).toThrow(/empty/);
    expect(() => createLatencyWindow(0)).toThrow(/at least 1/);
    expect(() => createLatencyWindow(2.5)).toThrow(/whole number/);
    expect(() => createLatencyWindow().add(-1)).toThrow(/≥ 0/);
    expect(() => createLatencyWindow().add(Number.NaN)).toThrow(/finite/);
  });
});

describe("requestClass", () => {
  it.each([
    ["GET", 0, "GET:0B-4B"],
    ["GET", 3, "GET:0B-4B"],
    ["GET", 4, "GET:4B-16B"],
    ["GET", 1023, "GET:256B-1KiB"],
    ["GET", 1024, "GET:1KiB-4KiB"],
    ["GET", 4096, "GET:4KiB-16KiB"],
    ["GET", 16_383, "GET:4KiB-16KiB"],
    ["PUT", 32 * 1024, "PUT:16KiB-64KiB"],
    ["GET", 1024 ** 2, "GET:1MiB-4MiB"],
    ["GET", 5 * 1024 ** 3, "GET:4GiB-16GiB"],
  ])("puts %s of %d bytes in %s", (op, sizeBytes, expected) => {
    expect(requestClass(op, sizeBytes)).toBe(expected);
  });

  it("rejects a negative size", () => {
    expect(() => requestClass("GET", -1)).toThrow(/≥ 0/);
  });
});
