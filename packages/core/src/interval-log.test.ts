import hdr from "hdr-histogram-js";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  formatIntervalLogLine,
  intervalLogHeader,
  intervalLogLines,
  intervalsFromLog,
  readIntervalLog,
} from "./interval-log.ts";
import type { LogicalRequest } from "./logical-request.ts";
import { PhaseAccount } from "./phase-account.ts";
import { createRandom } from "./random.ts";

/** 5 000 GETs over 3.5 s, 1 % failing. */
function trafficOf(seed: number): LogicalRequest[] {
  const random = createRandom(seed);
  return Array.from({ length: 5000 }, (_, index) => {
    const startUs = index * 700;
    const endUs = startUs + Math.round(random.lognormal(5000, 1));
    const failed = random.next() < 0.01;
    return {
      op: "GET",
      intendedStartUs: startUs,
      phaseIndex: 0,
      client: 0,
      measured: true,
      attempts: [
        {
          replica: 0,
          readyUs: startUs,
          sentUs: startUs,
          headersUs: endUs,
          firstByteUs: endUs,
          endUs,
          bytes: 10,
          error: failed ? "SlowDown" : null,
        },
      ],
      winner: failed ? null : 0,
    };
  });
}

function accountWithTraffic(seed: number): PhaseAccount {
  const account = new PhaseAccount({ op: "GET", loop: "open", hedgeBudgetPct: null });
  for (const request of trafficOf(seed)) account.add(request);
  return account;
}

