import { RunSpecSchema, type RunCleanup, type RunMeta, type RunStatus } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { killedShardLeftovers, leftoverStateOf } from "./run-leftovers.ts";

const endpoint = { url: "http://127.0.0.1:9000" };
const clean: RunCleanup = {
  at: "2026-01-01T00:00:00.000Z",
  removed: { objects: 10, uploads: 0, buckets: 0 },
  objectsLeft: 0,
  uploadsLeft: 0,
  bucketsLeft: [],
  unchecked: [],
  errorsByCode: {},
};
const left: RunCleanup = { ...clean, objectsLeft: 6_000, errorsByCode: { ECONNREFUSED: 6_000 } };

function meta(spec: Record<string, unknown>, cleanup: RunCleanup | null): RunMeta {
  return {
    schemaVersion: 3,
    id: "r",
    name: "r",
    tags: [],
    notes: "",
    createdAt: "2026-01-01T00:00:00.000Z",
    spec: RunSpecSchema.parse({ clients: 1, samples: 1, objectSize: 1, ...spec }),
    environment: {
      taillabVersion: "0",
      os: "linux",
      cpuModel: "cpu",
      cpuCount: 2,
      memoryBytes: 1,
      node: "v24",
      server: null,
    },
    keyPrefix: "taillab/r/",
    status: "complete",
    error: null,
    cleanup,
    recordsWritten: null,
  };
}

describe("what a stored run may have left on its server", () => {
  it.each<[string, Record<string, unknown>, RunCleanup | null, RunStatus, string]>([
    ["the embedded testbed keeps nothing", {}, null, "interrupted", "none"],
    ["a running run is not judged yet", { endpoints: [endpoint] }, null, "running", "none"],
    ["a cleanup that removed everything", { endpoints: [endpoint] }, clean, "stopped", "none"],
    ["a cleanup that left objects", { endpoints: [endpoint] }, left, "complete", "left"],
    ["killed before its cleanup", { endpoints: [endpoint] }, null, "interrupted", "possible"],
    ["failed before its cleanup", { endpoints: [endpoint] }, null, "failed", "possible"],
    [
      "kept its objects (no cleanup phase)",
      { endpoints: [endpoint], phases: ["write", "read"] },
      null,
      "complete",
      "possible",
    ],
    ["an older run that cleaned up as asked", { endpoints: [endpoint] }, null, "complete", "none"],
  ])("%s → %s", (_, spec, cleanup, status, kind) => {
    expect(leftoverStateOf(meta(spec, cleanup), status).kind).toBe(kind);
  });

  it("says why when no cleanup ran", () => {
    const kept = meta({ endpoints: [endpoint], phases: ["write"] }, null);
    expect(leftoverStateOf(kept, "complete")).toEqual({ kind: "possible", why: "kept" });
    const killed = meta({ endpoints: [endpoint] }, null);
    expect(leftoverStateOf(killed, "interrupted")).toEqual({
      kind: "possible",
      why: "ended-early",
    });
  });
});

describe("what the killed shards of a merged run left", () => {
  const distributed = (objectsLeft?: number) => ({
    distributed: {
      shardCount: 2,
      t0: null,
      startSpreadMs: null,
      clockSkewMs: null,
      clockSkewBoundMs: null,
      merged: [0],
      shards: [
        {
          index: 0,
          status: "complete" as const,
          problem: null,
          startOffsetMs: 0,
          clock: null,
          points: [],
        },
        {
          index: 1,
          status: "missing" as const,
          problem: "killed",
          startOffsetMs: null,
          clock: null,
          points: [],
          ...(objectsLeft === undefined ? {} : { objectsLeft }),
        },
      ],
    },
  });

  it("names each killed shard's objects under its own prefix until a cleanup ran", () => {
    const run = meta({ endpoints: [endpoint], keyPrefix: "taillab" }, null);
    expect(killedShardLeftovers(run, distributed(504))).toEqual([
      { index: 1, objects: 504, keyPrefix: "taillab/r-1/" },
    ]);
    expect(killedShardLeftovers(run, distributed())).toEqual([]);
    expect(killedShardLeftovers({ ...run, cleanup: clean }, distributed(504))).toEqual([]);
    expect(killedShardLeftovers(run, null)).toEqual([]);
  });
});
