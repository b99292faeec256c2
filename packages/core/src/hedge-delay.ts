import { createLatencyWindow, type LatencyWindow } from "./latency-window.ts";

/**
 * When to send the backup attempt of a request, per request class (see `requestClass`).
 *
 * Feed `observe` the service time of FIRST attempts only — from when the first attempt was sent
 * to when it completed, whether or not it won. Backup attempts and hedged (winner) latencies are
 * shorter by design, so feeding them would drag the delay down, hedge more, load the replicas
 * more and drag it down further. Abandoned first attempts have no service time to observe.
 */
export interface HedgeDelayPolicy {
  /** The delay in ms after which to hedge, or null: do not hedge (too few samples so far). */
  delayMs(requestClass: string): number | null;
  observe(requestClass: string, latencyMs: number): void;
}

export interface PercentileHedgeDelayOptions {
  /** Which percentile of recent latencies to wait for, e.g. 95. */
  percentile: number;
  /** Latencies of a class needed before it hedges at all (default 20). */
  minSamples?: number;
  /** How many recent latencies of a class to remember (default 1 000). */
  windowSize?: number;
}

/**
 * No percentile delay exceeds this multiple of the median of recent first attempts. A stall as
 * frequent as the chosen percentile (1 % stalls under a p99 delay) would otherwise pull the
 * estimate onto the stalls themselves: unhedged stalls are then seen at their full length, hold
 * the percentile up, and hedging never starts (or stops for good), so p99.9 is cut on one run
 * and not at all on the next. A request over 4× the median is slow by any measure worth
 * hedging: for lognormal service times with σ up to 0.6 the cap sits above the natural p99.
 */
export const HEDGE_DELAY_MEDIAN_MULTIPLE = 4;

/** Always hedge after `delayMs`; 0 sends both attempts at once (a tied request). */
export function fixedHedgeDelay(delayMs: number): HedgeDelayPolicy {
  if (!Number.isFinite(delayMs) || delayMs < 0) {
    throw new RangeError(`hedge delay must be a finite number of ms ≥ 0, got ${delayMs}`);
  }
  return { delayMs: () => delayMs, observe: () => {} };
}

/**
 * Hedge a request once it has taken longer than `percentile` % of recent first attempts of its
 * class — Dean and Barroso's "hedged request", as in Finagle's backup requests and the AWS S3
 * transfer manager — but never later than HEDGE_DELAY_MEDIAN_MULTIPLE × their median. At p95 it
 * adds about 5 % extra requests and cuts the tail above p95.
 */
export function percentileHedgeDelay(options: PercentileHedgeDelayOptions): HedgeDelayPolicy {
  const { percentile, minSamples, windowSize } = checkOptions(options);
  const windows = new Map<string, LatencyWindow>();
  return {
    delayMs(requestClass) {
      const window = windows.get(requestClass);
      if (!window || window.count < minSamples) return null;
      return cappedPercentile(window, percentile);
    },
    observe(requestClass, latencyMs) {
      windowFor(windows, requestClass, windowSize).add(latencyMs);
    },
  };
}

/** Weight of the newest latency in the smoothed latency: reacts within ~10 requests. */
const SMOOTHING_ALPHA = 0.1;
/** The percentile of the window taken as the uncongested (base) latency. */
const BASE_PERCENTILE = 5;

interface AdaptiveClassState {
  window: LatencyWindow;
  smoothedMs: number;
}

export interface AdaptiveHedgeDelayOptions extends PercentileHedgeDelayOptions {
  /**
   * The delay never drops below this percentile of recent latencies (default 0: no floor). Set it
   * to 100 − budget %: a delay below it would want more backups than the budget pays for, and the
   * budget would run dry on ordinary requests just before a stall arrives.
   */
  floorPercentile?: number;
}

