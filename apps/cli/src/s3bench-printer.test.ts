import type { PhaseSummary, PointSummary, RequestRecord } from "@taillab/api";
import { parseRunSpec } from "@taillab/core";
import { describe, expect, it } from "vitest";
import { S3benchPrinter } from "./s3bench-printer.ts";

const PREFIX = "lab/20261127-000000-abcdef/";

/** Key 40 took 10 ms, key 41 20 ms, key 42 30 ms. */
function record(op: "PUT" | "DELETE", key: number, endUs: number, error: string | null = null) {
  const start = endUs - (key - 39) * 10_000;
  return {
    op,
    key: `${PREFIX}${key}`,
    bytes: error === null && op === "PUT" ? 1024 : 0,
    intendedStartUs: start,
    readyUs: start,
    sentUs: start,
    connectUs: null,
    bodySentUs: null,
    headersUs: endUs,
    firstByteUs: endUs,
    endUs,
    status: error === null ? 200 : 503,
    error,
    attempt: 1,
    replica: 0,
    winner: true,
    phaseIndex: op === "PUT" ? 0 : 1,
    client: 0,
    measured: true,
  } satisfies RequestRecord;
}

function phase(op: "PUT" | "DELETE", errors: number): PhaseSummary {
  return {
    op,
    loop: "closed",
    requests: 3,
    errors,
    errorsByCode: errors > 0 ? { SlowDown: errors } : {},
    bytes: op === "PUT" ? 3 * 1024 : 0,
    durationMs: 5,
    throughputMBps: 0.5,
    opsPerSec: 600,
    steady: null,
    latencyMs: null,
    clientQueueMs: null,
    serviceMs: null,
    ttfbMs: null,
    transferMs: null,
    missedStarts: 0,
    tail: null,
  };
}

function printed(verbose: boolean): string {
  let out = "";
  const printer = new S3benchPrinter({ verbose, write: (text) => (out += text) });
  const parsed = parseRunSpec({ clients: 1, samples: 3, objectSize: 1024, keyPrefix: "lab" });
  if (!parsed.ok) throw new Error("spec");
  printer.onNotice({
    code: "testbedStarted",
    params: { urls: ["http://127.0.0.1:1"], profile: "fast", seed: 1 },
  });
  printer.onRunStart({
    runId: "20261127-000000-abcdef",
    spec: { ...parsed.spec, phases: ["write", "cleanup"] },
    runStartEpochMs: Date.now(),
    keyPrefix: PREFIX,
    server: null,
    live: null,
  });
  printer.onPhaseStart(0, "PUT");
  // Two batches, the second's answers out of order: printed in the order they ended.
  printer.onRecords([record("PUT", 40, 10_000)]);
  printer.onRecords([record("PUT", 42, 30_000), record("PUT", 41, 20_000)]);
  printer.onPhaseStart(0, "DELETE");
  printer.onRecords([record("DELETE", 40, 40_000), record("DELETE", 42, 41_000, "SlowDown")]);
  printer.onRecords([record("DELETE", 41, 42_000)]);
  const point: PointSummary = {
    params: { clients: 1, samples: 3, objectSizeBytes: 1024 },
    finished: true,
    phases: [phase("PUT", 0), phase("DELETE", 1)],
  };
  printer.onPointDone(0, point);
  return out;
}

describe("S3benchPrinter", () => {
  it("counts -verbose answers in the order they ended, and maps the cleanup to s3bench's keys", () => {
    const out = printed(true);
    expect(out.match(/^Write operation completed in \S+ \(\d\/3\)/gm)).toEqual([
      "Write operation completed in 0.01s (1/3)",
      "Write operation completed in 0.02s (2/3)",
      "Write operation completed in 0.03s (3/3)",
    ]);
    expect(out).toContain("Running Write test...\nWrite operation completed");
    expect(out).toMatch(/ \(3\/3\) - \d+\.\d\dMB\/s\n\nTest parameters\n/);
    expect(out).toContain(
      "\nCleaning up 3 objects...\nDeleting a batch of 3 objects in range {0, 2}... Failed (1 of 3 deletes failed: SlowDown 1)\nSuccessfully deleted 2/3 objects in 5ms\n",
    );
    expect(out).toContain("endpoint(s):      [http://127.0.0.1:1]\n");
    expect(out).not.toContain("Running Delete");
  });

  it("prints no answers without -verbose", () => {
    const out = printed(false);
    expect(out).not.toContain("operation completed");
    expect(out).toContain("Running Write test...\n\nTest parameters\n");
    expect(out).toContain("verbose:       %!d(bool=false)\n");
  });
});
