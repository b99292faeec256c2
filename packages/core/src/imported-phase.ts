import type { Operation, PhaseSummary, ToolLatencyFigure, ToolLatencyMs } from "@taillab/api";
import type { CodeCounts } from "./error-codes.ts";
import type { LogicalRequest } from "./logical-request.ts";
import { encodedHistogramsOf, PhaseAccount } from "./phase-account.ts";
import {
  createTally,
  destroyTally,
  encodeTally,
  recordDurations,
  tallyStatsMs,
} from "./latency-tally.ts";

/**
 * One phase of a run read from another tool's file, with its figures computed here as for
 * TailLab's own runs wherever the file keeps what they are computed from, and left out (null)
 * where it does not: no figure of an imported run is made up.
 */
export interface ImportedPhase {
  summary: PhaseSummary;
  /** The encoded histograms a run folder keeps (null: the file has no latencies to build them). */
  histograms: {
    latency: string;
    ttfb: string | null;
    transfer: string | null;
  } | null;
}

/**
 * A latency figure of a phase (ms): computed from its histograms, or for an imported phase
 * without them as its tool printed it; null when neither has it.
 */
export function phaseLatencyFigureMs(
  phase: PhaseSummary,
  figure: ToolLatencyFigure,
): number | null {
  return phase.latencyMs?.[figure] ?? phase.toolLatencyMs?.[figure] ?? null;
}

/** One request as a tool recorded it (µs on its own clock). */
export interface ImportedRequest {
  client: number;
  startUs: number;
  /** Null where the tool did not record it (an operation without a body, or a tool that never does). */
  firstByteUs: number | null;
  endUs: number;
  bytes: number;
  error: string | null;
}

/**
 * A phase from per-request records (warp's CSV): each request folded into core's PhaseAccount as
 * a closed-loop request of one attempt sent at its start, so every figure those records carry
 * is computed as for TailLab's own runs. A tool's start is when it sent the request: it kept no
 * client queue, connect or upload time, so those figures (and the tail breakdown, made of them)
 * are left out; time to first byte and transfer are kept where every request has a first byte.
 */
export function phaseOfRequests(
  op: Operation,
  requests: readonly ImportedRequest[],
): ImportedPhase {
  const account = new PhaseAccount({ op, loop: "closed", hedgeBudgetPct: null });
  const withFirstByte = requests.every(
    (request) => request.error !== null || request.firstByteUs !== null,
  );
  for (const request of requests) account.add(logicalRequestOf(op, request));
  const summary = account.summary();
  const histograms = encodedHistogramsOf(account.snapshot());
  account.destroy();
  // Absent rather than null: "not recorded", as in runs from before TailLab measured them.
  const carried: PhaseSummary = { ...summary };
  delete carried.connectMs;
  delete carried.uploadMs;
  return {
    summary: {
      ...carried,
      clientQueueMs: null,
      ttfbMs: withFirstByte ? summary.ttfbMs : null,
      transferMs: withFirstByte ? summary.transferMs : null,
      tail: null,
    },
    histograms:
      summary.latencyMs === null
        ? null
        : {
            latency: histograms.latency,
            ttfb: withFirstByte ? histograms.ttfb : null,
            transfer: withFirstByte ? histograms.transfer : null,
          },
  };
}

function logicalRequestOf(op: Operation, request: ImportedRequest): LogicalRequest {
  const firstByteUs = request.firstByteUs ?? request.endUs;
  return {
    op,
    intendedStartUs: request.startUs,
    phaseIndex: 0,
    client: request.client,
    measured: true,
    attempts: [
      {
        replica: 0,
        readyUs: request.startUs,
        sentUs: request.startUs,
        headersUs: firstByteUs,
        firstByteUs,
        endUs: request.endUs,
        bytes: request.bytes,
        error: request.error,
      },
    ],
    winner: request.error === null ? 0 : null,
  };
}

/** What a tool counted of a phase, whatever it kept of the latencies. */
export interface ImportedTotals {
  requests: number;
  errors: number;
  errorsByCode: CodeCounts;
  /** Payload bytes of successful requests. */
  bytes: number;
  durationMs: number;
}

const BYTES_PER_MIB = 1024 * 1024;

/** A phase's throughput and counts from a tool's totals, without latencies. */
function phaseOfTotals(op: Operation, totals: ImportedTotals): PhaseSummary {
  const seconds = totals.durationMs / 1000;
  return {
    op,
    loop: "closed",
    requests: totals.requests,
    errors: totals.errors,
    errorsByCode: totals.errorsByCode,
    bytes: totals.bytes,
    durationMs: totals.durationMs,
    throughputMBps: seconds > 0 ? round3(totals.bytes / BYTES_PER_MIB / seconds) : 0,
    opsPerSec: seconds > 0 ? round3(totals.requests / seconds) : 0,
    steady: null,
    latencyMs: null,
    clientQueueMs: null,
    serviceMs: null,
    ttfbMs: null,
    transferMs: null,
    missedStarts: 0,
    tail: null,
  };
}

/**
 * A phase from a latency histogram another tool kept (fio's json+ bins: each bin's value, µs, and
 * how many requests fell in it): its percentiles, mean and spread computed here from the bins,
 * to the bins' own precision.
 */
export function phaseOfLatencyBins(
  op: Operation,
  totals: ImportedTotals,
  bins: readonly (readonly [latencyUs: number, count: number])[],
): ImportedPhase {
  const tally = createTally();
  for (const [latencyUs, count] of bins) recordDurations(tally, latencyUs, count);
  const latencyMs = tallyStatsMs(tally);
  const histogram = encodeTally(tally).histogram;
  destroyTally(tally);
  return {
    summary: { ...phaseOfTotals(op, totals), latencyMs },
    histograms: latencyMs === null ? null : { latency: histogram, ttfb: null, transfer: null },
  };
}

/** A phase of which a tool printed only some latency figures (s3bench's text): those, as printed. */
export function phaseOfToolFigures(
  op: Operation,
  totals: ImportedTotals,
  toolLatencyMs: ToolLatencyMs,
): ImportedPhase {
  const printed = Object.keys(toolLatencyMs).length > 0;
  return {
    summary: { ...phaseOfTotals(op, totals), ...(printed ? { toolLatencyMs } : {}) },
    histograms: null,
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
