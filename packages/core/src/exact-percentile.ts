/**
 * The nearest-rank percentile of sorted values: the smallest value with at least `level` % of
 * all values at or below it. HDR histograms answer the same question within their precision, so
 * tests check them against this.
 */
export function exactPercentile(sortedValues: readonly number[], level: number): number {
  if (sortedValues.length === 0) throw new Error("exactPercentile: no values");
  const rank = Math.max(1, Math.ceil((level / 100) * sortedValues.length));
  return sortedValues[Math.min(rank, sortedValues.length) - 1] as number;
}
