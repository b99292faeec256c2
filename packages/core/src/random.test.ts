import { describe, expect, it } from "vitest";
import { createRandom } from "./random.ts";

const DRAWS = 100_000;
const SEEDS = [1, 42, 20_240_601];

function draw(count: number, sample: () => number): number[] {
  return Array.from({ length: count }, sample);
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function variance(values: readonly number[]): number {
  const average = mean(values);
  return values.reduce((sum, value) => sum + (value - average) ** 2, 0) / (values.length - 1);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

// Tolerances are about four standard errors of each estimate at 100 000 draws, so they catch a
// wrong formula (off by far more) without being a coin toss on the seed.
describe.each(SEEDS)("createRandom(%d)", (seed) => {
  it("draws uniforms in [0, 1) with mean 1/2 and variance 1/12", () => {
    const values = draw(DRAWS, createRandom(seed).next);
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    expect(mean(values)).toBeCloseTo(0.5, 2);
    expect(Math.abs(variance(values) / (1 / 12) - 1)).toBeLessThan(0.01);
  });

  it("draws exponentials with the given mean and tail P(X > t) = e^(−t/mean)", () => {
    const meanValue = 8;
    const random = createRandom(seed);
    const values = draw(DRAWS, () => random.exponential(meanValue));
    expect(Math.abs(mean(values) / meanValue - 1)).toBeLessThan(0.015);
    for (const t of [0.5, 1, 2, 4].map((multiple) => multiple * meanValue)) {
      const tail = values.filter((value) => value > t).length / DRAWS;
      expect(Math.abs(tail - Math.exp(-t / meanValue))).toBeLessThan(0.006);
    }
  });

  it("draws standard normals", () => {
    const random = createRandom(seed);
    const values = draw(DRAWS, random.normal);
    expect(Math.abs(mean(values))).toBeLessThan(0.015);
    expect(Math.abs(variance(values) - 1)).toBeLessThan(0.02);
    const withinOneSd = values.filter((value) => Math.abs(value) < 1).length / DRAWS;
    expect(Math.abs(withinOneSd - 0.6827)).toBeLessThan(0.006);
  });

  it("draws lognormals with the given median and log standard deviation", () => {
    const random = createRandom(seed);
    const values = draw(DRAWS, () => random.lognormal(5, 0.5));
    expect(Math.abs(median(values) / 5 - 1)).toBeLessThan(0.01);
    const logSd = Math.sqrt(variance(values.map(Math.log)));
    expect(Math.abs(logSd / 0.5 - 1)).toBeLessThan(0.01);
  });

  it.each([0, 0.01, 0.3, 1])("says yes with probability %d", (probability) => {
    const random = createRandom(seed);
    const yes = draw(DRAWS, () => (random.chance(probability) ? 1 : 0));
    expect(Math.abs(mean(yes) - probability)).toBeLessThan(0.006);
  });
});

describe("createRandom seeding", () => {
  it("replays the same sequence from the same seed", () => {
    const first = createRandom(7);
    const second = createRandom(7);
    const take = (random: ReturnType<typeof createRandom>) => [
      ...draw(100, random.next),
      ...draw(5, random.normal),
      random.exponential(3),
      random.lognormal(5, 0.2),
    ];
    expect(take(first)).toEqual(take(second));
  });

  it("gives unrelated sequences for neighbouring seeds", () => {
    const one = draw(1000, createRandom(1).next);
    const two = draw(1000, createRandom(2).next);
    const same = one.filter((value, index) => value === two[index]).length;
    expect(same).toBe(0);
    const correlation =
      one.reduce((sum, value, index) => sum + (value - 0.5) * ((two[index] as number) - 0.5), 0) /
      1000 /
      (1 / 12);
    expect(Math.abs(correlation)).toBeLessThan(0.15);
  });
});
