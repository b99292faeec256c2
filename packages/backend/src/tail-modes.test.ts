import type { PhaseSummary, RequestRecord, RunSummary } from "@taillab/api";
import { defaultWorkerCount } from "@taillab/engine";
import { describe, expect, it } from "vitest";
import { runBenchmark } from "./run-benchmark.ts";

/**
 * The tail-latency claims, checked on the embedded testbed with latency profiles. Profiles are
 * scaled down from the builtins (smaller queues) to keep the suite quick; the full-size figures
 * (p99.9 cut per mode, over several seeds) come from `pnpm bench tail`. A busy machine can stall
 * this whole process for a moment, and every request in flight then looks like a stalled one:
 * the claims are counts of requests, with room for such moments, never a single percentile.
 */

const secrets = { env: {} };
const STALL_MS = 1000;
const stalls = {
  serviceTime: { kind: "lognormal", medianMs: 3, sigma: 0.25 },
  // The builtin `stalls` profile's stalls: 1 % of requests, 1 s each.
  stalls: { probability: 0.01, durationMs: STALL_MS },
};

function phase(summary: RunSummary, op: PhaseSummary["op"]): PhaseSummary {
  const found = summary.points[0]?.phases.find((candidate) => candidate.op === op);
  if (!found) throw new Error(`no ${op} phase`);
  return found;
}

const totalReceived = (summary: RunSummary) =>
  (summary.testbed ?? []).reduce((sum, replica) => sum + replica.received, 0);
const totalAborted = (summary: RunSummary) =>
  (summary.testbed ?? []).reduce((sum, replica) => sum + replica.aborted, 0);

/** Tied copies sent as extra requests, and those cancelled before they were sent. */
function twinsLaunched(phase: PhaseSummary, requests: number): number {
  const hedge = phase.hedge;
  return Math.round(((hedge?.extraPct ?? 0) * requests) / 100) + (hedge?.notSent ?? 0);
}

/** Answered GETs that took the stall's length or longer, from intended start to the answer. */
function stalledGets(records: readonly RequestRecord[]): number {
  return records.filter(
    (record) =>
      record.op === "GET" &&
      record.winner &&
      record.endUs - record.intendedStartUs >= STALL_MS * 1000,
  ).length;
}

describe("hedged and tied requests on a testbed with stalls", () => {
  // Some requests stay slow by chance: a stall before the percentile delay has minSamples
  // latencies, or a backup that stalls too (1 % of stalled requests).
  const workload = {
    clients: 8,
    samples: 5000,
    objectSize: "1KiB",
    // No cleanup: the testbed goes with the run, and its DELETEs would stall too.
    phases: ["write", "read"],
    // Budget headroom: p95 hedging spends ~7 % here, and a cap that close runs dry in bursts.
    hedge: { minSamples: 5, budgetPercent: "20%" },
    testbed: { replicas: 2, profile: stalls, seed: 7 },
  };
  /** The budget's bound: 20 % of requests, plus each worker's starting burst of 20 backups. */
  const budgetCapPct = 20 + (100 * 20 * defaultWorkerCount()) / workload.samples;

  it("hedging at p95 rescues stalled requests at a bounded cost, and the losers are aborted", async () => {
    const normalAttempts: RequestRecord[] = [];
    const normal = await runBenchmark({ ...workload, mode: "normal" }, secrets, {
      onRecords: (_point, records) => normalAttempts.push(...records),
    });
    const attempts: RequestRecord[] = [];
    const hedged = await runBenchmark({ ...workload, mode: "hedged" }, secrets, {
      onRecords: (_point, records) => attempts.push(...records),
    });
    const before = phase(normal, "GET");
    const after = phase(hedged, "GET");
    // About 1 % of normal GETs stall (50 of 5 000); a moment when this whole process stood
    // still slows the 8 in flight, in either run. Hedged GETs wait out a stall only by bad luck.
    const stalledNormal = stalledGets(normalAttempts);
    expect(stalledNormal).toBeGreaterThanOrEqual(30);
    expect(before.latencyMs?.p999).toBeGreaterThanOrEqual(STALL_MS);
    expect(stalledGets(attempts) * 2).toBeLessThan(stalledNormal);
    // The stalls were answered by their backups.
    expect(after.hedge?.wonByBackup).toBeGreaterThanOrEqual(stalledNormal / 2);
    expect(after.errors).toBe(0);
    expect(after.hedge?.extraPct).toBeGreaterThan(0);
    expect(after.hedge?.extraPct).toBeLessThanOrEqual(budgetCapPct);
    expect(after.hedge?.cancelled).toBeGreaterThan(0);
    // The testbed saw cancelled attempts go away before they were answered (normal mode, below,
    // makes it see none). A cancel can arrive after the answer was sent, so the server counts at
    // most what the client cancelled.
    const cancelled = attempts.filter((record) => record.error === "Cancelled");
    expect(totalAborted(hedged)).toBeGreaterThan(0);
    expect(totalAborted(hedged)).toBeLessThanOrEqual(cancelled.length);
    expect(totalAborted(normal)).toBe(0);
    expect(hedged.mode).toBe("hedged");
    expect(hedged.testbed).toHaveLength(2);
  });

  it("tied requests send both copies and abort the slower one", async () => {
    const tied = await runBenchmark({ ...workload, samples: 400, mode: "tied" }, secrets);
    const get = phase(tied, "GET");
    // Both copies leave in the same tick: every request has its twin, sent or (waiting for a
    // connection when its first copy was answered) not sent.
    expect(twinsLaunched(get, 400)).toBe(400);
    expect(get.hedge?.cancelled).toBeGreaterThan(100);
    expect(totalAborted(tied)).toBeGreaterThan(100);
    // Every answer came from a replica, and both replicas answered. (A copy cancelled before it
    // was written to its connection never reaches a replica: how many do depends on the machine.)
    expect(totalReceived(tied)).toBeGreaterThanOrEqual(2 * 400);
    for (const replica of tied.testbed ?? []) expect(replica.received).toBeGreaterThan(200);
  });
});

