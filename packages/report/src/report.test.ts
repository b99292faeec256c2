import type { PhaseSummary, PointSummary, RequestMode, RequestRecord } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { csvField, csvRow } from "./csv.ts";
import { REQUESTS_CSV_HEADER, requestsCsvRows } from "./requests-csv.ts";
import {
  formatModeComparison,
  formatPhaseTailLabFigures,
  formatPointS3bench,
  formatTable,
} from "./s3bench-text.ts";
import { syntheticRun } from "./test-support/synthetic-run.ts";

describe("csv", () => {
  it.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    [null, ""],
    [42, "42"],
    [-1.5, "-1.5"],
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ["+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["\r=1", `"'\r=1"`],
    ["a=1", "a=1"],
  ])("field %j → %j", (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it("ends rows with CRLF", () => {
    expect(csvRow(["a", 1, null])).toBe("a,1,\r\n");
  });

  it("writes one row per request with its point", () => {
    const record: RequestRecord = {
      op: "GET",
      key: "taillab/run/7",
      bytes: 4096,
      intendedStartUs: 10,
      readyUs: 12,
      sentUs: 40,
      headersUs: 190,
      firstByteUs: 200,
      endUs: 250,
      connectUs: 0,
      bodySentUs: 40,
      status: 200,
      error: null,
      attempt: 1,
      replica: 0,
      winner: true,
      phaseIndex: 1,
      client: 3,
      measured: true,
    };
    expect(REQUESTS_CSV_HEADER).toBe(
      "point,op,key,bytes,intendedStartUs,readyUs,sentUs,headersUs,firstByteUs,endUs,connectUs,bodySentUs,status,error,attempt,replica,winner,phaseIndex,client,measured\r\n",
    );
    expect(requestsCsvRows(2, [record])).toBe(
      "2,GET,taillab/run/7,4096,10,12,40,190,200,250,0,40,200,,1,0,true,1,3,true\r\n",
    );
    // A record of a run from before connects and uploads were recorded: empty, not 0.
    expect(requestsCsvRows(2, [{ ...record, connectUs: null, bodySentUs: null }])).toBe(
      "2,GET,taillab/run/7,4096,10,12,40,190,200,250,,,200,,1,0,true,1,3,true\r\n",
    );
  });
});

describe("s3bench text", () => {
  const stats = {
    min: 1.5,
    p25: 2,
    p50: 3,
    p75: 4,
    p90: 5,
    p99: 9.25,
    p999: 12.5,
    p9999: 13,
    max: 14,
    mean: 3.5,
    stdev: 1,
  };
  const phase: PhaseSummary = {
    op: "PUT",
    loop: "closed",
    requests: 256,
    errors: 2,
    errorsByCode: { SlowDown: 2 },
    bytes: 8 * 1024 * 1024,
    durationMs: 262,
    throughputMBps: 30.534,
    opsPerSec: 977,
    steady: null,
    latencyMs: stats,
    clientQueueMs: null,
    serviceMs: stats,
    ttfbMs: stats,
    transferMs: null,
    missedStarts: 0,
    tail: null,
  };

  it("prints s3bench's blocks exactly, then TailLab's figures apart under their own heading", () => {
    const read: PhaseSummary = { ...phase, op: "GET", errors: 0, errorsByCode: {} };
    const point = { params: { clients: 8, samples: 256, objectSizeBytes: 32768 } };
    expect(formatPointS3bench({ ...point, phases: [phase, read] } as PointSummary)).toBe(
      [
        "Results Summary for Write Operation(s)",
        "Total Transferred: 8.000 MB",
        "Total Throughput:  30.53 MB/s",
        "Total Duration:    0.262 s",
        "Number of Errors:  2",
        "------------------------------------",
        "Write times Max:       0.014 s",
        "Write times 99th %ile: 0.009 s",
        "Write times 90th %ile: 0.005 s",
        "Write times 75th %ile: 0.004 s",
        "Write times 50th %ile: 0.003 s",
        "Write times 25th %ile: 0.002 s",
        "Write times Min:       0.002 s",
        "",
        "Results Summary for Read Operation(s)",
        "Total Transferred: 8.000 MB",
        "Total Throughput:  30.53 MB/s",
        "Total Duration:    0.262 s",
        "Number of Errors:  0",
        "------------------------------------",
        "Read times Max:       0.014 s",
        "Read times 99th %ile: 0.009 s",
        "Read times 90th %ile: 0.005 s",
        "Read times 75th %ile: 0.004 s",
        "Read times 50th %ile: 0.003 s",
        "Read times 25th %ile: 0.002 s",
        "Read times Min:       0.002 s",
        "",
        "TailLab's figures for Write (not in s3bench's output):",
        "Errors by code:    SlowDown 2",
        "Write times, ms:  min 1.500  p25 2.000  p50 3.000  p75 4.000  p90 5.000  p99 9.250  p99.9 12.500  p99.99 13.000  max 14.000",
        // A phase recorded before connects and uploads were says so, rather than 0.
        "Client queue p50 / p99: n/a   connect: not recorded",
        "Upload p50 / p99:       not recorded   service: 3.000 ms / 9.250 ms",
        "TTFB p50 / p99:         3.000 ms / 9.250 ms   transfer: n/a",
        // Every closed-loop phase says what it leaves out, and how to measure it instead.
        "Closed loop:       each client waits for its answer, so slow moments send fewer requests and weigh less (coordinated omission).",
        "                   For what a request arriving at any moment sees, run the open loop just under this throughput: --rate 870/s",
        "",
        "TailLab's figures for Read (not in s3bench's output):",
        "Read times, ms:  min 1.500  p25 2.000  p50 3.000  p75 4.000  p90 5.000  p99 9.250  p99.9 12.500  p99.99 13.000  max 14.000",
        "Client queue p50 / p99: n/a   connect: not recorded",
        "Upload p50 / p99:       not recorded   service: 3.000 ms / 9.250 ms",
        "TTFB p50 / p99:         3.000 ms / 9.250 ms   transfer: n/a",
        "Closed loop:       each client waits for its answer, so slow moments send fewer requests and weigh less (coordinated omission).",
        "                   For what a request arriving at any moment sees, run the open loop just under this throughput: --rate 870/s",
        "",
      ].join("\n"),
    );
  });

  it("says where no request succeeded, and where the slowest requests spent their time", () => {
    const share = {
      fromMs: 9,
      requests: 3,
      meanMs: 10,
      clientQueueMs: 1,
      connectMs: 0.5,
      hedgeWaitMs: 0,
      uploadMs: 2,
      serverMs: 6,
      transferMs: 0.5,
    };
    const text = formatPhaseTailLabFigures({
      ...phase,
      connectMs: stats,
      uploadMs: stats,
      loop: "open",
      missedStarts: 4,
      tail: { p99: share, p999: { ...share, fromMs: 11, requests: 1, meanMs: 11, serverMs: 7 } },
      steady: {
        fromMs: 10,
        toMs: 250,
        durationMs: 240,
        requests: 240,
        bytes: 240 * 32768,
        throughputMBps: 31.25,
        opsPerSec: 1000,
      },
    });
    expect(text).toContain("Client queue p50 / p99: n/a   connect: 3.000 ms / 9.250 ms");
    expect(text).toContain("Upload p50 / p99:       3.000 ms / 9.250 ms   service:");
    expect(text).toContain("Missed starts:     4 (picked up over 2 ms after their scheduled time)");
    expect(text).toContain(
      "Steady throughput: 31.25 MB/s, 1000.0 ops/s (0.240 s with every client busy)",
    );
    expect(text).toContain(
      "Slowest 1 % (>= 9.000 ms, 3 requests, mean 10.000 ms): client queue 1.000 ms, connect 0.500 ms, backup wait 0.000 ms, upload 2.000 ms, server 6.000 ms, transfer 0.500 ms",
    );
    expect(text).toContain(
      "Slowest 0.1 % (>= 11.000 ms, 1 requests, mean 11.000 ms): client queue 1.000 ms, connect 0.500 ms, backup wait 0.000 ms, upload 2.000 ms, server 7.000 ms, transfer 0.500 ms",
    );
    expect(formatPhaseTailLabFigures({ ...phase, latencyMs: null })).toContain(
      "Write times: none (no request succeeded)",
    );
  });

  it("prints an imported run's figures in TailLab's order, named as TailLab names percentiles", () => {
    const toolLatencyMs = { min: 1, p50: 3, p999: 12.5, p9999: 13, max: 14, mean: 4, stdev: 2 };
    expect(formatPhaseTailLabFigures({ ...phase, latencyMs: null, toolLatencyMs })).toContain(
      "Write times, ms:  min 1.000  p50 3.000  p99.9 12.500  p99.99 13.000  max 14.000  mean 4.000  stdev 2.000\n" +
        "(times as the imported tool printed them: its file keeps no per-request data)",
    );
  });

  it("aligns table columns", () => {
    expect(
      formatTable([
        ["a", "bb"],
        ["ccc", "d"],
      ]),
    ).toBe("  a  bb\nccc   d\n");
  });
});

describe("mode comparison text", () => {
  it("adds what the testbed's replicas served per mode, and the tied twins they dropped", () => {
    const run = (mode: RequestMode, served: number, tiesDropped: number) => {
      const { summary } = syntheticRun({ mode, requestsPerPhase: 100, ops: ["GET"] });
      return {
        ...summary,
        testbed: [
          {
            url: "http://127.0.0.1:1",
            received: served,
            completed: served,
            aborted: 0,
            served,
            tiesDropped,
          },
        ],
      };
    };
    const text = formatModeComparison([
      run("normal", 1000, 0),
      run("tied", 1800, 0),
      run("tied-server", 1010, 950),
    ]);
    expect(text).toContain("  normal: 1000 requests served\n");
    expect(text).toContain("  tied: 1800 requests served (+80.0 %)\n");
    expect(text).toContain(
      "  tied-server: 1010 requests served (+1.0 %), 950 tied twins dropped before service\n",
    );
  });

  it("says how each mode's tail changed against the first, within the intervals, and at what cost", () => {
    const spec = { clients: [1], samples: [4000] };
    // 1 % of requests stall 1 s without backups; hedged, none does.
    const normal = syntheticRun({ ops: ["GET"], spec, stallsPerPhase: 40, seed: 3 }).summary;
    const hedged = syntheticRun({ ops: ["GET"], spec, stallsPerPhase: 0, seed: 4, mode: "hedged" });
    const text = formatModeComparison([normal, hedged.summary]);
    expect(text).toContain(
      "Against normal (significant: the two figures' 95 % order-statistic intervals do not overlap):",
    );
    const extra = hedged.summary.points[0]!.phases[0]!.hedge!.extraPct.toFixed(2);
    expect(text).toMatch(
      new RegExp(
        `\\n  hedged GET: p99\\.9 −\\d+\\.\\d % \\[[−+]\\d+\\.\\d, [−+]\\d+\\.\\d\\] significant, p99 [−+]\\d+\\.\\d % \\[[^\\]]+\\] (significant|n\\.s\\.); for \\+${extra.replace(".", "\\.")} % requests\\n`,
      ),
    );
  });

  it("says nothing of the work of runs recorded before the testbed counted it", () => {
    const { summary } = syntheticRun({ ops: ["GET"], requestsPerPhase: 100 });
    const old = { ...summary, testbed: [{ url: "u", received: 1, completed: 1, aborted: 0 }] };
    expect(formatModeComparison([old, old])).not.toContain("Testbed work");
  });
});
