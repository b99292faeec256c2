import type { DistributedSummary } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { formatDistributedSummary } from "./distributed-text.ts";

const shard = { problem: null, startOffsetMs: 0, points: [] };

describe("a merged run's shards as text", () => {
  it("says why shards whose clocks were far apart have no start spread", () => {
    const distributed: DistributedSummary = {
      shardCount: 2,
      t0: "2026-11-28T03:00:00.000Z",
      startSpreadMs: null,
      clockSkewMs: 3010,
      clockSkewBoundMs: 80,
      clocksApart: { shards: [0, 1], apartMs: 3010, boundMs: 80 },
      merged: [0, 1],
      shards: [
        { ...shard, index: 0, status: "complete", clock: { offsetMs: 10, boundMs: 40 } },
        { ...shard, index: 1, status: "complete", clock: { offsetMs: -3000, boundMs: 40 } },
      ],
    };
    expect(formatDistributedSummary(distributed).split("\n").slice(0, 3)).toEqual([
      "Distributed: 2 shards, 2 merged; T0 2026-11-28T03:00:00.000Z; start spread -; clock skew 3010 ms (± 80 ms)",
      "the clocks of shards 0 and 1 were 3.0 s apart (± 0.08 s): each placed what it measured by its own clock, so no start spread nor window where every shard was busy is known",
      "  shard 0: complete, started +0.000 ms from T0, clock +10 ms (± 40 ms) off the server",
    ]);
  });
});