describe("tied requests against replicas that answer at once", () => {
  // With a timer between the copies, a replica answering in under a millisecond had answered
  // the first copy before the timer fired: only 158–182 of 300 requests sent a twin.
  it("every request sends its twin in the same tick as its first copy", async () => {
    const records: RequestRecord[] = [];
    const samples = 300;
    const tied = await runBenchmark(
      {
        clients: 4,
        samples,
        objectSize: "1KiB",
        phases: ["write", "read"],
        mode: "tied",
        testbed: { replicas: 2 },
      },
      secrets,
      { onRecords: (_point, batch) => records.push(...batch) },
    );
    const gets = records.filter((record) => record.op === "GET" && record.measured);
    const twins = gets.filter((record) => record.attempt === 2);
    expect(gets.filter((record) => record.attempt === 1)).toHaveLength(samples);
    expect(twins).toHaveLength(samples);
    // A twin that waited for a connection (its last one closed by a cancel) while the first copy
    // was answered is counted as not sent, not as an extra request: together they are all.
    expect(twinsLaunched(phase(tied, "GET"), samples)).toBe(samples);
  });
});

describe("open loop against a saturated queue", () => {
  // Two service slots of 10 ms: the replica serves at most 200 requests per second.
  const queue = { serviceTime: { kind: "fixed", ms: 10 }, queue: { slots: 2 } };
  const base = {
    clients: 2,
    objectSize: "1KiB",
    phases: ["write", "read", "cleanup"],
    testbed: { replicas: 1, profile: queue },
  };

  // Ratios of figures measured in the same run, never absolute times: a busy machine slows both.
  it("shows latency from the scheduled start far above the service time; the closed loop hides it", async () => {
    const open = await runBenchmark(
      { ...base, clients: 64, openLoop: { rateHz: "300/s", durationMs: "2s" } },
      secrets,
    );
    const closed = await runBenchmark({ ...base, samples: 300 }, secrets);
    const openGet = phase(open, "GET");
    const closedGet = phase(closed, "GET");
    expect(open.loop).toBe("open");
    expect(openGet.requests).toBe(600);
    // 300/s into a server of 200/s: the queue grows for 2 s, far beyond the 10 ms service time.
    expect(openGet.latencyMs?.p99).toBeGreaterThan(20 * 10);
    // The server queues at most one request per connection (64 × 5 ms); the rest wait in the client.
    expect(openGet.latencyMs?.p99).toBeGreaterThan(2 * (openGet.serviceMs?.p99 ?? Infinity));
    expect(openGet.loop).toBe("open");
    // Where the open loop's time went: waiting in the client for a connection, not at the server.
    expect(openGet.clientQueueMs?.p99).toBeGreaterThan(openGet.ttfbMs?.p99 ?? Infinity);
    expect(closed.loop).toBe("closed");
    // The closed loop waits for each answer before sending: no queue shows.
    expect(closedGet.latencyMs?.p50).toBeLessThan(2 * (closedGet.serviceMs?.p50 ?? 0));
  });
});

describe("content verification", () => {
  it("catches a server that returns wrong bytes of the right size", async () => {
    const corrupting = {
      serviceTime: { kind: "none" },
      errors: { slowDownRate: 0, resetRate: 0, corruptRate: 0.1 },
    };
    const workload = {
      clients: 4,
      samples: 500,
      objectSize: "4KiB",
      testbed: { replicas: 1, profile: corrupting, seed: 3 },
    };
    const checked = phase(await runBenchmark({ ...workload, verify: true }, secrets), "GET");
    expect(checked.errorsByCode.ContentMismatch).toBeGreaterThan(25);
    expect(checked.errorsByCode.ContentMismatch).toBeLessThan(80);
    expect(checked.errors).toBe(checked.errorsByCode.ContentMismatch);
    // Without the check the same server looks healthy: the sizes are right.
    const unchecked = phase(await runBenchmark(workload, secrets), "GET");
    expect(unchecked.errors).toBe(0);
  });
});
