import {
  RunSpecSchema,
  type Operation,
  type PhaseHistograms,
  type PointSummary,
  type RequestMode,
  type RunMeta,
  type RunPointParams,
  type RunSpecInput,
  type RunSummary,
} from "@taillab/api";
import {
  createLatencyHistogram,
  createRandom,
  createSeriesDecimator,
  encodeHistogram,
  expandSweep,
  recordLatencyUs,
  summarizePhase,
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
 * more clients) with a few one-second stalls, merged into HDR histograms, summarised by core's
 * summarizePhase, and decimated into a latency-by-index series — built without holding the
 * requests, so a million-request run is cheap to make.
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
  const points: PointSummary[] = expandSweep(spec).map((params: RunPointParams, pointIndex) => {
    const requests = options.requestsPerPhase ?? params.samples;
    const phases = ops.map((op) => {
      const latency = createLatencyHistogram();
      const ttfb = createLatencyHistogram();
      const sizeFactor = 1 + params.objectSizeBytes / (256 * 1024);
      const medianUs =
        (op === "PUT" ? 6000 : 3500) *
        sizeFactor *
        (1 + params.clients / 16) *
        (options.latencyScale ?? 1);
      const stalls = new Set<number>();
      const stallCount = Math.min(options.stallsPerPhase ?? 3, requests);
      while (stalls.size < stallCount) stalls.add(Math.floor(random.next() * requests));
      const decimator = createSeriesDecimator(requests, options.seriesBuckets ?? 1000);
      for (let index = 0; index < requests; index += 1) {
        const valueUs = stalls.has(index)
          ? STALL_US + random.next() * 50_000
          : random.lognormal(medianUs, 0.35);
        recordLatencyUs(latency, valueUs);
        recordLatencyUs(ttfb, valueUs * 0.55);
        decimator.add(valueUs / 1000);
      }
      const durationMs = (latency.mean * requests) / params.clients / 1000;
      const errors: Record<string, number> =
        op === "GET" && pointIndex === 0 ? { SlowDown: 2 } : {};
      const summary = summarizePhase({
        op,
        requests,
        errorsByCode: errors,
        bytes: op === "DELETE" ? 0 : requests * params.objectSizeBytes,
        durationMs,
        latency,
        ttfb,
      });
      // The engine never sends a DELETE twice (a second one is not harmless).
      if (mode !== "normal" && op !== "DELETE") {
        const extra = Math.round(requests * 0.052);
        summary.hedge = {
          delayMs: mode === "tied" ? 0 : summary.latencyMs.p90,
          budgetPct: 10,
          attempts: requests + extra,
          extraPct: (extra / requests) * 100,
          aborted: extra - 1,
          wastedBytes: (extra - 1) * Math.floor(params.objectSizeBytes / 3),
          wonByBackup: Math.round(extra * 0.6),
        };
      }
      histograms.push({
        pointIndex,
        op,
        latency: encodeHistogram(latency),
        ttfb: encodeHistogram(ttfb),
        service: null,
      });
      latencySeries.push({ pointIndex, op, buckets: decimator.finish() });
      latency.destroy();
      ttfb.destroy();
      return summary;
    });
    return { params, phases };
  });

  const summary: RunSummary = {
    schemaVersion: 1,
    runId: "20250301-101500-ab12",
    startedAt: "2025-03-01T10:15:00.000Z",
    finishedAt: "2025-03-01T10:16:42.500Z",
    spec,
    endpointUrls: spec.endpoints?.map((endpoint) => endpoint.url) ?? ["http://127.0.0.1:41234/"],
    server: "TailLab-Testbed/0.1",
    mode,
    loop: spec.openLoop ? "open" : "closed",
    stopped: false,
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
    schemaVersion: 1,
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
  };
  return { meta, summary, histograms, latencySeries, damage: null };
}
