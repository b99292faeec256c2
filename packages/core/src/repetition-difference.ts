import { standardNormalCdf } from "./normal-distribution.ts";

/**
 * Whether a figure differs between two runs that each repeated the point (`--repeat N`), from the
 * spread between their repetitions rather than from one histogram's interval: repetitions differ
 * by more than one run's sampling (a server warming up, a neighbour's load), which only the runs
 * themselves show. The test is Mann–Whitney's U, two-sided at 5 %, exact (the distribution of U
 * counted over every ordering), and distribution-free like the percentiles' intervals. Below
 * MIN_REPETITIONS on a side no ordering is rare enough, so the intervals judge instead.
 */
export const REPETITION_DIFFERENCE_METHOD =
  "the repetitions' figures differ by Mann–Whitney's U test (two-sided, exact, 5 %)";

/** 4 against 4 is the fewest whose most extreme ordering has p < 5 % (2/70). */
export const MIN_REPETITIONS = 4;

const SIGNIFICANCE = 0.05;

/** Counts of U = u over the C(m+n, m) orderings of m and n values (no ties), u = 0 … m·n. */
function uCounts(m: number, n: number): number[] {
  // counts[i][j][u]: orderings of i and j values with U = u, built row by row.
  let previous: number[][] = Array.from({ length: n + 1 }, () => [1]);
  for (let i = 1; i <= m; i++) {
    const row: number[][] = [[1]];
    for (let j = 1; j <= n; j++) {
      // The largest value is from the first sample (it beats all j) or from the second.
      const withFirst = previous[j] as number[];
      const withSecond = row[j - 1] as number[];
      const counts = new Array<number>(i * j + 1).fill(0);
      withFirst.forEach((count, u) => (counts[u + j] = (counts[u + j] ?? 0) + count));
      withSecond.forEach((count, u) => (counts[u] = (counts[u] ?? 0) + count));
      row.push(counts);
    }
    previous = row;
  }
  return previous[n] as number[];
}

/** Pairs (a, b) with a above b, ties counting a half. */
function uStatistic(first: readonly number[], second: readonly number[]): number {
  let u = 0;
  for (const a of first) for (const b of second) u += a > b ? 1 : a === b ? 0.5 : 0;
  return u;
}

/** Beyond this many orderings' worth of work, the normal approximation is close enough. */
const EXACT_LIMIT = 400;

/** The two-sided p-value of Mann–Whitney's U for two sets of values. */
export function mannWhitneyP(first: readonly number[], second: readonly number[]): number {
  const m = first.length;
  const n = second.length;
  const u = uStatistic(first, second);
  const extreme = Math.min(u, m * n - u);
  if (m * n <= EXACT_LIMIT) {
    const counts = uCounts(m, n);
    const total = counts.reduce((sum, count) => sum + count, 0);
    const tail = counts.reduce((sum, count, value) => (value <= extreme ? sum + count : sum), 0);
    return Math.min(1, (2 * tail) / total);
  }
  const mean = (m * n) / 2;
  const sd = Math.sqrt((m * n * (m + n + 1)) / 12);
  // Continuity correction: U moves in steps of a half or one.
  return Math.min(1, 2 * standardNormalCdf((extreme - mean + 0.5) / sd));
}

/** true: significant; false: within chance; null: too few repetitions on a side to judge. */
export function repetitionDifferenceSignificant(
  baseline: readonly number[],
  other: readonly number[],
): boolean | null {
  if (baseline.length < MIN_REPETITIONS || other.length < MIN_REPETITIONS) return null;
  return mannWhitneyP(baseline, other) < SIGNIFICANCE;
}
