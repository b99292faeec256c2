/**
 * The tail-cut goals of issue 10, after The Tail at Scale (hedging after 10 ms cut p99.9 from
 * 1 800 ms to 74 ms for 2 % more requests):
 * - every mode cuts p99.9 at least `minP999Cut`× below normal's, on every operation and seed:
 *   the stalls no longer decide p99.9;
 * - and some mode does so for at most `maxExtraPct` % extra requests.
 */
export const TAIL_CUT_GOAL = { minP999Cut: 20, maxExtraPct: 3 } as const;

/** One mode's figures for one operation on one seed. */
export interface ModeTail {
  seed: number;
  op: string;
  label: string;
  p999Ms: number;
  /** Backup attempts per 100 logical requests. */
  extraPct: number;
}

export interface TailCut extends ModeTail {
  /** normal's p99.9 / this mode's, same seed and operation. */
  cut: number;
}

export interface TailCutVerdict {
  /** Every mode's cut on every seed and operation. */
  cuts: TailCut[];
  /** The cuts under `minP999Cut`. */
  short: TailCut[];
  /** Modes (labels) whose every cut meets `minP999Cut` within `maxExtraPct` extra requests. */
  cheapEnough: string[];
}

/** Judges each mode against the normal mode of the same seed and operation. */
export function evaluateTailCuts(
  normalLabel: string,
  tails: readonly ModeTail[],
  goal: { minP999Cut: number; maxExtraPct: number } = TAIL_CUT_GOAL,
): TailCutVerdict {
  const normalOf = (tail: ModeTail) =>
    tails.find(
      (other) => other.label === normalLabel && other.seed === tail.seed && other.op === tail.op,
    );
  const cuts = tails.flatMap((tail) => {
    const normal = normalOf(tail);
    if (tail.label === normalLabel || !normal) return [];
    return [{ ...tail, cut: normal.p999Ms / tail.p999Ms }];
  });
  const short = cuts.filter((tail) => !(tail.cut >= goal.minP999Cut));
  const labels = [...new Set(cuts.map((tail) => tail.label))];
  const cheapEnough = labels.filter((label) =>
    cuts
      .filter((tail) => tail.label === label)
      .every((tail) => tail.cut >= goal.minP999Cut && tail.extraPct <= goal.maxExtraPct),
  );
  return { cuts, short, cheapEnough };
}
