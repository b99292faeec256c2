import type { EncodedTally, LatencyStats, ShardPhase, ShardResult } from "@taillab/api";
import { decodeHistogram } from "./latency-histogram.ts";
import { expandSweep } from "./sweep.ts";

/**
 * What is wrong with one shard's result beyond its shape (which api's ShardResultSchema checks):
 * figures that cannot be, from a damaged or crafted file. A shard measured nothing in the future
 * and no request outlasted its phase, so every time lies between its run clock's start and
 * `nowMs`, and every duration within its phase's span; counts agree with each other and with
 * their histograms. One line each, naming the point and operation; empty when it is sound.
 */
export function shardResultProblems(result: ShardResult, nowMs: number): string[] {
  const problems: string[] = [];
  if (result.index >= result.shards) {
    problems.push(`index ${result.index} is out of range for ${result.shards} shards`);
  }
  if (!Number.isFinite(result.runStartEpochMs) || result.runStartEpochMs > nowMs) {
    problems.push(`its run clock starts in the future (${result.runStartEpochMs})`);
    return problems;
  }
  const points = expandSweep(result.spec).length;
  if (result.points.length > points) {
    problems.push(`${result.points.length} points, the spec has ${points}`);
  }
  const clockEndUs = (nowMs - result.runStartEpochMs) * 1000;
  result.points.forEach((point, pointIndex) => {
    for (const phase of point.phases) {
      for (const problem of phaseProblems(phase, clockEndUs)) {
        problems.push(`point ${pointIndex + 1} ${phase.op}: ${problem}`);
      }
    }
  });
  return problems;
}

/** Slack for HDR's rounding (3 significant digits) and for sums of rounded values. */
const PRECISION = 1.001;

function phaseProblems({ summary, account }: ShardPhase, clockEndUs: number): string[] {
  const problems: string[] = [];
  const errors = Object.values(account.errorsByCode).reduce((sum, count) => sum + count, 0);
  if (errors > account.requests) {
    problems.push(`${errors} errors in ${account.requests} requests`);
  }
  if (summary.requests !== account.requests || summary.errors !== errors) {
    problems.push(
      `its summary counts ${summary.requests} requests and ${summary.errors} errors, its account ${account.requests} and ${errors}`,
    );
  }
  let spanUs = 0;
  for (const segment of account.segments) {
    const { firstIntendedUs, lastEndUs } = segment;
    if (
      !(firstIntendedUs <= lastEndUs) ||
      lastEndUs > clockEndUs ||
      firstIntendedUs < -clockEndUs
    ) {
      problems.push(`a segment from ${firstIntendedUs} to ${lastEndUs} µs is outside its run`);
    }
    spanUs += Math.max(0, lastEndUs - firstIntendedUs);
  }
  const boundUs = spanUs * PRECISION + 1;
  for (const [name, tally] of Object.entries(account.tallies)) {
    const problem = tallyProblem(tally, boundUs, account.requests);
    if (problem !== null) problems.push(`${name} histogram: ${problem}`);
  }
  for (const interval of account.intervals) {
    if (interval.index * 1_000_000 > clockEndUs) {
      problems.push(`second ${interval.index} is after the shard's result was read`);
      break;
    }
    for (const [name, tally] of [
      ["latency", interval.latency],
      ["failures", interval.failures],
      ["backups", interval.backups],
    ] as const) {
      const problem = tally
        ? tallyProblem(tally, boundUs, account.requests + account.hedge.backups)
        : null;
      if (problem !== null) {
        problems.push(`second ${interval.index}'s ${name} histogram: ${problem}`);
        return problems;
      }
    }
  }
  for (const [name, stats] of Object.entries(latencyStatsOf(summary))) {
    if (stats !== null && stats.max * 1000 > boundUs) {
      problems.push(`its summary's ${name} maximum ${stats.max} ms is longer than its phase`);
    }
  }
  return problems;
}

function latencyStatsOf(summary: ShardPhase["summary"]): Record<string, LatencyStats | null> {
  const { latencyMs, clientQueueMs, connectMs, serviceMs, uploadMs, ttfbMs, transferMs } = summary;
  return {
    latencyMs,
    clientQueueMs,
    connectMs: connectMs ?? null,
    serviceMs,
    uploadMs: uploadMs ?? null,
    ttfbMs,
    transferMs,
  };
}

/** What is wrong with one encoded tally of durations at most `boundUs`, or null. */
function tallyProblem(tally: EncodedTally, boundUs: number, maxCount: number): string | null {
  if (tally.count === 0) return null;
  if (tally.count > maxCount) return `${tally.count} values, more than its ${maxCount} requests`;
  if (!(tally.minUs >= 1 && tally.minUs <= tally.maxUs)) {
    return `minimum ${tally.minUs} µs and maximum ${tally.maxUs} µs cannot be`;
  }
  if (tally.maxUs > boundUs) {
    return `a duration of ${tally.maxUs} µs is longer than its phase (${Math.round(boundUs)} µs)`;
  }
  if (!(tally.sumUs >= tally.count * tally.minUs && tally.sumUs <= tally.count * tally.maxUs)) {
    return `its sum ${tally.sumUs} µs is outside ${tally.count} × [minimum, maximum]`;
  }
  let histogram;
  try {
    histogram = decodeHistogram(tally.histogram);
  } catch (error) {
    return `not a readable HDR histogram (${(error as Error).message})`;
  }
  try {
    if (histogram.totalCount !== tally.count) {
      return `it holds ${histogram.totalCount} values, its count says ${tally.count}`;
    }
    if (histogram.maxValue > tally.maxUs * PRECISION + 1) {
      return `it holds ${histogram.maxValue} µs, past its maximum ${tally.maxUs} µs`;
    }
    return null;
  } finally {
    histogram.destroy();
  }
}
