import { describe, expect, it } from "vitest";
import { createRandom, type Random } from "./random.ts";
import { createWeightedIndex, uniformFloat53, uniformInt } from "./uniform-draw.ts";

const SEEDS = [1, 42, 99_999];

/** A source that returns the given 32-bit fractions in turn. */
function scripted(values: readonly number[]): Random {
  let index = 0;
  const source = createRandom(1);
  return { ...source, next: () => values[index++ % values.length] as number };
}

describe("uniformFloat53", () => {
  it.each([
    [[0, 0], 0],
    [[0.5, 0], 0.5],
    [[1 - 2 ** -32, 1 - 2 ** -32], 1 - 2 ** -53],
  ])("combines two draws %j into %d", (draws, expected) => {
    expect(uniformFloat53(scripted(draws))).toBe(expected);
  });

  it.each(SEEDS)("is uniform in [0, 1) (seed %d)", (seed) => {
    const random = createRandom(seed);
    const values = Array.from({ length: 100_000 }, () => uniformFloat53(random));
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.004);
    // Resolution finer than 32 bits: many values are not multiples of 2^−32.
    expect(values.some((value) => (value * 2 ** 32) % 1 !== 0)).toBe(true);
  });
});

describe("uniformInt", () => {
  it.each(SEEDS)("draws each of 7 values about equally often (seed %d)", (seed) => {
    const random = createRandom(seed);
    const counts = new Array<number>(7).fill(0);
    for (let draw = 0; draw < 70_000; draw += 1) {
      const value = uniformInt(random, 7);
      counts[value] = (counts[value] as number) + 1;
    }
    for (const count of counts) expect(Math.abs(count / 10_000 - 1)).toBeLessThan(0.05);
  });

  it("reaches the last value of a huge range", () => {
    expect(uniformInt(scripted([1 - 2 ** -32]), 2 ** 40)).toBe(2 ** 40 - 1);
    expect(uniformInt(scripted([0]), 2 ** 40)).toBe(0);
  });

  it.each([0, -1, 1.5, Number.NaN, 2 ** 60])("refuses a count of %d", (count) => {
    expect(() => uniformInt(createRandom(1), count)).toThrow(/count/);
  });
});

describe("createWeightedIndex", () => {
  it.each(SEEDS)("draws indices in proportion to their weights (seed %d)", (seed) => {
    const pick = createWeightedIndex([1, 2, 7], createRandom(seed));
    const counts = [0, 0, 0];
    for (let draw = 0; draw < 100_000; draw += 1) {
      const index = pick();
      counts[index] = (counts[index] as number) + 1;
    }
    expect(counts.map((count) => Math.round(count / 1000))).toEqual([10, 20, 70]);
  });

  it.each([
    [0, 0],
    [0.25 - 2 ** -20, 0],
    [0.25, 1],
    [0.5 - 2 ** -20, 1],
    [0.5, 2],
    [1 - 2 ** -32, 2],
  ])("maps the uniform %d to index %d of weights [1, 1, 2]", (uniform, index) => {
    // The low draw is 0, so uniformFloat53 is the high draw truncated to 27 bits.
    expect(createWeightedIndex([1, 1, 2], scripted([uniform, 0]))()).toBe(index);
  });

  it.each([[[]], [[1, 0]], [[1, -1]], [[Number.NaN]], [[Number.POSITIVE_INFINITY]]])(
    "refuses the weights %j",
    (weights) => {
      expect(() => createWeightedIndex(weights, createRandom(1))).toThrow(/weights/);
    },
  );
});
