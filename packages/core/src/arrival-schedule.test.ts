import { describe, expect, it } from "vitest";
import { createArrivalSchedule, type ArrivalSchedule } from "./arrival-schedule.ts";

function offsets(schedule: ArrivalSchedule, count: number): number[] {
  return Array.from({ length: count }, () => schedule.nextOffsetUs());
}

function gaps(offsetsUs: readonly number[]): number[] {
  return offsetsUs.slice(1).map((offsetUs, index) => offsetUs - (offsetsUs[index] as number));
}

function meanAndVariance(values: readonly number[]): { mean: number; variance: number } {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const variance =
    values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1);
  return { mean, variance };
}

describe("fixed arrivals", () => {
  it.each([
    [1, [0, 1e6, 2e6, 3e6]],
    [1000, [0, 1000, 2000, 3000]],
    [3, [0, 1e6 / 3, 2e6 / 3, 1e6]],
    [0.5, [0, 2e6, 4e6, 6e6]],
  ])("at %d Hz are due at %j µs", (rateHz, expectedUs) => {
    const schedule = createArrivalSchedule({ arrivals: "fixed", rateHz, seed: 1 });
    expect(offsets(schedule, expectedUs.length)).toEqual(expectedUs);
  });

  it("computes each offset from its index, so rounding does not accumulate", () => {
    const schedule = createArrivalSchedule({ arrivals: "fixed", rateHz: 3, seed: 1 });
    const last = offsets(schedule, 1_000_001).at(-1);
    expect(last).toBe(1_000_000 * (1e6 / 3));
  });
});

describe("poisson arrivals", () => {
  const COUNT = 100_000;

  it.each([10, 500, 20_000])(
    "at %d Hz have exponential gaps (mean within 1 %, CV ≈ 1)",
    (rateHz) => {
      const schedule = createArrivalSchedule({ arrivals: "poisson", rateHz, seed: rateHz });
      const all = offsets(schedule, COUNT);
      expect(all[0]).toBe(0);
      const { mean, variance } = meanAndVariance(gaps(all));
      const meanGapUs = 1e6 / rateHz;
      expect(Math.abs(mean / meanGapUs - 1)).toBeLessThan(0.01);
      expect(Math.abs(Math.sqrt(variance) / mean - 1)).toBeLessThan(0.02);
    },
  );

  it("put a Poisson count in each 1-second window (variance ≈ mean)", () => {
    // 10 Hz over 100 000 arrivals gives 10 000 windows: enough for the dispersion index to be
    // known to about ±0.015.
    const schedule = createArrivalSchedule({ arrivals: "poisson", rateHz: 10, seed: 99 });
    const all = offsets(schedule, COUNT);
    const fullWindows = Math.floor((all.at(-1) as number) / 1e6);
    const counts = new Array<number>(fullWindows).fill(0);
    for (const offsetUs of all) {
      const window = Math.floor(offsetUs / 1e6);
      if (window < fullWindows) counts[window] = (counts[window] as number) + 1;
    }
    const { mean, variance } = meanAndVariance(counts);
    expect(Math.abs(mean / 10 - 1)).toBeLessThan(0.01);
    expect(Math.abs(variance / mean - 1)).toBeLessThan(0.05);
  });

  it("replays the same arrivals from the same seed and differs across seeds", () => {
    const make = (seed: number) =>
      offsets(createArrivalSchedule({ arrivals: "poisson", rateHz: 100, seed }), 50);
    expect(make(5)).toEqual(make(5));
    expect(make(5)).not.toEqual(make(6));
  });

  it("never goes back in time", () => {
    const all = offsets(
      createArrivalSchedule({ arrivals: "poisson", rateHz: 1e5, seed: 3 }),
      COUNT,
    );
    expect(gaps(all).every((gapUs) => gapUs >= 0)).toBe(true);
  });
});

describe("createArrivalSchedule", () => {
  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])("rejects rate %d", (rateHz) => {
    expect(() => createArrivalSchedule({ arrivals: "fixed", rateHz, seed: 1 })).toThrow(
      /positive number of requests per second/,
    );
  });
});
