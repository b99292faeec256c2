import type { LatencyStats, PhaseSummary } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { goDuration, goFixed } from "./go-format.ts";
import {
  s3benchCleanupText,
  s3benchOpeningText,
  s3benchResultsText,
  s3benchRunningLine,
  s3benchVerboseLine,
  type S3benchParams,
} from "./s3bench-run-text.ts";

/**
 * Go's Printf for the verbs s3bench uses, so the expected text below is built from s3bench's own
 * format strings, copied from s3bench.go (igneous-systems/s3bench at 7b81001) with their lines.
 * %d of a bool is Go's "wrong type" form, `%!d(bool=false)` (the fmt package's documentation).
 * Figures here have no exact half at the printed digit, so toFixed rounds them as Go does.
 */
function goSprintf(format: string, ...args: unknown[]): string {
  let next = 0;
  return format.replace(/%(%|s|d|v|0\.(\d)f)/g, (_verb, kind: string, digits?: string) => {
    if (kind === "%") return "%";
    const arg = args[next++];
    if (digits !== undefined) return (arg as number).toFixed(Number(digits));
    if (kind === "d" && typeof arg === "boolean") return `%!d(bool=${arg})`;
    if (Array.isArray(arg)) return `[${arg.join(" ")}]`;
    return String(arg);
  });
}
const goSprintln = (...args: unknown[]) => `${args.map(String).join(" ")}\n`;

/** Params.String(), s3bench.go lines 250–260. */
function goParams(p: S3benchParams): string {
  let output = goSprintln("Test parameters");
  output += goSprintf("endpoint(s):      %s\n", p.endpointUrls);
  output += goSprintf("bucket:           %s\n", p.bucket);
  output += goSprintf("objectNamePrefix: %s\n", p.objectNamePrefix);
  output += goSprintf("objectSize:       %0.4f MB\n", p.objectSizeBytes / (1024 * 1024));
  output += goSprintf("numClients:       %d\n", p.clients);
  output += goSprintf("numSamples:       %d\n", p.samples);
  output += goSprintf("verbose:       %d\n", p.verbose);
  return output;
}

/** Result.String(), s3bench.go lines 271–288, with TailLab's figures. */
function goResult(op: string, phase: PhaseSummary): string {
  const mb = phase.bytes / (1024 * 1024);
  let report = goSprintf("Results Summary for %s Operation(s)\n", op);
  report += goSprintf("Total Transferred: %0.3f MB\n", mb);
  report += goSprintf("Total Throughput:  %0.2f MB/s\n", phase.throughputMBps);
  report += goSprintf("Total Duration:    %0.3f s\n", phase.durationMs / 1000);
  report += goSprintf("Number of Errors:  %d\n", phase.errors);
  const latency = phase.latencyMs;
  if (latency) {
    const s = (ms: number) => ms / 1000;
    report += goSprintln("------------------------------------");
    report += goSprintf("%s times Max:       %0.3f s\n", op, s(latency.max));
    report += goSprintf("%s times 99th %%ile: %0.3f s\n", op, s(latency.p99));
    report += goSprintf("%s times 90th %%ile: %0.3f s\n", op, s(latency.p90));
    report += goSprintf("%s times 75th %%ile: %0.3f s\n", op, s(latency.p75));
    report += goSprintf("%s times 50th %%ile: %0.3f s\n", op, s(latency.p50));
    report += goSprintf("%s times 25th %%ile: %0.3f s\n", op, s(latency.p25));
    report += goSprintf("%s times Min:       %0.3f s\n", op, s(latency.min));
  }
  return report;
}

const PARAMS: S3benchParams = {
  endpointUrls: ["http://endpoint1:80", "http://endpoint2:80"],
  bucket: "loadgen",
  objectNamePrefix: "loadgen",
  objectSizeBytes: 1024,
  clients: 2,
  samples: 10,
  verbose: false,
};

const stats = (scale: number): LatencyStats => ({
  min: 0.336 * scale,
  p25: 0.3851 * scale,
  p50: 0.5431 * scale,
  p75: 0.6012 * scale,
  p90: 0.7913 * scale,
  p99: 0.7914 * scale,
  p999: 0.7914 * scale,
  p9999: 0.7914 * scale,
  max: 0.7914 * scale,
  mean: 0.5 * scale,
  stdev: 0.1 * scale,
});

const phase = (op: "PUT" | "GET", latencyMs: LatencyStats | null, errors = 0): PhaseSummary => ({
  op,
  loop: "closed",
  requests: 10,
  errors,
  errorsByCode: errors > 0 ? { NoSuchKey: errors } : {},
  bytes: (10 - errors) * 1024,
  durationMs: op === "PUT" ? 2684.2 : 7.9,
  throughputMBps: op === "PUT" ? 0.0036 : 1.2811,
  opsPerSec: 4,
  steady: null,
  latencyMs,
  clientQueueMs: null,
  serviceMs: null,
  ttfbMs: null,
  transferMs: null,
  missedStarts: 0,
  tail: null,
});

const WRITE = phase("PUT", stats(1000));
const READ = phase("GET", stats(3));

