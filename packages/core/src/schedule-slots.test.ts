import { describe, expect, it } from "vitest";
import { createScheduleSlots, type ScheduleOrder } from "./schedule-slots.ts";

/** Every start the order releases (null ends it), and that it stays ended. */
function startsOf(order: ScheduleOrder): number[] {
  const slots = createScheduleSlots(order);
  const starts: number[] = [];
  for (let start = slots.next(); start !== null; start = slots.next()) starts.push(start);
  expect(slots.next()).toBeNull();
  return starts;
}

const fixed = (rateHz: number) => ({ arrivals: "fixed" as const, rateHz, seed: 1 });

describe("createScheduleSlots", () => {
  it.each<[string, ScheduleOrder, number[]]>([
    [
      "evenly spaced from the phase's start",
      { schedule: fixed(1000), startUs: 5000, count: 4, deadlineUs: null, shard: null },
      [5000, 6000, 7000, 8000],
    ],
    [
      "none at or after the deadline",
      { schedule: fixed(1000), startUs: 5000, count: 10, deadlineUs: 8000, shard: null },
      [5000, 6000, 7000],
    ],
    [
      "whole µs of a rate that does not divide a second",
      { schedule: fixed(3), startUs: 0, count: 4, deadlineUs: null, shard: null },
      [0, 333_333, 666_667, 1_000_000],
    ],
    [
      "a shard's own requests, at their starts in the whole schedule",
      {
        schedule: fixed(1000),
        startUs: 0,
        count: 3,
        deadlineUs: null,
        shard: { index: 1, count: 3 },
      },
      [1000, 4000, 7000],
    ],
    [
      "a shard stops at the deadline, even on another shard's request",
      {
        schedule: fixed(1000),
        startUs: 0,
        count: 10,
        deadlineUs: 5000,
        shard: { index: 0, count: 2 },
      },
      [0, 2000, 4000],
    ],
    [
      "nothing for a count of 0",
      { schedule: fixed(1000), startUs: 0, count: 0, deadlineUs: null, shard: null },
      [],
    ],
    [
      "nothing when the deadline is the start",
      { schedule: fixed(1000), startUs: 100, count: 5, deadlineUs: 100, shard: null },
      [],
    ],
    [
      "one request",
      { schedule: fixed(0.5), startUs: 7, count: 1, deadlineUs: null, shard: null },
      [7],
    ],
  ])("%s", (_, order, expected) => {
    expect(startsOf(order)).toEqual(expected);
  });

  it("plans Poisson arrivals the same from the same seed, in order, whole µs", () => {
    const order = (seed: number): ScheduleOrder => ({
      schedule: { arrivals: "poisson", rateHz: 2000, seed },
      startUs: 1_000,
      count: 500,
      deadlineUs: null,
      shard: null,
    });
    const starts = startsOf(order(4));
    expect(starts).toHaveLength(500);
    expect(starts[0]).toBe(1_000);
    expect(
      starts.every((start, index) => Number.isInteger(start) && start >= (starts[index - 1] ?? 0)),
    ).toBe(true);
    expect(startsOf(order(4))).toEqual(starts);
    expect(startsOf(order(5))).not.toEqual(starts);
    // 500 gaps of 500 µs on average: well within a factor of two of 250 ms.
    const spanUs = (starts.at(-1) as number) - 1_000;
    expect(spanUs).toBeGreaterThan(125_000);
    expect(spanUs).toBeLessThan(500_000);
  });

  it("deals the shards of a run the whole schedule between them, each request once", () => {
    const whole = startsOf({
      schedule: { arrivals: "poisson", rateHz: 1000, seed: 2 },
      startUs: 0,
      count: 90,
      deadlineUs: null,
      shard: null,
    });
    const shards = [0, 1, 2].flatMap((index) =>
      startsOf({
        schedule: { arrivals: "poisson", rateHz: 1000, seed: 2 },
        startUs: 0,
        count: 30,
        deadlineUs: null,
        shard: { index, count: 3 },
      }),
    );
    expect(shards.sort((a, b) => a - b)).toEqual(whole);
  });

  it("refuses a rate that is not a positive number", () => {
    expect(() =>
      createScheduleSlots({
        schedule: fixed(0),
        startUs: 0,
        count: 1,
        deadlineUs: null,
        shard: null,
      }),
    ).toThrow(RangeError);
  });
});
