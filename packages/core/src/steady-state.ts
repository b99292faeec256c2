import type { SteadyOutcome, UntilSteady } from "@taillab/api";
import { percentileRankInterval } from "./percentile-interval.ts";
import { tallyValueAtRankUs, type LatencyTally } from "./latency-tally.ts";

/**
 * When a phase run `--until-steady` may end early: its tail figure is steady. At each look (the
 * engine looks about ten times a second) the phase is steady when, over the last `holdMs`:
 *
 * 1. precise: at every look, the chosen percentile's 95 % order-statistic interval lay within
 *    ±tolerance % of the figure, so it rests on enough requests beyond it;
 * 2. still: at every look, the figure was within ±tolerance % of its value now, so it is not
 *    drifting;
 * 3. and ops/s over the last `holdMs` was within ±tolerance % of ops/s over the `holdMs` before
 *    (warp's --autoterm rule for throughput).
 *
 * The slowest requests are the last to be counted: a request still in flight (or answered but
 * not yet reported) may be slower than any counted. So each look ranks the requests in flight
 * above all the answered ones, and an interval or figure that reaches among them is unbounded:
 * a stall cannot pass for steady while its requests are still waiting.
 *
 * So a phase ends no sooner than 2 × holdMs, and a noisy server, whose interval stays wide or
 * whose figure moves, runs to the phase's samples or duration, which are then its maximum.
 */
export const UNTIL_STEADY_RULE =
  "for the whole hold: the percentile's 95 % interval within ±tolerance of the figure (requests in flight ranked slowest), the figure within ±tolerance of itself, and ops/s within ±tolerance of the hold before";

/** One look at a phase (or one operation of a mix) so far. */
export interface SteadyLook {
  /** Since the phase started. */
  elapsedMs: number;
  /** Answered (or failed) requests so far. */
  requests: number;
  /** The successful requests' latencies (empty before the first). */
  latency: LatencyTally;
  /** Requests sent, or due by the schedule, whose answers are not counted yet. */
  inFlight: number;
}

/** The percentile (µs) and its interval's wider side, ±% of it; null where it is unbounded. */
function percentileSpread(
  { latency, inFlight }: Pick<SteadyLook, "latency" | "inFlight">,
  level: number,
): { figureUs: number | null; withinPercent: number | null } {
  const answered = latency.count;
  const count = answered + Math.max(0, inFlight);
  if (answered === 0) return { figureUs: null, withinPercent: null };
  // Requests in flight take the slowest ranks: a rank past the answered ones is unknown.
  const valueAt = (rank: number | null) =>
    rank === null || rank > answered ? null : tallyValueAtRankUs(latency, rank);
  const figureUs = valueAt(Math.max(1, Math.ceil((level / 100) * count)));
  const { low, high } = percentileRankInterval(count, level);
  const lo = valueAt(low);
  const hi = valueAt(high);
  if (figureUs === null || lo === null || hi === null || figureUs <= 0) {
    return { figureUs, withinPercent: null };
  }
  return { figureUs, withinPercent: (100 * Math.max(figureUs - lo, hi - figureUs)) / figureUs };
}

interface Look {
  elapsedMs: number;
  requests: number;
  figureUs: number | null;
  withinPercent: number | null;
}

/** Follows one phase's looks and says once its figure is steady (see UNTIL_STEADY_RULE). */
export class SteadyWatch {
  private readonly looks: Look[] = [];
  private readonly rule: UntilSteady;

  constructor(rule: UntilSteady) {
    this.rule = rule;
  }

  /** Adds a look; true once the phase is steady. */
  observe(seen: SteadyLook): boolean {
    const { percentile, tolerancePercent, holdMs } = this.rule;
    const { elapsedMs, requests } = seen;
    const look: Look = { elapsedMs, requests, ...percentileSpread(seen, percentile) };
    this.looks.push(look);
    // Keep the newest look at or before two holds ago: the throughput before the hold needs it.
    while ((this.looks[1]?.elapsedMs ?? Number.POSITIVE_INFINITY) <= elapsedMs - 2 * holdMs) {
      this.looks.shift();
    }
    const [oldest] = this.looks;
    const figureUs = look.figureUs;
    if (!oldest || oldest.elapsedMs > elapsedMs - 2 * holdMs || figureUs === null) return false;
    const within = (value: number, of: number) =>
      Math.abs(value - of) <= (tolerancePercent / 100) * of;
    const holdStart = elapsedMs - holdMs;
    const held = this.looks.filter((each) => each.elapsedMs >= holdStart);
    const precise = held.every(
      (each) => each.withinPercent !== null && each.withinPercent <= tolerancePercent,
    );
    const still = held.every((each) => each.figureUs !== null && within(each.figureUs, figureUs));
    const atHoldStart = this.looks.filter((each) => each.elapsedMs <= holdStart).at(-1) ?? oldest;
    const before = rate(oldest, atHoldStart);
    return precise && still && before > 0 && within(rate(atHoldStart, look), before);
  }
}

function rate(from: Look, to: Look): number {
  const ms = to.elapsedMs - from.elapsedMs;
  return ms > 0 ? ((to.requests - from.requests) * 1000) / ms : 0;
}

/** What a phase run until steady says of itself: when it was found steady, or as it ended. */
export function steadyOutcome(rule: UntilSteady, steady: boolean, seen: SteadyLook): SteadyOutcome {
  const { withinPercent } = percentileSpread(seen, rule.percentile);
  return {
    ...rule,
    steady,
    requests: seen.requests,
    elapsedMs: Math.round(seen.elapsedMs),
    withinPercent: withinPercent === null ? null : Math.round(withinPercent * 10) / 10,
  };
}
