import { describe, expect, it } from "vitest";
import { readToolFile } from "./tool-file-import.ts";
import { ImportFileError } from "./tool-import.ts";

/** Lines as warp's Operation.WriteCSV writes them (pkg/bench/ops.go). */
const WARP_HEADER =
  "idx\tthread\top\tclient_id\tn_objects\tbytes\tendpoint\tfile\terror\tstart\tfirst_byte\tlast_byte\tend\tduration_ns\tcat";

function warpLine(fields: Partial<Record<string, string>> = {}): string {
  const line = {
    idx: "0",
    thread: "0",
    op: "GET",
    client_id: "",
    n_objects: "1",
    bytes: "1024",
    endpoint: "http://127.0.0.1:9000",
    file: "obj.rnd",
    error: "",
    start: "2025-03-14T09:26:53.5Z",
    first_byte: "2025-03-14T09:26:53.5005Z",
    last_byte: "",
    end: "2025-03-14T09:26:53.501Z",
    duration_ns: "1000000",
    cat: "0",
    ...fields,
  };
  return Object.values(line).join("\t");
}

const warp = (...lines: string[]) => [WARP_HEADER, ...lines, ""].join("\n");

/** s3bench's blocks as Params.String and Result.String print them (s3bench.go). */
const S3BENCH_PARAMETERS = [
  "Test parameters",
  "endpoint(s):      [http://127.0.0.1:9000]",
  "bucket:           loadgen",
  "objectNamePrefix: loadgen_test_",
  "objectSize:       0.0625 MB",
  "numClients:       4",
  "numSamples:       40",
  "verbose:       %!d(bool=false)",
  "",
];

function s3benchSummary(overrides: Record<number, string> = {}): string[] {
  const lines = [
    "Results Summary for Write Operation(s)",
    "Total Transferred: 2.500 MB",
    "Total Throughput:  30.39 MB/s",
    "Total Duration:    0.082 s",
    "Number of Errors:  0",
    "------------------------------------",
    "Write times Max:       0.021 s",
    "Write times 99th %ile: 0.021 s",
    "Write times 90th %ile: 0.015 s",
    "Write times 75th %ile: 0.011 s",
    "Write times 50th %ile: 0.007 s",
    "Write times 25th %ile: 0.005 s",
    "Write times Min:       0.002 s",
  ];
  for (const [index, line] of Object.entries(overrides)) lines[Number(index)] = line;
  return lines;
}

const s3bench = (...blocks: string[][]) => [...S3BENCH_PARAMETERS, ...blocks.flat()].join("\n");

function fio(job: Record<string, unknown>): string {
  const direction = (ios: number) => ({
    io_bytes: ios * 65536,
    runtime: 2,
    total_ios: ios,
    clat_ns: ios > 0 ? { bins: { "8896": ios } } : {},
  });
  return JSON.stringify({
    "fio version": "fio-3.33",
    timestamp_ms: 1764297487000,
    jobs: [
      {
        jobname: "writer",
        error: 0,
        read: direction(0),
        write: direction(4),
        trim: direction(0),
        ...job,
      },
    ],
  });
}

