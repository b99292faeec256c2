import { describe, expect, it } from "vitest";
import {
  adaptiveHedgeDelay,
  fixedHedgeDelay,
  HEDGE_DELAY_MEDIAN_MULTIPLE,
  percentileHedgeDelay,
  type HedgeDelayPolicy,
} from "./hedge-delay.ts";
import { exactPercentile } from "./exact-percentile.ts";
import { createRandom, type Random } from "./random.ts";

const CLASS = "GET:4KiB-16KiB";

function observeAll(
  policy: HedgeDelayPolicy,
  latenciesMs: readonly number[],
  requestClass = CLASS,
) {
  latenciesMs.forEach((latencyMs) => policy.observe(requestClass, latencyMs));
}

/** Idle replicas: every request costs ≈ 5 ms, give or take 1 %. */
function idle(random: Random, count: number): number[] {
  return Array.from({ length: count }, () => 5 * (0.99 + 0.02 * random.next()));
}

/** Queueing: requests now take 5–10× the idle cost. */
function queued(random: Random, count: number): number[] {
  return Array.from({ length: count }, () => 25 + 25 * random.next());
}

/** The percentile delay the adaptive one is measured against, over the same latencies. */
function p95Of(latenciesMs: readonly number[]): number {
  const reference = percentileHedgeDelay({ percentile: 95 });
  observeAll(reference, latenciesMs);
  return reference.delayMs(CLASS) as number;
}

describe("fixedHedgeDelay", () => {
  it("always answers its delay, whatever it observes", () => {
    const policy = fixedHedgeDelay(30);
    expect(policy.delayMs(CLASS)).toBe(30);
    observeAll(policy, [1, 1000]);
    expect(policy.delayMs("PUT:1MiB-4MiB")).toBe(30);
  });

  it.each([-1, Number.NaN])("rejects %d ms", (delayMs) => {
    expect(() => fixedHedgeDelay(delayMs)).toThrow(/≥ 0/);
  });
});

describe("percentileHedgeDelay", () => {
  it("does not hedge until minSamples latencies of the class were seen", () => {
    const policy = percentileHedgeDelay({ percentile: 50, minSamples: 3 });
    expect(policy.delayMs(CLASS)).toBeNull();
    observeAll(policy, [10, 30]);
    expect(policy.delayMs(CLASS)).toBeNull();
    policy.observe(CLASS, 20);
    expect(policy.delayMs(CLASS)).toBe(20);
  });

  it.each([
    [50, 50],
    [95, 95],
    [99, 99],
    [99.9, 100],
  ])("answers the nearest-rank p%d of 1..100 ms: %d", (percentile, expectedMs) => {
    const policy = percentileHedgeDelay({ percentile });
    const shuffled = Array.from({ length: 100 }, (_, index) => ((index * 37) % 100) + 1);
    observeAll(policy, shuffled);
    expect(policy.delayMs(CLASS)).toBe(expectedMs);
  });

  it("keeps request classes apart", () => {
    const policy = percentileHedgeDelay({ percentile: 95, minSamples: 1 });
    policy.observe("GET:4KiB-16KiB", 5);
    policy.observe("GET:4MiB-16MiB", 200);
    expect(policy.delayMs("GET:4KiB-16KiB")).toBe(5);
    expect(policy.delayMs("GET:4MiB-16MiB")).toBe(200);
    expect(policy.delayMs("PUT:4KiB-16KiB")).toBeNull();
  });

  it("forgets latencies older than the window", () => {
    const policy = percentileHedgeDelay({ percentile: 95, minSamples: 5, windowSize: 10 });
    observeAll(policy, Array<number>(10).fill(100));
    observeAll(policy, Array<number>(10).fill(7));
    expect(policy.delayMs(CLASS)).toBe(7);
  });

  it.each([
    [{ percentile: 0 }, /percentile/],
    [{ percentile: 101 }, /percentile/],
    [{ percentile: 95, windowSize: 0 }, /window size/],
    [{ percentile: 95, minSamples: 0 }, /minSamples/],
    [{ percentile: 95, minSamples: 11, windowSize: 10 }, /minSamples/],
  ])("rejects options %j", (options, message) => {
    expect(() => percentileHedgeDelay(options)).toThrow(message);
    expect(() => adaptiveHedgeDelay(options)).toThrow(message);
  });
});

