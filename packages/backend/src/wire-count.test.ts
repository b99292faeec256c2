import type { PhaseSummary, RequestRecord, RunSummary } from "@taillab/api";
import { wentOnWire } from "@taillab/core";
import { beforeAll, describe, expect, it } from "vitest";
import { runBenchmark } from "./run-benchmark.ts";

/**
 * TailLab's count of what went on the wire against what the servers saw: the embedded testbed's
 * replicas count every request they receive. A run sends a few requests that make no record (the
 * preflight, the bucket): a normal run of the same workload says how many.
 */

const secrets = { env: {} };
const workload = {
  clients: 8,
  samples: 400,
  objectSize: "1KiB",
  phases: ["write", "read"],
  hedge: { delay: "5ms", budgetPercent: "20%" },
  // Service around the hedge delay, and stalls: backups go out, and many leave just as their
  // first attempt answers, cancelled before or after they were written.
  testbed: {
    replicas: 2,
    profile: {
      serviceTime: { kind: "lognormal", medianMs: 4, sigma: 0.3 },
      stalls: { probability: 0.01, durationMs: 300 },
    },
    seed: 3,
  },
};

/** Requests every replica of the run's testbed received. */
export function requestsReceived(summary: RunSummary): number {
  return (summary.testbed ?? []).reduce((sum, replica) => sum + replica.received, 0);
}

async function recordedRun(mode: string) {
  const records: RequestRecord[] = [];
  const summary = await runBenchmark({ ...workload, mode }, secrets, {
    onRecords: (_point, batch) => records.push(...batch),
  });
  const phases = summary.points.flatMap((point) => point.phases);
  return { summary, records, phases };
}

const sum = (phases: PhaseSummary[], figure: (phase: PhaseSummary) => number) =>
  phases.reduce((total, phase) => total + figure(phase), 0);

describe("extra requests against what the replicas received", () => {
  let unrecorded = 0;
  beforeAll(async () => {
    const normal = await recordedRun("normal");
    unrecorded = requestsReceived(normal.summary) - normal.records.length;
  });

  it.each([["hedged"], ["adaptive"], ["tied"]])("%s", async (mode) => {
    const { summary, records, phases } = await recordedRun(mode);
    const receivedForRecords = requestsReceived(summary) - unrecorded;
    // Each attempt written on a connection reached a replica; no other did.
    expect(records.filter(wentOnWire)).toHaveLength(receivedForRecords);
    const unmeasuredSent = records.filter((record) => !record.measured && wentOnWire(record));
    const measuredReceived = receivedForRecords - unmeasuredSent.length;
    // TailLab's attempts and extra requests are what the replicas received for the phases.
    expect(sum(phases, (phase) => phase.hedge?.attempts ?? 0)).toBe(measuredReceived);
    const extra = sum(phases, (phase) =>
      Math.round((phase.hedge!.extraPct * phase.requests) / 100),
    );
    expect(extra).toBe(measuredReceived - sum(phases, (phase) => phase.requests));
    // The backups launched but never sent are counted apart.
    const launched = records.filter((record) => record.measured && record.attempt > 1).length;
    expect(extra + sum(phases, (phase) => phase.hedge?.notSent ?? 0)).toBe(launched);
  });
});
