import { RunSpecSchema } from "@taillab/api";
import { describe, expect, it } from "vitest";
import {
  evenShares,
  firstClientOfShard,
  ownsScheduledRequest,
  parseShardRole,
  shardPointParams,
  shardSpecProblems,
  shardWorkload,
} from "./shard-plan.ts";

describe("how shards share a spec", () => {
  it.each([
    [10, 4, [3, 3, 2, 2]],
    [8, 4, [2, 2, 2, 2]],
    [3, 4, [1, 1, 1, 0]],
    [7, 1, [7]],
  ])("splits %i over %i as %j", (total, parts, shares) => {
    expect(evenShares(total, parts)).toEqual(shares);
  });

  it("gives every client and request to exactly one shard, clients numbered on", () => {
    const whole = { clients: 10, samples: 1001, objectSizeBytes: 4096 };
    const roles = [0, 1, 2, 3].map((index) => ({ index, count: 4 }));
    const parts = roles.map((role) => shardPointParams(whole, role));
    expect(parts.reduce((sum, part) => sum + part.clients, 0)).toBe(10);
    expect(parts.reduce((sum, part) => sum + part.samples, 0)).toBe(1001);
    expect(parts.every((part) => part.objectSizeBytes === 4096)).toBe(true);
    const firsts = roles.map((role) => firstClientOfShard(10, role));
    expect(firsts).toEqual([0, 3, 6, 8]);
  });

  it("deals the open loop's schedule so the shards' requests are the whole schedule", () => {
    const count = 4;
    const owners = Array.from({ length: 103 }, (_, g) =>
      [0, 1, 2, 3].filter((index) => ownsScheduledRequest(g, { index, count })),
    );
    expect(owners.every((owner) => owner.length === 1)).toBe(true);
    // Each shard's number of requests is its share, as shardPointParams says.
    const perShard = [0, 1, 2, 3].map(
      (index) => owners.filter(([owner]) => owner === index).length,
    );
    expect(perShard).toEqual(evenShares(103, 4));
  });

  it("shares a workload's prepared objects and byte budget, so the shards do what the spec asks once", () => {
    const { workload } = RunSpecSchema.parse({
      clients: 8,
      samples: 100,
      objectSize: 1024,
      workload: {
        ops: "get:70,put:30",
        prepareObjects: 1001,
        totalBytes: "1MiB",
        keys: "zipf:1.1",
      },
    });
    if (!workload) throw new Error("no workload");
    const parts = [0, 1, 2, 3].map((index) => shardWorkload(workload, { index, count: 4 }));
    expect(parts.map((part) => part.prepareObjects)).toEqual([251, 250, 250, 250]);
    expect(parts.reduce((sum, part) => sum + (part.totalBytes ?? 0), 0)).toBe(1024 * 1024);
    expect(parts.map((part) => part.totalBytes)).toEqual(Array(4).fill(262_144));
    // Each shard draws its own sequence; everything else is the spec's: the same mix and key choice.
    expect(parts.map((part) => part.seed)).toEqual([0, 1, 2, 3].map((i) => workload.seed + i));
    for (const part of parts) {
      expect({ ...part, prepareObjects: 0, totalBytes: 0, seed: 0 }).toEqual({
        ...workload,
        prepareObjects: 0,
        totalBytes: 0,
        seed: 0,
      });
    }
    const { totalBytes, ...unbounded } = workload;
    expect(totalBytes).toBe(1024 * 1024);
    expect(shardWorkload(unbounded, { index: 0, count: 4 })).not.toHaveProperty("totalBytes");
  });

  it.each([
    ["0/4", { index: 0, count: 4 }],
    ["3/4", { index: 3, count: 4 }],
    ["4/4", { problem: "shard 4 does not exist in 4 shards (0 to 3)" }],
    ["0/0", { problem: "the shard count must be at least 1, got 0" }],
    ["a/4", { problem: 'expected I/N, e.g. 0/4 (shard 0 of 4), got "a/4"' }],
  ])("reads --shard %s", (text, role) => {
    expect(parseShardRole(text)).toEqual(role);
  });

  it("refuses a spec its shards cannot share, naming the field", () => {
    const spec = RunSpecSchema.parse({
      clients: 1,
      samples: 3,
      objectSize: 1024,
      points: [
        { clients: 8, samples: 100, objectSize: 1024 },
        { clients: 2, samples: 3, objectSize: 1024 },
      ],
    });
    expect(shardSpecProblems(spec, 4).map((problem) => problem.field)).toEqual([
      "endpoint",
      "clients",
      "samples",
    ]);
    const shared = RunSpecSchema.parse({
      endpoints: [{ url: "http://127.0.0.1:9000" }],
      clients: 8,
      samples: 100,
      objectSize: 1024,
    });
    expect(shardSpecProblems(shared, 4)).toEqual([]);
  });

  it("refuses a workload whose prepared objects or bytes are fewer than its shards", () => {
    const spec = RunSpecSchema.parse({
      endpoints: [{ url: "http://127.0.0.1:9000" }],
      clients: 8,
      samples: 100,
      objectSize: 1024,
      workload: { ops: "get:100", prepareObjects: 3, totalBytes: 2 },
    });
    expect(shardSpecProblems(spec, 4)).toMatchObject([
      {
        field: "workload.prepareObjects",
        code: "shardsTooFewPrepared",
        message: "3 prepared objects cannot be shared by 4 shards: give at least one per shard",
      },
      {
        field: "workload.totalBytes",
        code: "shardsTooFewBytes",
        message: "2 bytes cannot be shared by 4 shards: give at least one byte per shard",
      },
    ]);
  });

  it("refuses an open loop until stopped, naming it rather than its samples", () => {
    const spec = RunSpecSchema.parse({
      endpoints: [{ url: "http://127.0.0.1:9000" }],
      clients: 8,
      objectSize: 1024,
      workload: { ops: "GET:100", prepareObjects: 10 },
      openLoop: { rateHz: 50, untilStopped: true },
    });
    expect(shardSpecProblems(spec, 4)).toMatchObject([
      {
        field: "openLoop.untilStopped",
        code: "shardsNotUntilStopped",
        message:
          "a distributed run ends by itself: give the open loop samples or a duration, not until stopped",
      },
    ]);
  });
});
