import type { PointSummary, RunSummary } from "@taillab/api";
import {
  formatNotRunS3bench,
  formatPointParams,
  formatPointS3bench,
  formatServerLost,
  formatSweepTable,
} from "@taillab/report";
import { plural } from "./run-verdict.ts";
import { printJson, printOut } from "./terminal-output.ts";

/**
 * A run's figures as the CLI prints them (s3bench's blocks, a sweep's table, how far a stopped
 * run got), for every command that ends with a run: run, a shard's run, merge.
 */
export function printSummary(summary: RunSummary, asJson: boolean, inLibrary = true): void {
  if (asJson) {
    printJson(summary);
    return;
  }
  const sweep = summary.pointCount > 1;
  for (const point of summary.points) printPoint(point, sweep);
  printSummaryEnd(summary, inLibrary);
}

/** One point's s3bench block; a sweep's is headed by the point's parameters. */
export function printPoint(point: PointSummary, sweep: boolean): void {
  const block = formatPointS3bench(point);
  printOut(`${sweep ? `=== ${formatPointParams(point)} ===\n${block}` : block}\n`);
}

/** What follows the points: a sweep's table, how far a stopped run got, the run's id. */
export function printSummaryEnd(summary: RunSummary, inLibrary = true, print = printOut): void {
  const notRun = formatNotRunS3bench(summary);
  if (notRun) print(`${notRun}\n`);
  if (summary.pointCount > 1) print(`${formatSweepTable(summary)}\n`);
  print(formatServerLost(summary));
  if (summary.status === "stopped") {
    const finished = summary.points.filter((point) => point.finished).length;
    const cutOff = summary.points
      .flatMap((point) => point.phases)
      .reduce((sum, phase) => sum + (phase.cutOff ?? 0), 0);
    const recorded =
      cutOff > 0
        ? ` Cut off in flight (recorded, not in the figures): ${plural(cutOff, "request")}.`
        : "";
    print(
      `Stopped: ${finished} of ${summary.pointCount} points finished; the figures cover what was measured.${recorded}\n`,
    );
  }
  if (inLibrary) print(`Run id: ${summary.runId} (taillab runs show ${summary.runId})\n`);
}
