import type { RunPointParams } from "@taillab/api";
import { valueRange } from "@taillab/core";

export interface Range {
  min: number;
  max: number;
}

/** What a run's points vary: one point, or the ranges a sweep covers. */
export interface PointsOutline {
  count: number;
  clients: Range;
  samples: Range;
  objectSizeBytes: Range;
}

export function outlinePoints(points: readonly RunPointParams[]): PointsOutline {
  const range = (values: number[]): Range => valueRange(values) ?? { min: 0, max: 0 };
  return {
    count: points.length,
    clients: range(points.map((point) => point.clients)),
    samples: range(points.map((point) => point.samples)),
    objectSizeBytes: range(points.map((point) => point.objectSizeBytes)),
  };
}
