import type { PhaseIntervals } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { OVER_TIME_CSV_COLUMNS, overTimeCsv } from "./over-time-csv.ts";

const second = {
  startMs: 2000,
  lengthMs: 1000,
  requests: 2000,
  errors: 1,
  p50Ms: 1.0,
  p99Ms: 1.98,
  p999Ms: 1.998,
  maxMs: 2,
  backups: 3,
};
const phase = (intervals: PhaseIntervals["intervals"]): PhaseIntervals => ({
  pointIndex: 0,
  op: "GET",
  intervals,
});

function rows(csv: string): Record<string, string>[] {
  const [header, ...lines] = csv.trimEnd().split("\r\n");
  expect(header?.split(",")).toEqual(OVER_TIME_CSV_COLUMNS);
  return lines.map((line) =>
    Object.fromEntries(line.split(",").map((value, at) => [OVER_TIME_CSV_COLUMNS[at], value])),
  );
}

describe("per-second CSV", () => {
  it("writes each second's percentiles beside their intervals and the requests beyond them", () => {
    const withIntervals = {
      ...second,
      percentileIntervals: {
        p50: { lo: 0.956, hi: 1.045 },
        p99: { lo: 1.971, hi: 1.989 },
        p999: { lo: 1.995, hi: null },
      },
    };
    const [row] = rows(overTimeCsv([{ runId: "r1", intervals: [phase([withIntervals])] }]));
    expect(row).toMatchObject({
      "Run ID": "r1",
      Point: "1",
      Operation: "GET",
      "Start (s)": "2",
      Requests: "2000",
      "99.9th %ile (ms)": "1.998",
      "99.9th %ile 95% Low (ms)": "1.995",
      "99.9th %ile 95% High (ms)": "inf",
      // p99.9 of 2 000 requests rests on 2: fewer than 10.
      "99.9th %ile Requests Beyond": "2",
      "99th %ile 95% Low (ms)": "1.971",
      "99th %ile 95% High (ms)": "1.989",
      "99th %ile Requests Beyond": "20",
      "50th %ile 95% Low (ms)": "0.956",
    });
  });

  it("leaves the interval columns empty for figures made before them, and a silent second's", () => {
    const silent = { ...second, requests: 0, p50Ms: null, p99Ms: null, p999Ms: null, maxMs: null };
    const [old, empty] = rows(overTimeCsv([{ runId: "r1", intervals: [phase([second, silent])] }]));
    expect(old?.["99th %ile (ms)"]).toBe("1.98");
    expect(old?.["99th %ile 95% Low (ms)"]).toBe("");
    expect(old?.["99th %ile 95% High (ms)"]).toBe("");
    expect(empty?.["99th %ile (ms)"]).toBe("");
    expect(empty?.["99th %ile Requests Beyond"]).toBe("");
  });

  it("writes each second's bytes, MB/s and errors by code, one column per code, most failures first", () => {
    const counted = (startMs: number, bytes: number, errorsByCode: Record<string, number>) => ({
      ...second,
      startMs,
      bytes,
      errorsByCode,
    });
    const csv = overTimeCsv([
      {
        runId: "r1",
        intervals: [
          phase([counted(0, 2 * 1024 * 1024, { "503": 1 }), counted(1000, 0, { SlowDown: 3 })]),
        ],
      },
      { runId: "old", intervals: [phase([second])] },
    ]);
    const [header, ...lines] = csv.trimEnd().split("\r\n");
    const columns = [...OVER_TIME_CSV_COLUMNS, "Errors: SlowDown", "Errors: 503"];
    expect(header?.split(",")).toEqual(columns);
    const [first, next, old] = lines.map((line) =>
      Object.fromEntries(line.split(",").map((value, at) => [columns[at], value])),
    );
    expect(first).toMatchObject({
      Bytes: "2097152",
      "Throughput (MB/s)": "2",
      "Errors: SlowDown": "0",
      "Errors: 503": "1",
    });
    expect(next).toMatchObject({ Bytes: "0", "Errors: SlowDown": "3", "Errors: 503": "0" });
    // A run stored before seconds kept them: not known, not 0.
    expect(old).toMatchObject({
      Bytes: "",
      "Throughput (MB/s)": "",
      "Errors: SlowDown": "",
      "Errors: 503": "",
    });
  });
});
