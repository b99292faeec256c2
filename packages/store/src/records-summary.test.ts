import type { RequestRecord, RunMeta } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { decodeRecordLog } from "./record-log-reader.ts";
import { RecordFrameEncoder } from "./record-frame-encoder.ts";
import { encodeLogHeader } from "./record-log-format.ts";
import { RecordsSummarizer } from "./records-summary.ts";
import { SAMPLE_ENVIRONMENT, sampleSpec } from "./test-support/sample-run.ts";

const PREFIX = "taillab/r/";

function metaWith(specInput: Record<string, unknown>): RunMeta {
  return {
    schemaVersion: 3,
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
    cleanup: null,
    recordsWritten: null,
  };
}

function attempt(overrides: Partial<RequestRecord>): RequestRecord {
  return {
    op: "GET",
    key: `${PREFIX}1`,
    bytes: 100,
    intendedStartUs: 0,
    readyUs: 0,
    sentUs: 0,
    headersUs: 400,
    firstByteUs: 500,
    endUs: 1000,
    connectUs: 0,
    bodySentUs: 0,
    status: 200,
    error: null,
    attempt: 1,
    replica: 0,
    winner: true,
    phaseIndex: 0,
    client: 0,
    measured: true,
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

describe("summary rebuilt from records", () => {
  it("groups attempts into logical requests: winners, backups, failures", () => {
    const meta = metaWith({ mode: "hedged", endpoints: [{ url: "http://a:1" }] });
    const { summary, histograms, intervalLines } = summarize(meta, [
      {
        pointIndex: 0,
        records: [
          // A single attempt: 1 ms.
          attempt({ key: `${PREFIX}1` }),
          // Hedged: the first attempt was cancelled, the backup sent at 2 ms won at 3 ms.
          attempt({ key: `${PREFIX}2`, endUs: 4000, error: "Cancelled", winner: false, bytes: 7 }),
          attempt({
            key: `${PREFIX}2`,
            attempt: 2,
            replica: 1,
            readyUs: 2000,
            sentUs: 2000,
            headersUs: 2400,
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
          attempt({
            key: `${PREFIX}3`,
            intendedStartUs: 100,
            readyUs: 100,
            sentUs: 100,
            endUs: 2100,
          }),
        ],
      },
    ]);
    expect(summary).toMatchObject({
      status: "stopped",
      runId: "r",
      endpointUrls: ["http://a:1"],
      finishedAt: "2026-01-01T00:00:00.009Z",
    });
    expect(summary.points[0]?.finished).toBe(false);
    const [phase] = summary.points[0]?.phases ?? [];
    expect(phase).toMatchObject({
      op: "GET",
      loop: "closed",
      requests: 4,
      errors: 1,
      errorsByCode: { SlowDown: 1 },
      bytes: 300,
      durationMs: 9,
      hedge: {
        delayMs: 2,
        attempts: 5,
        extraPct: 25,
        cancelled: 1,
        wastedBytes: 7,
        wonByBackup: 1,
        sameReplica: 0,
        budgetPct: 10,
      },
    });
    expect(phase?.latencyMs).toMatchObject({ min: 1, max: 3 });
    // TTFB runs from the send of the answering attempt to its first body byte.
    expect(phase?.ttfbMs).toMatchObject({ min: 0.4, max: 0.5 });
    expect(histograms.map(({ pointIndex, op }) => `${pointIndex} ${op}`)).toEqual(["0 GET"]);
    expect(intervalLines.map((line) => `${line.op} ${line.startS} ${line.kind}`)).toEqual([
      "GET 0 latency",
      "GET 0 failed",
      "GET 0 backups",
      "GET 0 counts",
    ]);
  });

  it("leaves out requests that were not measured: a workload's prepared objects", () => {
    const meta = metaWith({ workload: { ops: "put:50,get:50", prepareObjects: 50 }, samples: 100 });
    const prepared = Array.from({ length: 50 }, (_, index) =>
      attempt({ op: "PUT", key: `${PREFIX}${index}`, measured: false }),
    );
    const mixed = Array.from({ length: 100 }, (_, index) =>
      attempt({ op: index % 2 ? "PUT" : "GET", key: `${PREFIX}${index}`, phaseIndex: 1 }),
    );
    const { summary } = summarize(meta, [{ pointIndex: 0, records: [...prepared, ...mixed] }]);
    expect(summary.points[0]?.phases.map(({ op, requests }) => `${op} ${requests}`)).toEqual([
      "PUT 50",
      "GET 50",
    ]);
  });

  it("lists phases in the run's order; cleanup is a closed loop, the others open", () => {
    const meta = metaWith({ openLoop: { rateHz: 100 }, clients: [1, 2], samples: 10 });
    const { summary } = summarize(meta, [
      { pointIndex: 1, records: [attempt({ op: "DELETE", phaseIndex: 5 })] },
      { pointIndex: 1, records: [attempt({ op: "PUT", phaseIndex: 3, readyUs: 5000 })] },
    ]);
    expect(summary.points.map((point) => point.params.clients)).toEqual([1, 2]);
    expect(summary.points[0]?.phases).toEqual([]);
    const [put, cleanup] = summary.points[1]?.phases ?? [];
    expect(put).toMatchObject({ op: "PUT", loop: "open", missedStarts: 1 });
    expect(cleanup).toMatchObject({ op: "DELETE", loop: "closed", missedStarts: 0 });
  });

  it("names a point the spec does not have", () => {
    expect(() => summarize(metaWith({}), [{ pointIndex: 5, records: [attempt({})] }])).toThrow(
      "run r: records name point 5, but its spec has 1 points",
    );
  });
});