describe("interval log", () => {
  it("round-trips an account's percentiles over time through HdrHistogram's log format", () => {
    const account = accountWithTraffic(4);
    const text =
      intervalLogHeader(Date.UTC(2026, 10, 25, 4, 40)) +
      intervalLogLines(2, "GET", account.encodedIntervals()).map(formatIntervalLogLine).join("");
    const parsed = readIntervalLog(text);
    expect(parsed.runStartEpochMs).toBe(Date.UTC(2026, 10, 25, 4, 40));
    expect(parsed.skippedLines).toBe(0);
    expect(intervalsFromLog(text)).toEqual([
      { pointIndex: 2, op: "GET", intervals: account.intervalStats() },
    ]);
    expect(text.split("\n").find((line) => !line.startsWith("#") && !line.startsWith('"'))).toMatch(
      /^Tag=p2\/GET,0\.000,1\.000,\d+\.\d{3},HIST/,
    );
    account.destroy();
  });

  it("is read by hdr-histogram-js's HistogramLogReader as the percentiles it holds, in the units its header states", () => {
    const account = accountWithTraffic(4);
    const runStartMs = Date.UTC(2026, 10, 25, 4, 40);
    const text =
      intervalLogHeader(runStartMs) +
      intervalLogLines(2, "GET", account.encodedIntervals()).map(formatIntervalLogLine).join("");
    // What HdrHistogram's HistogramLogProcessor is told to divide values by to print milliseconds.
    const ratio = Number(/-outputValueUnitRatio (\d+)/.exec(text)?.[1]);
    const reader = new hdr.HistogramLogReader(text);
    const read: { tag: string | undefined; startMs: number; requests: number; p99Ms: number }[] =
      [];
    for (let interval = reader.nextIntervalHistogram(); interval;) {
      read.push({
        tag: interval.tag,
        startMs: interval.startTimeStampMsec - runStartMs,
        requests: interval.totalCount,
        p99Ms: Math.round(interval.getValueAtPercentile(99)) / ratio,
      });
      interval.destroy();
      interval = reader.nextIntervalHistogram();
    }
    const seconds = account.intervalStats();
    expect(seconds.length).toBeGreaterThan(2);
    expect(read.filter((interval) => interval.tag === "p2/GET")).toEqual(
      seconds.map(({ startMs, requests, p99Ms }) => ({ tag: "p2/GET", startMs, requests, p99Ms })),
    );
    expect(read.filter((interval) => interval.tag === "p2/GET/failed")).toHaveLength(
      seconds.filter((second) => second.errors > 0).length,
    );
    account.destroy();
  });

  it("reads a second written in parts as one: seconds taken out early, then their late answers", () => {
    const whole = accountWithTraffic(6);
    const streamed = new PhaseAccount({ op: "GET", loop: "open", hedgeBudgetPct: null });
    const lines: string[] = [];
    const take = (beforeIndex: number) =>
      lines.push(
        ...intervalLogLines(0, "GET", streamed.takeIntervalsBefore(beforeIndex)).map(
          formatIntervalLogLine,
        ),
      );
    const traffic = trafficOf(6);
    for (const request of traffic.slice(0, 2500)) streamed.add(request);
    streamed.takeChangedIntervals();
    // Seconds 0 and 1 are over; the answers to come still land in second 1 (started by 1.75 s).
    take(2);
    expect(streamed.intervalStats().map((second) => second.startMs)).toEqual([]);
    for (const request of traffic.slice(2500)) streamed.add(request);
    // A live view is not shown the late part of a second it was already shown whole.
    expect(streamed.takeChangedIntervals().map((second) => second.startMs)).toEqual([2000, 3000]);
    expect(streamed.recentIntervals(3600)?.fromIndex).toBe(2);
    take(Number.POSITIVE_INFINITY);
    expect(lines.filter((line) => line.startsWith("Tag=p0/GET,1.000,"))).toHaveLength(2);
    expect(intervalsFromLog(intervalLogHeader(0) + lines.join(""))).toEqual([
      { pointIndex: 0, op: "GET", intervals: whole.intervalStats() },
    ]);
    whole.destroy();
    streamed.destroy();
  });

  it("keeps each second's bytes and errors by code as comment lines HdrHistogram's readers skip", () => {
    const account = accountWithTraffic(4);
    const text =
      intervalLogHeader(0) +
      intervalLogLines(2, "GET", account.encodedIntervals()).map(formatIntervalLogLine).join("");
    expect(text).toMatch(
      /^#\[TailLab counts v1\] Tag=p2\/GET,0\.000,1\.000,\{"bytes":\d+,"errorsByCode":\{"SlowDown":\d+\}\}$/m,
    );
    const seconds = intervalsFromLog(text)[0]?.intervals ?? [];
    const summary = account.summary();
    expect(seconds.reduce((sum, second) => sum + (second.bytes ?? 0), 0)).toBe(summary.bytes);
    expect(seconds.reduce((sum, second) => sum + (second.errorsByCode?.SlowDown ?? 0), 0)).toBe(
      summary.errorsByCode.SlowDown,
    );
    const reader = new hdr.HistogramLogReader(text);
    let histograms = 0;
    for (let interval = reader.nextIntervalHistogram(); interval;) {
      histograms += 1;
      interval.destroy();
      interval = reader.nextIntervalHistogram();
    }
    expect(histograms).toBe(text.split("\n").filter((line) => line.startsWith("Tag=")).length);
    account.destroy();
  });

  it("reads a torn or malformed counts line as skipped, not as zero", () => {
    const parsed = readIntervalLog(
      intervalLogHeader(0) +
        '#[TailLab counts v1] Tag=p0/GET,0.000,1.000,{"bytes":-1,"errorsByCode":{}}\n' +
        '#[TailLab counts v1] Tag=p0/GET,1.000,1.000,{"bytes":12\n',
    );
    expect(parsed.linesRead).toBe(0);
    expect(parsed.skippedLines).toBe(2);
  });

  it("skips a torn last line and says so", () => {
    const account = accountWithTraffic(5);
    const lines = intervalLogLines(0, "GET", account.encodedIntervals()).map(formatIntervalLogLine);
    const torn = intervalLogHeader(0) + lines.join("") + "Tag=p0/GET,9.000,1.0";
    const parsed = readIntervalLog(torn);
    expect(parsed.linesRead).toBe(lines.length);
    expect(parsed.skippedLines).toBe(1);
    account.destroy();
  });

  it("goes on after a line HdrHistogram's reader cannot decode, and counts it", () => {
    const account = accountWithTraffic(5);
    const lines = intervalLogLines(0, "GET", account.encodedIntervals()).map(formatIntervalLogLine);
    const damaged = lines.map((line, index) =>
      index === 0 ? line.replace(",HIST", ",HISTbroken") : index === 4 ? "Tag=p0/G\n" : line,
    );
    const parsed = readIntervalLog(intervalLogHeader(0) + damaged.join(""));
    expect(parsed).toMatchObject({ linesRead: lines.length - 2, skippedLines: 2 });
    account.destroy();
  });

  it("reads a log TailLab wrote with its own writer before (main at d0eb1c1) as that reader read it", () => {
    const fixture = (name: string) =>
      readFileSync(
        new URL(`./fixtures/interval-log-main-d0eb1c1.${name}`, import.meta.url),
        "utf8",
      );
    const text = fixture("hlog");
    const { runStartEpochMs, skippedLines } = readIntervalLog(text);
    expect({ runStartEpochMs, skippedLines, phases: intervalsFromLog(text) }).toEqual(
      JSON.parse(fixture("expected.json")),
    );
  });
});