describe("readToolFile", () => {
  it("reads warp's lines: one phase per operation, latency from start to end", () => {
    const read = readToolFile(
      warp(
        warpLine(),
        warpLine({ idx: "1", thread: "1", error: "The specified key does not exist." }),
      ),
    );
    expect(read.tool).toBe("warp");
    const [get] = read.points[0]?.phases ?? [];
    expect(get?.summary).toMatchObject({
      op: "GET",
      requests: 2,
      errors: 1,
      errorsByCode: { "The specified key does not exist.": 1 },
      bytes: 1024,
      clientQueueMs: null,
      tail: null,
    });
    expect(get?.summary.latencyMs?.p50).toBe(1);
    expect(get?.summary.ttfbMs?.p50).toBe(0.5);
    expect(read.points[0]?.clients).toBe(2);
  });

  it("reads a quoted error that runs over two lines, as Go's csv reader does", () => {
    const read = readToolFile(warp(warpLine({ error: '"reset\n""retry"""' })));
    expect(read.points[0]?.phases[0]?.summary.errorsByCode).toEqual({ 'reset "retry"': 1 });
  });

  it.each([
    ["", /empty|not a result file/],
    [warp(), /line 2: no requests/],
    [warp(warpLine({ op: "RETENTION" })), /line 2, field "op": "RETENTION" is not an operation/],
    [warp(warpLine({ start: "yesterday" })), /line 2, field "start": "yesterday" is not a time/],
    [warp(warpLine({ bytes: "-5" })), /line 2, field "bytes": "-5" is not a whole number/],
    [
      warp(warpLine({ duration_ns: "7" })),
      /line 2, field "duration_ns": 7 ns is not the request's end − start/,
    ],
    [
      warp(warpLine({ end: "2025-03-14T09:26:53.4Z" })),
      /line 2, field "end": before the request's start/,
    ],
    [
      warp(warpLine({ first_byte: "2025-03-14T09:27:00Z" })),
      /line 2, field "first_byte": not between/,
    ],
    [warp(warpLine(), `${warpLine()}\textra`), /line 3: 16 fields; expected 15/],
    [warp(warpLine({ error: '"never closed' })), /line 2: a quoted field is never closed/],
    [warp(`${"x".repeat(70_000)}`), /line 2: longer than/],
    [WARP_HEADER.replace("\tstart", "\tbegin"), /line 1: no "start" column/],
  ])("refuses a damaged warp file, naming the line and field: %#", (text, message) => {
    expect(() => readToolFile(text)).toThrow(ImportFileError);
    expect(() => readToolFile(text)).toThrow(message);
  });

  it("reads s3bench's blocks: its totals, and only the latency figures it printed", () => {
    const read = readToolFile(
      s3bench(s3benchSummary(), [
        "",
        "Results Summary for Read Operation(s)",
        "Total Transferred: 0.000 MB",
        "Total Throughput:  0.00 MB/s",
        "Total Duration:    0.010 s",
        "Number of Errors:  40",
      ]),
    );
    const [write, readPhase] = read.points[0]?.phases ?? [];
    expect(read.points[0]).toMatchObject({ clients: 4, objectSizeBytes: 65536 });
    expect(write?.summary).toMatchObject({
      op: "PUT",
      requests: 40,
      bytes: 2.5 * 1024 * 1024,
      throughputMBps: 30.39,
      durationMs: 82,
      latencyMs: null,
      toolLatencyMs: { max: 21, p99: 21, p90: 15, p75: 11, p50: 7, p25: 5, min: 2 },
    });
    expect(write?.summary.toolLatencyMs?.p999).toBeUndefined();
    expect(readPhase?.summary).toMatchObject({
      op: "GET",
      errors: 40,
      errorsByCode: { Unknown: 40 },
    });
    expect(readPhase?.summary.toolLatencyMs).toBeUndefined();
  });

  it.each([
    [s3bench(s3benchSummary({ 3: "Total Duration:    soon" })), /line 13, field "Total Duration"/],
    [
      s3bench(s3benchSummary({ 4: "Number of Errors:  99" })),
      /field "Number of Errors": 99 is more than numSamples \(40\)/,
    ],
    [
      s3bench(s3benchSummary({ 0: "Results Summary for Dance Operation(s)" })),
      /line 10: .* names no operation/,
    ],
    [s3bench(s3benchSummary({ 9: "Write times 75th %ile: fast" })), /line 19, field "75th %ile"/],
    [s3benchSummary().join("\n"), /no "Test parameters" block/],
    [
      s3bench(s3benchSummary()).replace("numClients:       4", "numClients:       many"),
      /line 6, field "numClients": "many" is not a count/,
    ],
  ])("refuses a damaged s3bench output, naming the line and field: %#", (text, message) => {
    expect(() => readToolFile(text)).toThrow(message);
  });

  it("reads fio's json+ bins into a latency histogram", () => {
    const read = readToolFile(fio({}));
    expect(read.points[0]?.phases[0]?.summary).toMatchObject({
      op: "PUT",
      requests: 4,
      bytes: 4 * 65536,
      durationMs: 2,
    });
    expect(read.points[0]?.phases[0]?.summary.latencyMs?.p50).toBe(0.009);
  });

  it.each([
    [fio({}).slice(0, 60), /it is not valid JSON/],
    [
      '{"kind":"other"}',
      /neither a TailLab export, warp's aggregate, fio's json\+ report nor elbencho/,
    ],
    [fio({ jobname: 7 }), /field "jobs\[0\].jobname": expected a string/],
    [
      fio({ write: { io_bytes: 1, runtime: 1, total_ios: 1, clat_ns: {} } }),
      /field "jobs\[0\].write.clat_ns.bins": missing; expected fio's --output-format=json\+/,
    ],
    [
      fio({ write: { io_bytes: 1, runtime: 1, total_ios: 1, clat_ns: { bins: { "9": 5 } } } }),
      /5 I\/Os in the bins, more than total_ios \(1\)/,
    ],
    [
      fio({ write: { io_bytes: 1, runtime: 1, total_ios: 1, clat_ns: { bins: { fast: 1 } } } }),
      /bin "fast" is not a latency in ns/,
    ],
    [
      fio({ write: { io_bytes: -1, runtime: 1, total_ios: 1 } }),
      /field "jobs\[0\].write.io_bytes": expected a whole number/,
    ],
  ])("refuses a damaged fio report, naming the field: %#", (text, message) => {
    expect(() => readToolFile(text)).toThrow(message);
  });

  /** One phase as elbencho's printPhaseResultsAsJSON writes it (boost: strings, "/" escaped). */
  function elbenchoPhase(
    overrides: Record<string, unknown> = {},
    done: Record<string, unknown> = {},
  ): string {
    const phase = {
      phase_type: "WRITE",
      phase_id: "1",
      iso_start_date: "2025-03-14T09:26:53.589+0100",
      config: { threads: "8", hosts: "1", file_size: "1048576", version: "3.1-10" },
      last_done: {
        elapsed_time_ms: "2000",
        entries: "256",
        bytes: "268435456",
        latency: { entries: { min_us: "3121", avg_us: "6270", max_us: "48213" } },
        ...done,
      },
      ...overrides,
    };
    return `${JSON.stringify(phase).replaceAll("/", "\\/")}\n`;
  }

  it("reads elbencho's phases: counts, and the minimum, mean and maximum it kept", () => {
    const read = readToolFile(elbenchoPhase() + elbenchoPhase({ phase_type: "READ" }));
    expect(read.tool).toBe("elbencho");
    expect(read.startedAt).toBe("2025-03-14T08:26:53.589Z");
    expect(read.points).toHaveLength(1);
    expect(read.points[0]?.clients).toBe(8);
    expect(read.points[0]?.phases.map((phase) => phase.summary)).toMatchObject([
      { op: "PUT", requests: 256, bytes: 268435456, throughputMBps: 128, latencyMs: null },
      { op: "GET", toolLatencyMs: { min: 3.121, mean: 6.27, max: 48.213 } },
    ]);
  });

  it.each([
    [
      elbenchoPhase({ phase_type: "SYNC" }),
      /line 1, field "phase_type": "SYNC" is not an operation/,
    ],
    [
      elbenchoPhase({ iso_start_date: "now" }),
      /line 1, field "iso_start_date": "now" is not a time/,
    ],
    [
      elbenchoPhase({}, { entries: "-1" }),
      /line 1, field "last_done.entries": "-1" is not a whole number/,
    ],
    [
      elbenchoPhase() + elbenchoPhase({ config: { threads: "0" } }),
      /line 2, field "config.threads"/,
    ],
    [elbenchoPhase().slice(0, 80), /line 1: a JSON object that never closes/],
    [
      elbenchoPhase({}, { latency: { entries: { min_us: "fast", avg_us: "1", max_us: "1" } } }),
      /field "last_done.latency.entries.min_us": "fast" is not a time in µs/,
    ],
  ])("refuses a damaged elbencho file, naming the line and field: %#", (text, message) => {
    expect(() => readToolFile(text)).toThrow(message);
  });

  /** warp's final aggregate, as encoding/json writes an aggregate.Realtime (pkg/aggregate). */
  function warpAggregate(
    get: Record<string, unknown> = {},
    segment: Record<string, unknown> = {},
  ): string {
    const single = {
      dur_median_millis: 2.8,
      fastest_millis: 1.2,
      slowest_millis: 41.7,
      std_dev_millis: 1.4,
      dur_99_millis: 7.9,
      dur_90_millis: 4.1,
      dur_avg_millis: 3,
      requests: 6871,
      obj_size: 1048576,
      merged_entries: 1,
      ...segment,
    };
    return JSON.stringify(
      {
        v: 2,
        commandline: "warp get",
        final: true,
        by_op_type: {
          GET: {
            total_requests: 10,
            total_errors: 1,
            concurrency: 4,
            start_time: "2025-03-14T09:26:53.589793238+01:00",
            end_time: "2025-03-14T09:27:38.712793238+01:00",
            hosts: ["127.0.0.1:9000"],
            throughput: { bytes: 10485760, measure_duration_millis: 45123 },
            requests_by_client: { a: [{ single_sized_requests: single }] },
            ...get,
          },
        },
      },
      null,
      2,
    );
  }

  it("reads warp's aggregate: its totals and the segment figures warp prints", () => {
    const read = readToolFile(warpAggregate());
    expect(read.points[0]).toMatchObject({ clients: 4, objectSizeBytes: 1048576 });
    expect(read.points[0]?.phases[0]?.summary).toMatchObject({
      op: "GET",
      requests: 10,
      errors: 1,
      durationMs: 45123,
      toolLatencyMs: { p50: 2.8, p90: 4.1, p99: 7.9, min: 1.2, max: 41.7, mean: 3, stdev: 1.4 },
    });
  });

  it.each([
    [
      warpAggregate({ total_errors: 11 }),
      /field "by_op_type.GET.total_errors": 11 is more than total_requests/,
    ],
    [warpAggregate({ start_time: "soon" }), /field "by_op_type.GET.start_time": expected a time/],
    [
      warpAggregate({}, { dur_99_millis: "slow" }),
      /field "by_op_type.GET.requests_by_client.a\[0\].single_sized_requests.dur_99_millis"/,
    ],
    [
      warpAggregate({ requests_by_client: { a: 5 } }),
      /field "by_op_type.GET.requests_by_client.a": expected a list/,
    ],
    [warpAggregate().replace('"final": true', '"final": false'), /field "final": not true/],
    [warpAggregate().replace('"GET"', '"APPEND"'), /"APPEND" is not an operation/],
  ])("refuses a damaged warp aggregate, naming the field: %#", (text, message) => {
    expect(() => readToolFile(text)).toThrow(message);
  });

  const ELBENCHO_LABELS =
    "ISO date,threads,hosts,file size,operation,time ms [last],entries [last],MiB [last],Ent lat us [min],Ent lat us [avg],Ent lat us [max],command";
  const elbenchoCsv = (...rows: string[]) => [ELBENCHO_LABELS, ...rows, ""].join("\n");
  const ELBENCHO_ROW =
    '2025-03-14T09:26:53.589+0100,8,1,1048576,WRITE,2013,256,256,3121,6270,48213,"elbencho" "-w"';

  it("reads elbencho's --csvfile by its labels", () => {
    const read = readToolFile(elbenchoCsv(ELBENCHO_ROW));
    expect(read.points[0]?.phases[0]?.summary).toMatchObject({
      op: "PUT",
      requests: 256,
      bytes: 256 * 1024 * 1024,
      durationMs: 2013,
      toolLatencyMs: { min: 3.121, mean: 6.27, max: 48.213 },
    });
  });

  it.each([
    [elbenchoCsv(ELBENCHO_ROW.replace(",WRITE,", ",SYNC,")), /line 2, field "operation": "SYNC"/],
    [elbenchoCsv(ELBENCHO_ROW, `${ELBENCHO_ROW},extra`), /line 3: 13 fields; expected 12/],
    [elbenchoCsv(ELBENCHO_ROW.replace(",8,", ",eight,")), /line 2, field "threads": "eight"/],
    [elbenchoCsv(), /line 2: no phase after the labels/],
    [ELBENCHO_LABELS.replace("threads", "workers"), /line 1: no "threads" column/],
  ])("refuses a damaged elbencho CSV, naming the line and field: %#", (text, message) => {
    expect(() => readToolFile(text)).toThrow(message);
  });
});
