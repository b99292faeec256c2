import type { CdfSeries } from "@taillab/report";

/** A vertical marker line from the bottom to the top of the fraction axis. */
export function verticalMarker(
  x: number,
  data: Pick<CdfSeries, "fractionMin" | "fractionMax">,
): { x: number; y: number }[] {
  return [
    { x, y: data.fractionMin },
    { x, y: data.fractionMax },
  ];
}

/** Where a CCDF's log axis is labelled: the nines, as a share slower and as a percentile. */
export const CCDF_TICKS: readonly { fraction: number; label: string }[] = [
  { fraction: 1, label: "100%" },
  { fraction: 0.1, label: "10% · p90" },
  { fraction: 0.01, label: "1% · p99" },
  { fraction: 0.001, label: "0.1% · p99.9" },
  { fraction: 0.0001, label: "0.01% · p99.99" },
  { fraction: 0.00001, label: "0.001% · p99.999" },
];
