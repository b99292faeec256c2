import type { PhaseSummary } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { UTF8_BOM } from "./csv.ts";
import { SUMMARY_CSV_COLUMNS, summaryCsv } from "./summary-csv.ts";
import { syntheticRun } from "./test-support/synthetic-run.ts";

/**
 * A strict RFC 4180 reader, written here so the test does not trust the writer's own helpers:
 * fields separated by commas, records by CRLF, quoted fields may hold commas, CR, LF and doubled
 * quotes; anything else (a bare quote inside an unquoted field, text after a closing quote) throws.
 */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let index = 0;
  const atRecordEnd = () => text.startsWith("\r\n", index);
  while (index < text.length) {
    let field = "";
    if (text[index] === '"') {
      index += 1;
      for (;;) {
        if (index >= text.length) throw new Error("unterminated quoted field");
        const character = text[index] as string;
        if (character === '"') {
          if (text[index + 1] === '"') {
            field += '"';
            index += 2;
            continue;
          }
          index += 1;
          break;
        }
        field += character;
        index += 1;
      }
      if (index < text.length && text[index] !== "," && !atRecordEnd()) {
        throw new Error(`text after a closing quote at ${index}`);
      }
    } else {
      while (index < text.length && text[index] !== "," && !atRecordEnd()) {
        const character = text[index] as string;
        if (character === '"' || character === "\r" || character === "\n") {
          throw new Error(`unquoted ${JSON.stringify(character)} at ${index}`);
        }
        field += character;
        index += 1;
      }
    }
    record.push(field);
    if (text[index] === ",") {
      index += 1;
      if (index === text.length) record.push("");
    } else if (atRecordEnd()) {
      index += 2;
      records.push(record);
      record = [];
    }
  }
  if (record.length > 0) records.push(record);
  return records;
}

describe("the test's RFC 4180 reader", () => {
  it.each([
    ["a,b\r\n", [["a", "b"]]],
    ['"a,b","say ""hi"""\r\n', [["a,b", 'say "hi"']]],
    [
      '"two\r\nlines",x\r\ny,\r\n',
      [
        ["two\r\nlines", "x"],
        ["y", ""],
      ],
    ],
  ])("reads %j", (text, expected) => {
    expect(parseCsv(text)).toEqual(expected);
  });

  it.each(['a"b\r\n', '"a"b\r\n', '"open\r\n', "a\nb\r\n"])("rejects %j", (text) => {
    expect(() => parseCsv(text)).toThrow();
  });
});

describe("summaryCsv with a hostile server and run name", () => {
  it("keeps formula-looking text as text and negative numbers as numbers", () => {
    const run = syntheticRun({ name: "=cmd|' /C calc'!A0", spec: { samples: [100] } });
    const [phase] = run.summary.points[0]?.phases ?? [];
    if (!phase) throw new Error("the synthetic run has no phase");
    phase.errorsByCode = { '=HYPERLINK("http://evil.example","open")': 3 };
    phase.latencyMs!.min = -0.5;
    const [header, firstRow] = parseCsv(summaryCsv([run.summary]));
    const column = (name: string) => firstRow?.[header?.indexOf(name) ?? -1];
    expect(column("Run Name")).toBe("'=cmd|' /C calc'!A0");
    expect(column("Errors by Code")).toBe(`'=HYPERLINK("http://evil.example","open")=3`);
    expect(column("Min (ms)")).toBe("-0.5");
  });
});

