import type { Operation, PhaseHistograms } from "@taillab/api";

export function findHistograms(
  histograms: readonly PhaseHistograms[],
  pointIndex: number,
  op: Operation,
): PhaseHistograms | null {
  return histograms.find((entry) => entry.pointIndex === pointIndex && entry.op === op) ?? null;
}
