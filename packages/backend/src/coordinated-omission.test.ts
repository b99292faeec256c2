import { coordinatedOmissionNote } from "@taillab/core";
import { formatPointS3bench } from "@taillab/report";
import { openResultsStore, type ResultsStore } from "@taillab/store";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAndRecord } from "./recorded-run.ts";

/**
 * What a closed loop leaves out, on the embedded testbed: a server frozen for a second every few
 * seconds (1 ms answers, a thousand times slower in the freeze) gets the strong note, with the
 * open-loop equivalent just under the throughput measured.
 */

let dir = "";
let store: ResultsStore;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "taillab-omission-"));
  store = await openResultsStore(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const frozen = {
  serviceTime: { kind: "fixed", ms: 1 },
  noisyNeighbour: { replica: 0, everyMs: 2500, forMs: 1000, factor: 1000 },
};

describe("the closed loop's coordinated-omission note", () => {
  it("is strong against a server frozen a second every few, and offers the open loop under its throughput", async () => {
    const summary = await runAndRecord(
      {
        clients: 4,
        objectSize: "1KiB",
        samples: 1000000,
        workers: 1,
        testbed: { replicas: 1, profile: frozen, seed: 3 },
        workload: { ops: "get:100", prepareObjects: 8, durationMs: "4s" },
      },
      { env: {} },
      {},
      { store },
    );
    const [point] = summary.points;
    const phase = point?.phases.find((each) => each.op === "GET");
    if (!point || !phase) throw new Error("no GET phase was measured");
    const note = coordinatedOmissionNote(phase);
    expect(note?.strength).toBe("strong");
    // Nothing completed for most of a freeze while the four clients waited in it.
    expect(phase.completionGapMs).toBeGreaterThan(10 * (phase.latencyMs?.p99 ?? Infinity));
    expect(note?.openLoopRateHz).toBeLessThan(phase.steady?.opsPerSec ?? phase.opsPerSec);
    const text = formatPointS3bench(point);
    expect(text).toContain("COORDINATED OMISSION");
    expect(text).toContain(`--rate ${note?.openLoopRateHz}/s`);
    // The run's own JSON (the stored summary) carries what the note is drawn from.
    const stored = (await store.get(summary.runId)).summary;
    expect(stored?.points[0]?.phases.find((each) => each.op === "GET")?.completionGapMs).toBe(
      phase.completionGapMs,
    );
  });
});
