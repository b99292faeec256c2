import type { RequestRecord, RunMeta } from "@taillab/api";
import { decodeHistogram, latencyStatsMs } from "@taillab/core";
import { describe, expect, it } from "vitest";
import { decodeRecordLog } from "./record-log-reader.ts";
import { RecordFrameEncoder } from "./record-frame-encoder.ts";
import { encodeLogHeader } from "./record-log-format.ts";
import { RecordsSummarizer } from "./records-summary.ts";
import { SAMPLE_ENVIRONMENT, sampleSpec } from "./test-support/sample-run.ts";

const PREFIX = "taillab/r/";

function metaWith(specInput: Record<string, unknown>): RunMeta {
  return {
    schemaVersion: 1,
    id: "r",
    name: "r",
    tags: [],
    notes: "",
    createdAt: "2026-01-01T00:00:00.000Z",
    spec: sampleSpec(specInput),
    environment: SAMPLE_ENVIRONMENT,
    keyPrefix: PREFIX,
    status: "running",
    error: null,
  };
}

function attempt(overrides: Partial<RequestRecord>): RequestRecord {
  return {
    op: "GET",
    key: `${PREFIX}1`,
    bytes: 100,
    intendedStartUs: 0,
    startUs: 0,
    firstByteUs: 500,
    endUs: 1000,
    status: 200,
    error: null,
    attempt: 1,
    replica: 0,
    winner: true,
    ...overrides,
  };
}

function summarize(meta: RunMeta, batches: { pointIndex: number; records: RequestRecord[] }[]) {
  const encoder = new RecordFrameEncoder(PREFIX);
  const parts = [encodeLogHeader()];
  for (const { pointIndex, records } of batches) {
    encoder.add(pointIndex, records);
    parts.push(encoder.takeFrames()?.bytes ?? Buffer.alloc(0));
  }
  const summarizer = new RecordsSummarizer(meta);
  summarizer.add(decodeRecordLog(Buffer.concat(parts), PREFIX, "test"));
  return summarizer.finish(null);
}

/**
 * Count, min and max (ms) of an encoded histogram; the max to two decimals, as an encoded
 * histogram keeps values to 3 significant digits (3 ms comes back as 3.001).
 */
function figures(encoded: string | null | undefined) {
  if (!encoded) return null;
  const histogram = decodeHistogram(encoded);
  const { min, max } = latencyStatsMs(histogram);
  const result = { count: histogram.totalCount, min, max: Math.round(max * 100) / 100 };
  histogram.destroy();
  return result;
}

describe("summary rebuilt from records", () => {
  it("counts logical requests the way the engine does: winners, backups, failures", () => {
    const meta = metaWith({ mode: "hedged", endpoints: [{ url: "http://a:1" }] });
    const { summary, histograms } = summarize(meta, [
      {
        pointIndex: 0,
        records: [
          // A single attempt: 1 ms.
          attempt({ key: `${PREFIX}1` }),
          // Hedged: the first attempt lost, the backup won at 3 ms.
          attempt({ key: `${PREFIX}2`, endUs: 4000, error: "Aborted", winner: false, bytes: 7 }),
          attempt({
            key: `${PREFIX}2`,
            attempt: 2,
            replica: 1,
            startUs: 2000,
            firstByteUs: 2500,
            endUs: 3000,
          }),
        ],
      },
      {
        pointIndex: 0,
        records: [
          // Failed: counted under its error code, not in the latency.
          attempt({
            key: `${PREFIX}3`,
            status: 503,
            error: "SlowDown",
            winner: false,
            endUs: 9000,
          }),
          // A same-key request that starts again at attempt 1 is a new request.
          attempt({ key: `${PREFIX}3`, intendedStartUs: 100, startUs: 100, endUs: 2100 }),
        ],
      },
    ]);
    expect(summary.stopped).toBe(true);
    expect(summary.runId).toBe("r");
    expect(summary.endpointUrls).toEqual(["http://a:1"]);
    expect(summary.finishedAt).toBe("2026-01-01T00:00:00.009Z");
    const [phase] = summary.points[0]?.phases ?? [];
    expect(phase).toMatchObject({
      op: "GET",
      requests: 4,
      errors: 1,
      errorsByCode: { SlowDown: 1 },
      bytes: 300,
      durationMs: 9,
      hedge: {
        delayMs: null,
        attempts: 5,
        extraPct: 25,
        aborted: 1,
        wastedBytes: 7,
        wonByBackup: 1,
        budgetPct: 10,
      },
    });
    expect(phase?.latencyMs.min).toBe(1);
    expect(phase?.latencyMs.max).toBe(3);
    expect(phase?.ttfbMs.min).toBe(0.4);
    // The histograms hold the answered requests only, from their intended starts.
    expect(histograms).toHaveLength(1);
    expect(histograms[0]).toMatchObject({ pointIndex: 0, op: "GET", service: null });
    expect(figures(histograms[0]?.latency)).toEqual({ count: 3, min: 1, max: 3 });
    expect(figures(histograms[0]?.ttfb)).toEqual({ count: 3, min: 0.4, max: 2.5 });
  });

  it("orders points and phases, and adds open-loop figures except for cleanup", () => {
    const meta = metaWith({
      openLoop: { rateHz: 100 },
      clients: [1, 2],
      samples: 10,
    });
    const { summary, histograms } = summarize(meta, [
      { pointIndex: 1, records: [attempt({ op: "DELETE" })] },
      { pointIndex: 1, records: [attempt({ op: "PUT", startUs: 5000, endUs: 6000 })] },
    ]);
    expect(summary.loop).toBe("open");
    expect(summary.points.map((point) => point.params.clients)).toEqual([1, 2]);
    expect(summary.points[0]?.phases).toEqual([]);
    const [put, cleanup] = summary.points[1]?.phases ?? [];
    expect(put).toMatchObject({ op: "PUT", missedStarts: 1 });
    expect(put?.serviceMs?.max).toBe(1);
    expect(put?.latencyMs.max).toBe(6);
    expect(put?.hedge).toBeUndefined();
    expect(cleanup?.op).toBe("DELETE");
    expect(cleanup?.serviceMs).toBeUndefined();
    // Service time (from the actual send) beside latency (from the schedule), open loop only.
    expect(histograms.map((phase) => `${phase.pointIndex} ${phase.op}`)).toEqual([
      "1 PUT",
      "1 DELETE",
    ]);
    expect(figures(histograms[0]?.latency)).toEqual({ count: 1, min: 6, max: 6 });
    expect(figures(histograms[0]?.service)).toEqual({ count: 1, min: 1, max: 1 });
    expect(histograms[1]?.service).toBeNull();
  });

  it("names a point the spec does not have", () => {
    expect(() => summarize(metaWith({}), [{ pointIndex: 5, records: [attempt({})] }])).toThrow(
      "run r: records name point 5, but its spec has 1 points",
    );
  });
});
