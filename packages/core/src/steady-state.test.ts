import { describe, expect, it } from "vitest";
import { createTally, recordDuration } from "./latency-tally.ts";
import { createRandom } from "./random.ts";
import { SteadyWatch, steadyOutcome } from "./steady-state.ts";

const RULE = { percentile: 99, tolerancePercent: 5, holdMs: 500 };
const LOOK_MS = 100;

interface Scenario {
  /** Requests answered between looks, by look number. */
  perLook: (look: number) => number;
  /** One answered request's latency, µs, from a uniform draw in [0, 1). */
  latencyUs: (draw: number, look: number) => number;
  /** Requests in flight at each look. */
  inFlight?: number;
}

/** The look (ms) at which the watch first says steady, or null within `looks` looks. */
function steadyAt({ perLook, latencyUs, inFlight = 0 }: Scenario, looks = 60): number | null {
  const random = createRandom(7);
  const latency = createTally();
  const watch = new SteadyWatch(RULE);
  let requests = 0;
  for (let look = 1; look <= looks; look++) {
    for (let i = 0; i < perLook(look); i++) recordDuration(latency, latencyUs(random.next(), look));
    requests += perLook(look);
    if (watch.observe({ elapsedMs: look * LOOK_MS, requests, latency, inFlight })) {
      return look * LOOK_MS;
    }
  }
  return null;
}

const narrow = (draw: number) => 1000 + 200 * draw;

describe("SteadyWatch", () => {
  it("says steady once the interval is narrow, the figure still and the rate even, never before two holds", () => {
    const at = steadyAt({ perLook: () => 200, latencyUs: narrow });
    expect(at).not.toBeNull();
    expect(at).toBeGreaterThanOrEqual(2 * RULE.holdMs);
  });

  it.each<[string, Scenario]>([
    ["the rate keeps climbing", { perLook: (look) => 20 * look, latencyUs: narrow }],
    [
      "the p99 sits on the edge of 1 % stalls",
      { perLook: () => 200, latencyUs: (draw) => (draw < 0.01 ? 300_000 : narrow(draw)) },
    ],
    [
      "as many requests as rest beyond the p99 are still in flight",
      { perLook: () => 200, latencyUs: narrow, inFlight: 200 },
    ],
    [
      "the server slows down by a tenth every look",
      { perLook: () => 200, latencyUs: (draw, look) => narrow(draw) * 1.1 ** look },
    ],
  ])("is never steady when %s", (_name, scenario) => {
    expect(steadyAt(scenario)).toBeNull();
  });

  it("says how far the interval reaches, and nothing where requests in flight reach into it", () => {
    const latency = createTally();
    for (let i = 0; i < 10_000; i++) recordDuration(latency, narrow(i / 10_000));
    const seen = { elapsedMs: 1234.4, requests: 10_000, latency, inFlight: 0 };
    const outcome = steadyOutcome(RULE, true, seen);
    expect(outcome).toMatchObject({ ...RULE, steady: true, requests: 10_000, elapsedMs: 1234 });
    expect(outcome.withinPercent).toBeGreaterThanOrEqual(0);
    expect(outcome.withinPercent).toBeLessThan(1);
    expect(steadyOutcome(RULE, false, { ...seen, inFlight: 200 }).withinPercent).toBeNull();
  });
});