describe("adaptiveHedgeDelay", () => {
  it("does not hedge until minSamples latencies of the class were seen", () => {
    const policy = adaptiveHedgeDelay({ percentile: 95, minSamples: 20 });
    observeAll(policy, idle(createRandom(1), 19));
    expect(policy.delayMs(CLASS)).toBeNull();
    policy.observe(CLASS, 5);
    expect(policy.delayMs(CLASS)).not.toBeNull();
    expect(policy.delayMs("PUT:4KiB-16KiB")).toBeNull();
  });

  it("never waits less than its floor percentile, so a budget is not spent on ordinary requests", () => {
    const latenciesMs = Array.from({ length: 1000 }, (_, index) => 1 + index / 100);
    const policy = adaptiveHedgeDelay({ percentile: 95, minSamples: 20, floorPercentile: 90 });
    observeAll(policy, latenciesMs);
    expect(policy.delayMs(CLASS)).toBeGreaterThanOrEqual(exactPercentile(latenciesMs, 90));
    expect(() => adaptiveHedgeDelay({ percentile: 95, floorPercentile: 100 })).toThrow(RangeError);
  });

  it("sends the backup almost at once while the replicas are idle (a tied request)", () => {
    const latenciesMs = idle(createRandom(2), 2000);
    const policy = adaptiveHedgeDelay({ percentile: 95, minSamples: 20 });
    latenciesMs.forEach((latencyMs, index) => {
      policy.observe(CLASS, latencyMs);
      if (index >= 19) {
        const p95Ms = p95Of(latenciesMs.slice(Math.max(0, index - 999), index + 1));
        expect(policy.delayMs(CLASS)).toBeLessThan(0.1 * p95Ms);
      }
    });
  });

  it("waits for nearly the percentile delay once requests queue (a hedged request)", () => {
    const random = createRandom(3);
    const latenciesMs = idle(random, 1000);
    const policy = adaptiveHedgeDelay({ percentile: 95 });
    observeAll(policy, latenciesMs);
    const congested = queued(random, 100);
    congested.forEach((latencyMs, index) => {
      policy.observe(CLASS, latencyMs);
      latenciesMs.push(latencyMs);
      // The smoothed latency needs ~20 requests (two time constants) to climb.
      if (index >= 20) {
        expect(policy.delayMs(CLASS)).toBeGreaterThan(0.7 * p95Of(latenciesMs.slice(-1000)));
      }
    });
  });

  it("falls back towards 0 once the queue drains", () => {
    const random = createRandom(4);
    const latenciesMs = [...idle(random, 1000), ...queued(random, 100), ...idle(random, 100)];
    const policy = adaptiveHedgeDelay({ percentile: 95 });
    observeAll(policy, latenciesMs);
    expect(policy.delayMs(CLASS)).toBeLessThan(0.1 * p95Of(latenciesMs.slice(-1000)));
  });

  it.each([
    [0.9, 0.7, 1],
    [0.5, 0.25, 0.75],
  ])(
    "at steady utilisation %d (M/M/1-like waits) waits %d–%d of p95 most of the time",
    (utilisation, lowShare, highShare) => {
      const random = createRandom(5);
      const meanWaitMs = (5 * utilisation) / (1 - utilisation);
      const policy = adaptiveHedgeDelay({ percentile: 95 });
      const shares: number[] = [];
      const latenciesMs: number[] = [];
      for (let index = 0; index < 4000; index += 1) {
        // A request waits with probability `utilisation`, for an exponential time.
        const waitMs = random.chance(utilisation)
          ? random.exponential(meanWaitMs / utilisation)
          : 0;
        const latencyMs = 5 * (0.99 + 0.02 * random.next()) + waitMs;
        policy.observe(CLASS, latencyMs);
        latenciesMs.push(latencyMs);
        if (index >= 1000 && index % 50 === 0) {
          shares.push((policy.delayMs(CLASS) as number) / p95Of(latenciesMs.slice(-1000)));
        }
      }
      const inRange = shares.filter((share) => share > lowShare && share < highShare).length;
      expect(inRange / shares.length).toBeGreaterThan(0.9);
    },
  );
});

describe("hedge delays when stalls are as frequent as the chosen percentile", () => {
  /**
   * 1 % of requests stall for 1 s; the others take ~5 ms (lognormal, σ 0.25). A request the
   * policy hedges is observed at the delay (its first attempt was cancelled there); one it does
   * not hedge is observed at its full length. Left to the p99 alone, the estimate lands on the
   * stalls, which then go unhedged and keep it there.
   */
  function simulate(policy: HedgeDelayPolicy, seed: number): number[] {
    const random = createRandom(seed);
    const delays: number[] = [];
    for (let index = 0; index < 20_000; index += 1) {
      const latencyMs = random.chance(0.01) ? 1000 : random.lognormal(5, 0.25);
      const delayMs = policy.delayMs(CLASS);
      policy.observe(CLASS, delayMs !== null && latencyMs > delayMs ? delayMs : latencyMs);
      if (index >= 2000 && delayMs !== null) delays.push(delayMs);
    }
    return delays;
  }

  it.each([1, 2, 3, 4, 5])("stay below the stalls, whatever the start (seed %d)", (seed) => {
    for (const policy of [
      percentileHedgeDelay({ percentile: 99 }),
      adaptiveHedgeDelay({ percentile: 99, floorPercentile: 97 }),
    ]) {
      const delays = simulate(policy, seed);
      expect(Math.max(...delays)).toBeLessThanOrEqual(HEDGE_DELAY_MEDIAN_MULTIPLE * 6);
    }
  });

  // The engine sets the floor to 100 − budget % (at most the percentile): a budget at or below
  // the stall fraction puts the floor on the stalls unless the floor is capped too.
  it.each([
    { percentile: 99, budgetPercent: 3 },
    { percentile: 99, budgetPercent: 1 },
    { percentile: 99.9, budgetPercent: 1 },
    { percentile: 99.9, budgetPercent: 0.5 },
    { percentile: 99.9, budgetPercent: 0.2 },
  ])(
    "an adaptive delay stays below the stalls at p$percentile with a $budgetPercent % budget",
    ({ percentile, budgetPercent }) => {
      const floorPercentile = Math.min(percentile, 100 - budgetPercent);
      for (const seed of [1, 2, 3]) {
        const delays = simulate(adaptiveHedgeDelay({ percentile, floorPercentile }), seed);
        expect(Math.max(...delays)).toBeLessThanOrEqual(HEDGE_DELAY_MEDIAN_MULTIPLE * 6);
      }
    },
  );

  it("leave a percentile below the cap as it is", () => {
    const policy = percentileHedgeDelay({ percentile: 95 });
    const random = createRandom(9);
    const latenciesMs = Array.from({ length: 1000 }, () => random.lognormal(5, 0.25));
    observeAll(policy, latenciesMs);
    const sorted = [...latenciesMs].sort((a, b) => a - b);
    expect(policy.delayMs(CLASS)).toBe(exactPercentile(sorted, 95));
  });
});