describe("summaryCsv", () => {
  const tricky = 'Lab 3, "hedged"\r\n第二行 <script>';
  const sweep = syntheticRun({
    name: tricky,
    mode: "hedged",
    spec: { clients: [1, 4], objectSize: ["4KiB", "64KiB"], samples: [300] },
  });
  const single = syntheticRun({ spec: { samples: [500] } });
  single.summary.runId = "normal-run";
  const csv = summaryCsv([sweep.summary, single.summary], {
    runNames: { "normal-run": "baseline" },
  });
  const [header, ...rows] = parseCsv(csv);
  const column = (row: readonly string[], name: string) =>
    row[SUMMARY_CSV_COLUMNS.indexOf(name)] as string;

  it("writes s3bench's columns with units, p99.9 and p99.99 added", () => {
    expect(header).toEqual(SUMMARY_CSV_COLUMNS);
    for (const name of [
      "Total Transferred (MB)",
      "Total Throughput (MB/s)",
      "Total Duration (s)",
      "Number of Errors",
      "Max (ms)",
      "99.99th %ile (ms)",
      "99.9th %ile (ms)",
      "99th %ile (ms)",
      "90th %ile (ms)",
      "75th %ile (ms)",
      "50th %ile (ms)",
      "25th %ile (ms)",
      "Min (ms)",
      "Run ID",
      "Clients",
      "Samples",
      "Object Size (bytes)",
      "Operation",
      "Mode",
      "Loop",
      "Hedge Extra (%)",
      "Hedge Wasted (bytes)",
    ]) {
      expect(header).toContain(name);
    }
  });

  it("writes one row per run × point × phase, every row as wide as the header", () => {
    expect(rows).toHaveLength(4 * 2 + 1 * 2);
    for (const row of rows) expect(row).toHaveLength(SUMMARY_CSV_COLUMNS.length);
    expect(rows.map((row) => column(row, "Point") + column(row, "Operation"))).toEqual([
      "1PUT",
      "1GET",
      "2PUT",
      "2GET",
      "3PUT",
      "3GET",
      "4PUT",
      "4GET",
      "1PUT",
      "1GET",
    ]);
  });

  it("round-trips names with commas, quotes, CRLF and non-ASCII text", () => {
    expect(column(rows[0]!, "Run Name")).toBe(tricky);
    expect(column(rows[9]!, "Run Name")).toBe("baseline");
  });

  it.each([
    [0, "Clients", "1"],
    [2, "Object Size (bytes)", "65536"],
    [6, "Clients", "4"],
    [0, "Mode", "hedged"],
    [8, "Mode", "normal"],
    [0, "Loop", "closed"],
    [1, "Errors by Code", "SlowDown=2"],
    [8, "Hedge Extra (%)", ""],
    // No reconnect in the phase: an empty cell rather than a 0.
    [0, "Reconnects After Cancel", ""],
  ])("row %d %s is %j", (row, name, expected) => {
    expect(column(rows[row]!, name)).toBe(expected);
  });

  it("writes the requests a stop cut off in flight, empty where it cut off none", () => {
    const stopped = syntheticRun({});
    stopped.summary.points[0]!.phases[0]!.cutOff = 57;
    const [, put, get] = parseCsv(summaryCsv([stopped.summary]));
    expect(column(put!, "Cut Off by Stop")).toBe("57");
    expect(column(get!, "Cut Off by Stop")).toBe("");
  });

  it("writes connects and uploads apart, empty in a run recorded before they were", () => {
    const run = syntheticRun({});
    const [put, get] = run.summary.points[0]!.phases as [PhaseSummary, PhaseSummary];
    expect(put.uploadMs?.p99).toBeGreaterThan(0);
    expect(put.tail?.p99.uploadMs).toBeGreaterThan(0);
    // A phase recorded before connects and uploads were has neither.
    const older: PhaseSummary = { ...get };
    delete older.connectMs;
    delete older.uploadMs;
    run.summary.points[0]!.phases[1] = older;
    const [, putRow, olderRow] = parseCsv(summaryCsv([run.summary]));
    expect(Number(column(putRow!, "Upload 99th %ile (ms)"))).toBe(put.uploadMs?.p99);
    expect(Number(column(putRow!, "Connect 99th %ile (ms)"))).toBe(put.connectMs?.p99);
    expect(Number(column(putRow!, "Slowest 1% Upload (ms)"))).toBe(put.tail?.p99.uploadMs);
    expect(column(olderRow!, "Upload 99th %ile (ms)")).toBe("");
    expect(column(olderRow!, "Connect 50th %ile (ms)")).toBe("");
  });

  it("writes the summary's figures: latencies in ms, durations in s, MB as MiB", () => {
    const phase = sweep.summary.points[1]!.phases[0]!;
    const row = rows[2]!;
    expect(Number(column(row, "99th %ile (ms)"))).toBe(phase.latencyMs?.p99);
    expect(Number(column(row, "99.99th %ile (ms)"))).toBe(phase.latencyMs?.p9999);
    expect(Number(column(row, "Max (ms)"))).toBe(phase.latencyMs?.max);
    expect(Number(column(row, "Total Duration (s)"))).toBeCloseTo(phase.durationMs / 1000, 6);
    expect(Number(column(row, "Total Transferred (MB)"))).toBeCloseTo((300 * 65536) / 1048576, 6);
    expect(Number(column(row, "Hedge Extra (%)"))).toBe(phase.hedge!.extraPct);
    expect(Number(column(row, "Hedge Wasted (bytes)"))).toBe(phase.hedge!.wastedBytes);
    expect(Number(column(row, "Hedge Not Sent"))).toBe(phase.hedge!.notSent);
  });

  it("writes where the slowest 1 % and 0.1 % spent their time, as the run detail shows it", () => {
    const phase = sweep.summary.points[1]!.phases[0]!;
    const row = rows[2]!;
    expect(phase.tail).not.toBeNull();
    for (const [share, part] of [
      ["1%", phase.tail!.p99],
      ["0.1%", phase.tail!.p999],
    ] as const) {
      expect({
        requests: Number(column(row, `Slowest ${share} Requests`)),
        fromMs: Number(column(row, `Slowest ${share} From (ms)`)),
        meanMs: Number(column(row, `Slowest ${share} Mean (ms)`)),
        clientQueueMs: Number(column(row, `Slowest ${share} Client Queue (ms)`)),
        connectMs: Number(column(row, `Slowest ${share} Connect (ms)`)),
        hedgeWaitMs: Number(column(row, `Slowest ${share} Backup Wait (ms)`)),
        uploadMs: Number(column(row, `Slowest ${share} Upload (ms)`)),
        serverMs: Number(column(row, `Slowest ${share} Server (ms)`)),
        transferMs: Number(column(row, `Slowest ${share} Transfer (ms)`)),
      }).toEqual(part);
    }
  });

  it("takes the client's own stall out of the slowest requests' server time", () => {
    const run = syntheticRun({ spec: { samples: [500] } });
    const phase = run.summary.points[0]!.phases[0]!;
    const tail = phase.tail!;
    phase.client = {
      version: 1,
      verdict: { keptUp: false, reasons: ["event-loop-delay"] },
      figures: {
        cpuCores: 1,
        availableCores: 2,
        busiestWorkerCpu: 1,
        eventLoopDelayP99Ms: 50,
        stallShare: 0.3,
        starts: 500,
        missedStarts: 0,
        behindMs: 0,
        shed: 0,
      },
      workers: 1,
      clientsPerWorker: 8,
      tailStallMs: { p99: tail.p99.serverMs / 4, p999: tail.p999.serverMs * 2 },
      arrivals: null,
      seconds: [],
    };
    const [, withStall] = parseCsv(summaryCsv([run.summary]));
    const figure = (share: string, part: string) =>
      Number(column(withStall!, `Slowest ${share} ${part} (ms)`));
    expect(figure("1%", "Client Stall")).toBe(tail.p99.serverMs / 4);
    expect(figure("1%", "Server") + figure("1%", "Client Stall")).toBeCloseTo(tail.p99.serverMs, 2);
    // A stall is never more than the server time it is taken out of.
    expect(figure("0.1%", "Client Stall")).toBe(tail.p999.serverMs);
    expect(figure("0.1%", "Server")).toBe(0);
    // A run recorded before the client's stall was measured leaves the column empty.
    expect(column(rows[0]!, "Slowest 1% Client Stall (ms)")).toBe("");
  });

  it("starts with a UTF-8 byte-order mark only when asked", () => {
    expect(csv.startsWith("Run ID,")).toBe(true);
    const withBom = summaryCsv([single.summary], { withBom: true });
    expect(withBom.startsWith(`${UTF8_BOM}Run ID,`)).toBe(true);
    expect(parseCsv(withBom.slice(1))).toHaveLength(3);
  });

  it("writes only the header for no runs", () => {
    expect(parseCsv(summaryCsv([]))).toEqual([SUMMARY_CSV_COLUMNS]);
  });
});
