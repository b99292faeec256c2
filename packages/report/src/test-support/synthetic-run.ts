import {
  CANCELLED_ERROR,
  RunSpecSchema,
  type Operation,
  type PhaseHistograms,
  type PhaseIntervals,
  type PointSummary,
  type RequestMode,
  type RunMeta,
  type RunPointParams,
  type RunSpecInput,
  type RunSummary,
} from "@taillab/api";
import {
  createRandom,
  createSeriesDecimator,
  encodedHistogramsOf,
  expandSweep,
  PhaseAccount,
  phaseShapeOf,
  type AttemptTimeline,
} from "@taillab/core";
import type { LatencySeries, RunReportInput } from "../html-report.ts";

export interface SyntheticRunOptions {
  name?: string;
  notes?: string;
  tags?: string[];
  spec?: Partial<RunSpecInput>;
  /** Requests per phase; by default the spec's samples. */
  requestsPerPhase?: number;
  /** 1 s stalls per phase, at random request indexes. */
  stallsPerPhase?: number;
  mode?: RequestMode;
  seed?: number;
  ops?: Operation[];
  /** Decimated series buckets per phase (default 1 000). */
  seriesBuckets?: number;
  /** Multiplies every median latency (default 1): a faster or slower server. */
  latencyScale?: number;
}

const STALL_US = 1_000_000;

/**
 * A run as the store would hand it to a report: lognormal latencies (slower for bigger objects and
 * more clients) with a few one-second stalls, each request folded into core's accounting with a
 * timeline (client queue, server, transfer; in a request mode some answered by a backup), and
 * decimated into a latency-by-index series — built without holding the requests, so a
 * million-request run is cheap to make.
 */
export function syntheticRun(options: SyntheticRunOptions = {}): RunReportInput {
  const mode = options.mode ?? "normal";
  const spec = RunSpecSchema.parse({
    name: options.name,
    clients: [8],
    samples: [256],
    objectSize: ["32KiB"],
    mode,
    ...options.spec,
  });
  const random = createRandom(options.seed ?? 42);
  const ops = options.ops ?? ["PUT", "GET"];
  const histograms: PhaseHistograms[] = [];
  const latencySeries: LatencySeries[] = [];
  const intervals: PhaseIntervals[] = [];
  let clockUs = 0;
  let phaseIndex = 0;
  const points: PointSummary[] = expandSweep(spec).map((params: RunPointParams, pointIndex) => {
    const requests = options.requestsPerPhase ?? params.samples;
    const phases = ops.map((op) => {
      const account = new PhaseAccount(phaseShapeOf(spec, op));
      const sizeFactor = 1 + params.objectSizeBytes / (256 * 1024);
      const medianUs =
        (op === "PUT" ? 6000 : 3500) *
        sizeFactor *
        (1 + params.clients / 16) *
        (options.latencyScale ?? 1);
      const stalls = new Set<number>();
      const stallCount = Math.min(options.stallsPerPhase ?? 3, requests);
      while (stalls.size < stallCount) stalls.add(Math.floor(random.next() * requests));
      const failing = op === "GET" && pointIndex === 0 ? 2 : 0;
      const bytes = op === "DELETE" ? 0 : params.objectSizeBytes;
      const gapUs = medianUs / params.clients;
      const decimator = createSeriesDecimator(requests, options.seriesBuckets ?? 1000);
      for (let index = 0; index < requests; index += 1) {
        const intendedStartUs = Math.round(clockUs + index * gapUs);
        const valueUs = stalls.has(index)
          ? STALL_US + random.next() * 50_000
          : random.lognormal(medianUs, 0.35);
        const hedged = account.shape.hedgeBudgetPct !== null && random.chance(0.052);
        // Each client's first request opens its connection; a PUT sends its body.
        const shape = { connects: index < params.clients, uploads: op === "PUT" };
        const first = syntheticAttempt(intendedStartUs, valueUs, bytes, 0, shape);
        const attempts = hedged
          ? [
              { ...first, error: CANCELLED_ERROR, bytes: 0 },
              syntheticAttempt(intendedStartUs + valueUs * 0.4, valueUs * 0.5, bytes, 1, {
                connects: false,
                uploads: shape.uploads,
              }),
            ]
          : [index < failing ? { ...first, error: "SlowDown", bytes: 0 } : first];
        account.add({
          op,
          intendedStartUs,
          phaseIndex,
          client: index % params.clients,
          measured: true,
          attempts,
          winner: hedged ? 1 : index < failing ? null : 0,
        });
        if (index >= failing)
          decimator.add(((attempts.at(-1)?.endUs ?? 0) - intendedStartUs) / 1000);
      }
      clockUs += requests * gapUs + 500_000;
      phaseIndex += 1;
      const snapshot = account.snapshot();
      histograms.push({ pointIndex, op, ...encodedHistogramsOf(snapshot) });
      intervals.push({ pointIndex, op, intervals: account.intervalStats() });
      latencySeries.push({ pointIndex, op, buckets: decimator.finish() });
      const summary = account.summary();
      account.destroy();
      return summary;
    });
    return { params, finished: true, phases };
  });

  const summary: RunSummary = {
    schemaVersion: 2,
    runId: "20250301-101500-ab12",
    startedAt: "2025-03-01T10:15:00.000Z",
    finishedAt: "2025-03-01T10:16:42.500Z",
    spec,
    endpointUrls: spec.endpoints?.map((endpoint) => endpoint.url) ?? ["http://127.0.0.1:41234/"],
    server: "TailLab-Testbed/0.1",
    mode,
    loop: spec.openLoop ? "open" : "closed",
    status: "complete",
    pointCount: points.length,
    points,
    ...(spec.endpoints
      ? {}
      : {
          testbed: [
            { url: "http://127.0.0.1:41234/", received: 1540, completed: 1490, aborted: 50 },
          ],
        }),
  };
  const meta: RunMeta = {
    schemaVersion: 3,
    id: summary.runId,
    name: options.name ?? spec.name ?? "",
    tags: options.tags ?? ["lab-3", "tail"],
    notes: options.notes ?? "",
    createdAt: summary.startedAt,
    spec,
    environment: {
      taillabVersion: "0.1.0",
      os: "linux 6.1.0 x64",
      cpuModel: "AMD EPYC 7B13",
      cpuCount: 8,
      memoryBytes: 16 * 1024 ** 3,
      node: "v24.21.0",
      server: "TailLab-Testbed/0.1",
    },
    keyPrefix: `taillab/${summary.runId}`,
    status: "complete",
    error: null,
    cleanup: null,
    recordsWritten: null,
  };
  return { meta, summary, histograms, latencySeries, intervals, damage: null };
}

/** An attempt ready at `readyUs` that answers `durationUs` later: queue, server, transfer. */
function syntheticAttempt(
  readyUs: number,
  durationUs: number,
  bytes: number,
  replica: number,
  { connects, uploads }: { connects: boolean; uploads: boolean },
): AttemptTimeline {
  const sentUs = Math.round(readyUs + Math.min(200, durationUs * 0.05));
  const endUs = Math.round(readyUs + durationUs);
  const firstByteUs = Math.round(sentUs + (endUs - sentUs) * 0.55);
  return {
    replica,
    readyUs: Math.round(readyUs),
    sentUs,
    connectUs: connects ? Math.round((sentUs - readyUs) / 2) : 0,
    bodySentUs: uploads ? Math.round(sentUs + (firstByteUs - sentUs) * 0.3) : sentUs,
    headersUs: firstByteUs,
    firstByteUs,
    endUs,
    bytes,
    error: null,
  };
}