/**
 * The labs' hybrid of tied and hedged requests: the delay is near 0 while the replicas are idle
 * (send the backup at once, like a tied request) and grows to the percentile delay under
 * congestion (wait, like a hedged request), so duplicates are cheap when they are free and
 * rare when they would add to a queue.
 *
 * Congestion is read from the latencies themselves, as TCP Vegas reads it from round-trip times:
 *
 *   baseMs     = p5 of the class's recent latencies (what a request costs without queueing;
 *                p5 rather than the minimum, so one lucky outlier does not set it)
 *   smoothedMs = EWMA of its latencies, α = 0.1 (what requests cost right now)
 *   congestion = clamp((smoothedMs − baseMs) / smoothedMs, 0, 1)
 *   capped(p)  = min(p, 4 × median)
 *   delay      = max(capped(p`floorPercentile`), congestion × capped(p`percentile`))
 *
 * Congestion is the share of the current latency that is spent above the base, i.e. waiting:
 * 0 when requests cost what they always cost, 0.8 when they take 5× the base, 0.9 at 10×.
 * Limits worth knowing: a service whose latencies are naturally spread out reads as somewhat
 * congested even when idle (for lognormal latencies with log-sd σ, about 1 − e^(−1.645σ − σ²/2),
 * e.g. 0.16 at σ = 0.1); and a uniform slow-down that lasts longer than the window raises the
 * base with it, so the delay drifts back down — the windowed base forgets what idle looked like.
 */
export function adaptiveHedgeDelay(options: AdaptiveHedgeDelayOptions): HedgeDelayPolicy {
  const { percentile, minSamples, windowSize } = checkOptions(options);
  const floorPercentile = options.floorPercentile ?? 0;
  if (!(floorPercentile >= 0 && floorPercentile < 100)) {
    throw new RangeError(`floorPercentile must be from 0 to below 100, got ${floorPercentile}`);
  }
  const classes = new Map<string, AdaptiveClassState>();
  return {
    delayMs(requestClass) {
      const state = classes.get(requestClass);
      if (!state || state.window.count < minSamples) return null;
      const baseMs = state.window.percentile(BASE_PERCENTILE);
      const congestion =
        state.smoothedMs > 0 ? clamp01((state.smoothedMs - baseMs) / state.smoothedMs) : 0;
      // Capped like the percentile: a budget at or below the stall fraction puts the floor's
      // percentile on the stalls, which would then go unhedged and hold it there.
      const floorMs = floorPercentile > 0 ? cappedPercentile(state.window, floorPercentile) : 0;
      return Math.max(floorMs, congestion * cappedPercentile(state.window, percentile));
    },
    observe(requestClass, latencyMs) {
      const state = classes.get(requestClass);
      if (!state) {
        const window = createLatencyWindow(windowSize);
        window.add(latencyMs);
        classes.set(requestClass, { window, smoothedMs: latencyMs });
        return;
      }
      state.window.add(latencyMs);
      state.smoothedMs += SMOOTHING_ALPHA * (latencyMs - state.smoothedMs);
    },
  };
}

/** The window's `percentile`, but at most HEDGE_DELAY_MEDIAN_MULTIPLE × its median. */
function cappedPercentile(window: LatencyWindow, percentile: number): number {
  return Math.min(
    window.percentile(percentile),
    HEDGE_DELAY_MEDIAN_MULTIPLE * window.percentile(50),
  );
}

function checkOptions(options: PercentileHedgeDelayOptions): Required<PercentileHedgeDelayOptions> {
  const { percentile, minSamples = 20, windowSize = 1000 } = options;
  if (!(percentile > 0 && percentile <= 100)) {
    throw new RangeError(`hedge percentile must be above 0 and at most 100, got ${percentile}`);
  }
  if (!Number.isInteger(windowSize) || windowSize < 1) {
    throw new RangeError(`hedge window size must be a whole number ≥ 1, got ${windowSize}`);
  }
  if (!Number.isInteger(minSamples) || minSamples < 1 || minSamples > windowSize) {
    throw new RangeError(
      `hedge minSamples must be a whole number from 1 to the window size (${windowSize}), got ${minSamples}`,
    );
  }
  return { percentile, minSamples, windowSize };
}

function windowFor(
  windows: Map<string, LatencyWindow>,
  requestClass: string,
  windowSize: number,
): LatencyWindow {
  let window = windows.get(requestClass);
  if (!window) {
    window = createLatencyWindow(windowSize);
    windows.set(requestClass, window);
  }
  return window;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
