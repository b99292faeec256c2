import type { S3Client } from "@aws-sdk/client-s3";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMarkerStore, type MarkerStore } from "./bucket-markers.ts";
import { passPhaseGate, type PhaseGateOptions } from "./phase-gate.ts";
import { doneKey, goneKey } from "./run-folder-layout.ts";
import { barrierS3Client } from "./test-support/barrier-shard.ts";

/** The gate before each later phase, in-process against the testbed. */

const BUCKET = "gates";
const credentials = { accessKeyId: "GATEKEY", secretAccessKey: "gate-secret" };
let testbed: Testbed;
let client: S3Client;

beforeAll(async () => {
  testbed = await startTestbed({ credentials, buckets: [BUCKET] });
  client = barrierS3Client({ url: testbed.url, ...credentials });
});
afterAll(async () => {
  client?.destroy();
  await testbed?.close();
});

function folder(): MarkerStore {
  return createMarkerStore({ client, bucket: BUCKET, prefix: `runs/${randomUUID()}/` });
}

const gate = (markers: MarkerStore, index: number, options: Partial<PhaseGateOptions> = {}) =>
  passPhaseGate({
    markers,
    index,
    shards: 3,
    phaseIndex: 4,
    expected: [0, 1, 2],
    waitMs: 600_000,
    pollMs: 50,
    ...options,
  });

describe("the gate before a later phase", () => {
  it("starts every shard together after the last one came, whenever each came", async () => {
    const markers = folder();
    const first = gate(markers, 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = gate(markers, 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const lastCameMs = Date.now();
    const passed = await Promise.all([first, second, gate(markers, 2)]);
    expect(new Set(passed.map((each) => each.startMs)).size).toBe(1);
    expect(passed[0]?.startMs).toBeGreaterThanOrEqual(lastCameMs);
    for (const each of passed) expect(each.arrived.sort()).toEqual([0, 1, 2]);
    expect((await markers.list("phase/4/")).length).toBe(3);
  });

  it("does not wait for a shard that left its done marker", async () => {
    const markers = folder();
    await markers.put(doneKey(2), JSON.stringify({ index: 2, status: "failed" }));
    const passed = await Promise.all([gate(markers, 0), gate(markers, 1)]);
    expect(passed.map((each) => each.arrived.sort())).toEqual([
      [0, 1],
      [0, 1],
    ]);
  });

  it("does not wait for a shard whose end its starter saw (a killed pod), and names it", async () => {
    const markers = folder();
    const notices: string[] = [];
    const waiting = [0, 1].map((index) =>
      gate(markers, index, { onNotice: (message) => notices.push(message) }),
    );
    while ((await markers.list("phase/4/")).length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await markers.put(goneKey(2), JSON.stringify({ index: 2 }));
    const passed = await Promise.all(waiting);
    expect(passed[0]?.startMs).toBe(passed[1]?.startMs);
    expect(passed.map((each) => each.arrived.sort())).toEqual([
      [0, 1],
      [0, 1],
    ]);
    expect(notices.sort()).toEqual([
      "shard 0: shard 2 ended without its result (its pod failed); phase 4 starts without it",
      "shard 1: shard 2 ended without its result (its pod failed); phase 4 starts without it",
    ]);
  });

  it("leaves behind a shard that does not come within the wait, and says so", async () => {
    const markers = folder();
    let aheadMs = 0;
    const now = () => Date.now() + aheadMs;
    const notices: string[] = [];
    const waiting = [0, 1].map((index) =>
      gate(markers, index, { waitMs: 60_000, now, onNotice: (message) => notices.push(message) }),
    );
    while ((await markers.list("phase/4/")).length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    aheadMs = 120_000;
    const passed = await Promise.all(waiting);
    expect(passed[0]?.startMs).toBe(passed[1]?.startMs);
    expect(passed.map((each) => each.arrived.sort())).toEqual([
      [0, 1],
      [0, 1],
    ]);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatch(
      /shard [01]: shard 2 did not end phase 3 within 60 s of the first; phase 4 starts without it/,
    );
    // Coming late, it starts at once: the start the others took is behind it.
    const late = await gate(markers, 2, { waitMs: 60_000, now });
    expect(late.startMs).toBe(passed[0]?.startMs);
  });
});