/** A whole run as s3bench's main() prints it, lines 68–139. */
function goRun(params: S3benchParams, preparation: string, cleanup: string): string {
  let out = goSprintln(goParams(params)) + goSprintln();
  out += goSprintf("Generating in-memory sample data... ");
  out += goSprintf("Done (%s)\n", preparation) + goSprintln();
  out += goSprintf("Running %s test...\n", "Write") + goSprintln();
  out += goSprintf("Running %s test...\n", "Read") + goSprintln();
  out += goSprintln(goParams(params)) + goSprintln();
  out += goSprintln(goResult("Write", WRITE)) + goSprintln();
  out += goSprintln(goResult("Read", READ));
  out += goSprintln();
  out += goSprintf("Cleaning up %d objects...\n", params.samples);
  out += goSprintf("Deleting a batch of %d objects in range {%d, %d}... ", 10, 0, 9);
  out += goSprintf("Succeeded\n");
  out += goSprintf("Successfully deleted %d/%d objects in %s\n", 10, 10, cleanup);
  return out;
}

describe("s3bench's text, byte for byte", () => {
  it("prints a whole run as s3bench's format strings do", () => {
    const text =
      s3benchOpeningText(PARAMS, 0.095958) +
      s3benchRunningLine("PUT") +
      "\n" +
      s3benchRunningLine("GET") +
      "\n" +
      s3benchResultsText(PARAMS, [WRITE, READ]) +
      s3benchCleanupText({ samples: 10, deleted: 10, durationMs: 12.5, failures: new Map() });
    expect(text).toBe(goRun(PARAMS, "95.958µs", "12.5ms"));
  });

  it("shows the -verbose flag as s3bench's %d of a bool does", () => {
    expect(s3benchOpeningText({ ...PARAMS, verbose: true }, 1)).toContain(
      "\nverbose:       %!d(bool=true)\n\n\nGenerating",
    );
  });

  it("leaves out the percentile lines when no request succeeded, as s3bench does", () => {
    const failed = phase("GET", null, 10);
    expect(s3benchResultsText(PARAMS, [failed])).toBe(
      `${goSprintln(goParams(PARAMS))}\n${goSprintln(goResult("Read", failed))}`,
    );
  });

  it("matches every percentile line with a regex taken from s3bench's format", () => {
    // "%s times Max:       %0.3f s\n" … "%s times Min:       %0.3f s\n" (lines 279–285).
    const percentileLine = /^(\w+) times (Max|Min|\d+th %ile):\s+(\d+\.\d{3}) s$/;
    const lines = s3benchResultsText(PARAMS, [WRITE, READ])
      .split("\n")
      .filter((line) => line.includes(" times "));
    expect(lines).toHaveLength(14);
    for (const line of lines) expect(line).toMatch(percentileLine);
  });

  it("prints a -verbose line per answered request (lines 162–165)", () => {
    const line = s3benchVerboseLine({
      op: "PUT",
      latencyMs: 371,
      done: 1,
      samples: 10,
      bytesSoFar: 1024,
      elapsedMs: 400,
      error: null,
    });
    const format = "%v operation completed in %0.2fs (%d/%d) - %0.2fMB/s%s\n";
    expect(line).toBe(goSprintf(format, "Write", 0.371, 1, 10, 1024 / (1024 * 1024) / 0.4, ""));
    const failed = s3benchVerboseLine({
      op: "GET",
      latencyMs: 2,
      done: 3,
      samples: 10,
      bytesSoFar: 0,
      elapsedMs: 5,
      error: "NoSuchKey",
    });
    expect(failed).toBe(goSprintf(format, "Read", 0.002, 3, 10, 0, ", error: NoSuchKey"));
  });

  it("reports a cleanup batch that failed, in s3bench's batches of 1000 keys", () => {
    const text = s3benchCleanupText({
      samples: 2500,
      deleted: 2498,
      durationMs: 1500,
      failures: new Map([
        [1200, "SlowDown"],
        [1999, "SlowDown"],
      ]),
    });
    expect(text).toBe(
      [
        "",
        "Cleaning up 2500 objects...",
        "Deleting a batch of 1000 objects in range {0, 999}... Succeeded",
        "Deleting a batch of 1000 objects in range {1000, 1999}... Failed (2 of 1000 deletes failed: SlowDown 2)",
        "Deleting a batch of 500 objects in range {2000, 2499}... Succeeded",
        "Successfully deleted 2498/2500 objects in 1.5s",
        "",
      ].join("\n"),
    );
  });
});

describe("Go's formatting", () => {
  it.each([
    [0.125, 2, "0.12"],
    [0.375, 2, "0.38"],
    [2.5, 0, "2"],
    [3.5, 0, "4"],
    [0.0009765625, 4, "0.0010"],
    [1.2345, 3, "1.234"],
    [30.534, 2, "30.53"],
    [0, 3, "0.000"],
  ])("%%0.%if rounds an exact half to even: %d → %s", (value, digits, expected) => {
    expect(goFixed(value, digits)).toBe(expected);
  });

  it.each([
    [0, "0s"],
    [999, "999ns"],
    [95_958, "95.958µs"],
    [1_000_000, "1ms"],
    [1_234_567, "1.234567ms"],
    [1_500_000_000, "1.5s"],
    [61_000_000_000, "1m1s"],
    [3_600_000_000_000, "1h0m0s"],
    [3_723_000_000_001, "1h2m3.000000001s"],
  ])("time.Duration(%d).String() is %s", (nanoseconds, expected) => {
    expect(goDuration(nanoseconds)).toBe(expected);
  });
});
