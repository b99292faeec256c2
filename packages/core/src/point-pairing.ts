import type { RunPointParams, RunSummary } from "@taillab/api";

export type PointParam = keyof RunPointParams;

/** The parameters of a point, in the order a difference is told. */
export const POINT_PARAMS: readonly PointParam[] = ["clients", "samples", "objectSizeBytes"];

/**
 * How a run's points meet the baseline's: the baseline itself; the same points (same clients,
 * samples and size); or, sharing none, paired point by point in order.
 */
export type PairingKind = "baseline" | "same-points" | "in-order";

/** One parameter in which a run paired in order differs from the baseline. */
export interface ParamDifference {
  param: PointParam;
  /** The run's distinct values on its paired points, in point order. */
  values: number[];
  /** The baseline's distinct values on the partners of those points, in point order. */
  baselineValues: number[];
}

export interface RunPairing {
  pairing: PairingKind;
  /** For a run paired in order, what its paired points differ in (POINT_PARAMS order); else empty. */
  differingParams: ParamDifference[];
}

const pointKey = ({ clients, samples, objectSizeBytes }: RunPointParams) =>
  `${clients}|${samples}|${objectSizeBytes}`;

/** The parameters in which two points differ, in POINT_PARAMS order. */
export function differingParams(a: RunPointParams, b: RunPointParams): PointParam[] {
  return POINT_PARAMS.filter((param) => a[param] !== b[param]);
}

const distinct = (values: readonly number[]) => [...new Set(values)];

/**
 * How each run is paired with the baseline, and the runs as they are to be matched. Runs that
 * differ in one parameter (the same workload at 2 and at 8 clients) are the commonest comparison
 * in a lab, yet matching by identical parameters would show them side by side with nothing in
 * common. So a run sharing no point with the baseline has its i-th point paired with the
 * baseline's i-th, by giving it the baseline's parameters; its points keep their indexes, so its
 * own parameters stay at hand. A run with at least one point in common keeps exact matching.
 */
export function pairWithBaseline(
  summaries: readonly RunSummary[],
  baselineIndex: number,
): { pairings: RunPairing[]; aligned: RunSummary[] } {
  const baseline = summaries[baselineIndex] as RunSummary;
  const baselineKeys = new Set(baseline.points.map((point) => pointKey(point.params)));
  const pairings: RunPairing[] = [];
  const aligned = summaries.map((summary, index): RunSummary => {
    if (index === baselineIndex) {
      pairings.push({ pairing: "baseline", differingParams: [] });
      return summary;
    }
    const shares = summary.points.some((point) => baselineKeys.has(pointKey(point.params)));
    if (shares || summary.points.length === 0 || baseline.points.length === 0) {
      pairings.push({ pairing: "same-points", differingParams: [] });
      return summary;
    }
    const pairs = summary.points.flatMap((point, pointIndex) => {
      const partner = baseline.points[pointIndex];
      return partner ? [{ own: point.params, partner: partner.params }] : [];
    });
    pairings.push({
      pairing: "in-order",
      differingParams: POINT_PARAMS.filter((param) =>
        pairs.some(({ own, partner }) => own[param] !== partner[param]),
      ).map((param) => ({
        param,
        values: distinct(pairs.map(({ own }) => own[param])),
        baselineValues: distinct(pairs.map(({ partner }) => partner[param])),
      })),
    });
    return {
      ...summary,
      points: summary.points.map((point, pointIndex) => {
        const partner = baseline.points[pointIndex];
        return partner ? { ...point, params: partner.params } : point;
      }),
    };
  });
  return { pairings, aligned };
}
