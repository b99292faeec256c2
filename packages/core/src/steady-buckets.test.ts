import { describe, expect, it } from "vitest";
import { SteadyBuckets } from "./steady-buckets.ts";

describe("SteadyBuckets", () => {
  // Before the run clock's zero (a shard's account moved to T0), across chunk edges, and an hour
  // later (a repetition): bucket, answers, bytes.
  const added: [number, number, number][] = [
    [-3, 1, 100],
    [0, 2, 200],
    [1023, 1, 50],
    [1024, 4, 400],
    [1023, 1, 0],
    [360_000, 1, 10],
  ];

  function filled(): SteadyBuckets {
    const buckets = new SteadyBuckets();
    for (const [bucket, answers, bytes] of added) buckets.add(bucket, answers, bytes);
    return buckets;
  }

  it.each([
    [-10, 400_000],
    [-3, -2],
    [0, 1024],
    [1023, 1025],
    [1025, 360_000],
    [360_000, 360_001],
  ])("sums the buckets from %d up to %d as one by one", (from, to) => {
    const inRange = added.filter(([bucket]) => bucket >= from && bucket < to);
    expect(filled().sum(from, to)).toEqual({
      answers: inRange.reduce((sum, [, answers]) => sum + answers, 0),
      bytes: inRange.reduce((sum, [, , bytes]) => sum + bytes, 0),
    });
  });

  it("lists the buckets with answers, lowest first, each once", () => {
    expect(filled().flattened()).toEqual([
      -3, 1, 100, 0, 2, 200, 1023, 2, 50, 1024, 4, 400, 360_000, 1, 10,
    ]);
    const cleared = filled();
    cleared.clear();
    expect(cleared.flattened()).toEqual([]);
  });
});
