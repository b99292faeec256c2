import type { RunSummary } from "@taillab/api";
import { formatPointParams, formatPointS3bench, formatSweepTable } from "@taillab/report";

/**
 * A run as text to paste into a lab report, in s3bench's layout (packages/report): the chosen
 * point's blocks, and for a sweep the table of every point first.
 */
export function runText(summary: RunSummary, pointIndex: number): string {
  const point = summary.points[pointIndex];
  if (!point) return summary.points.length > 1 ? formatSweepTable(summary) : "";
  const blocks = formatPointS3bench(point);
  if (summary.points.length === 1) return blocks;
  return `${formatSweepTable(summary)}\n${formatPointParams(point)}\n\n${blocks}`;
}
