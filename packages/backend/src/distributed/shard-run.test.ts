import { describe, expect, it } from "vitest";
import { progressIntervalMs, recentSecondsOf } from "./shard-run.ts";

describe("a shard's progress", () => {
  it.each([
    [1, 1_000],
    [100, 1_000],
    [101, 2_000],
    [500, 5_000],
  ])("of %i shards is rewritten every %i ms: at most ~100 writes a second", (shards, ms) => {
    expect(progressIntervalMs(shards)).toBe(ms);
  });

  it.each([
    [1, 10],
    [500, 50],
  ])(
    "of %i shards carries its phase's newest %i seconds: ten rewrites' worth",
    (shards, seconds) => {
      expect(recentSecondsOf(shards)).toBe(seconds);
    },
  );
});
