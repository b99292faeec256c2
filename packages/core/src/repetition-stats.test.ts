import { describe, expect, it } from "vitest";
import { repeatedPhaseStats, repetitionStats } from "./repetition-stats.ts";
import { phaseFixture } from "./test-support/run-summary-fixture.ts";

describe("repetitionStats", () => {
  it.each([
    // The paper's case: 5 runs, the highest and lowest dropped, the middle 3 averaged.
    [[10, 50, 20, 30, 40], 30, [20, 30, 40], [10, 50], 20, 40, 10],
    [[5, 5, 5], 5, [5], [5, 5], 5, 5, 0],
    [[1, 9, 4, 6], 5, [4, 6], [1, 9], 4, 6, Math.SQRT2],
  ])("%j → trimmed mean %d", (values, mean, kept, dropped, min, max, stdev) => {
    const stats = repetitionStats(values);
    expect(stats.method).toBe("trimmed-mean");
    expect(stats.value).toBeCloseTo(mean, 12);
    expect(stats.kept).toEqual(kept);
    expect(stats.dropped).toEqual(dropped);
    expect([stats.min, stats.max]).toEqual([min, max]);
    expect(stats.stdev).toBeCloseTo(stdev, 12);
    expect(stats.note).toBeNull();
    expect(stats.runs).toBe(values.length);
  });

  it.each([
    [[7], 7, 0, /only 1 run: plain mean/],
    [[2, 4], 3, Math.SQRT2, /only 2 runs: plain mean/],
  ])("%j → plain mean %d with a note", (values, mean, stdev, note) => {
    const stats = repetitionStats(values);
    expect(stats.method).toBe("mean");
    expect(stats.value).toBe(mean);
    expect(stats.dropped).toEqual([]);
    expect(stats.stdev).toBeCloseTo(stdev, 12);
    expect(stats.note).toMatch(note);
  });

  it("rejects no runs and non-finite values", () => {
    expect(() => repetitionStats([])).toThrow(/no runs/);
    expect(() => repetitionStats([1, Number.NaN, 2])).toThrow(/finite value, got NaN/);
  });

  it("summarises the rates of repeated phases, not their percentiles", () => {
    const phases = [12, 10, 11, 30, 2].map((throughputMBps) =>
      phaseFixture("PUT", 5, { throughputMBps, opsPerSec: throughputMBps * 100 }),
    );
    const stats = repeatedPhaseStats(phases);
    expect(stats.throughputMBps.value).toBe(11);
    expect(stats.opsPerSec.value).toBeCloseTo(1100, 9);
    expect(Object.keys(stats)).not.toContain("p99Ms");
    expect(() => repeatedPhaseStats([phaseFixture("PUT", 1), phaseFixture("GET", 1)])).toThrow(
      /different operations \(PUT, GET\)/,
    );
  });
});
