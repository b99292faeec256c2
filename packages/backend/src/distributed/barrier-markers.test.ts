import { describe, expect, it } from "vitest";
import {
  alignedRunStartMs,
  countedReady,
  missingShards,
  parseAbort,
  parseReadyAt,
  readyAtKey,
  shardList,
  startTimeMs,
} from "./barrier-markers.ts";

describe("barrier markers", () => {
  it("carries the ready time in the key and reads it back", () => {
    expect(readyAtKey({ index: 7, readyAtMs: 1_700_000_000_123.6 })).toBe(
      "ready-at/7@1700000000124",
    );
    expect(parseReadyAt("7@1700000000124")).toEqual({ index: 7, readyAtMs: 1_700_000_000_124 });
    for (const name of ["7", "7@", "@5", "x@5", "7@5/extra"]) expect(parseReadyAt(name)).toBeNull();
    expect(parseAbort("12")).toBe(12);
    expect(parseAbort("12.json")).toBeNull();
  });

  it("counts one marker per index of the run, ready by the deadline", () => {
    const counted = countedReady(
      [
        { index: 2, readyAtMs: 50 },
        { index: 0, readyAtMs: 10 },
        { index: 0, readyAtMs: 5 }, // a duplicate: the earliest is kept
        { index: 1, readyAtMs: 101 }, // after the deadline
        { index: 4, readyAtMs: 20 }, // not an index of this run
      ],
      { shards: 4, deadlineMs: 100 },
    );
    expect(counted).toEqual([
      { index: 0, readyAtMs: 5 },
      { index: 2, readyAtMs: 50 },
    ]);
    expect(missingShards(counted, 4)).toEqual([1, 3]);
  });

  it.each([
    { startAtMs: 0, lastReadyMs: 1_000, graceMs: 500, t0: 2_000 },
    { startAtMs: 0, lastReadyMs: 1_500, graceMs: 500, t0: 2_000 },
    { startAtMs: 9_000, lastReadyMs: 1_000, graceMs: 500, t0: 9_000 },
    { startAtMs: 1_400, lastReadyMs: 1_000, graceMs: 400, t0: 1_400 },
    { startAtMs: 1_400, lastReadyMs: 1_000, graceMs: 401, t0: 2_400 },
  ])(
    "starts at the first whole second after startAt past the last ready + grace: $t0",
    ({ startAtMs, lastReadyMs, graceMs, t0 }) => {
      const counted = [
        { index: 0, readyAtMs: 10 },
        { index: 1, readyAtMs: lastReadyMs },
      ];
      expect(startTimeMs(counted, { startAtMs, graceMs })).toBe(t0);
    },
  );

  it.each([
    { startAtMs: 10_250, nowMs: 10_250, runStart: 10_250 },
    { startAtMs: 10_250, nowMs: 13_249, runStart: 12_250 },
    { startAtMs: 10_250, nowMs: 7_000, runStart: 6_250 },
  ])("starts a shard's run clock whole seconds from startAt: $runStart", (row) => {
    expect(alignedRunStartMs(row.startAtMs, row.nowMs)).toBe(row.runStart);
  });

  it.each([
    [[], ""],
    [[3], "3"],
    [[1, 3], "1 and 3"],
    [[0, 1, 2], "0, 1 and 2"],
    [Array.from({ length: 12 }, (_, i) => i), "0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 2 more"],
  ])("names shards %j as %j", (indexes, text) => {
    expect(shardList(indexes)).toBe(text);
  });
});
