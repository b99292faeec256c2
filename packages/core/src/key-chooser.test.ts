import { englishOf } from "@taillab/api";
import { describe, expect, it } from "vitest";
import {
  createKeyChooser,
  createZipfSampler,
  formatKeyChoice,
  parseKeyChoice,
  type KeyChoice,
} from "./key-chooser.ts";
import { createRandom, type Random } from "./random.ts";

const SEEDS = [1, 42, 777];

function keys(choice: KeyChoice, keyCount: number, count: number, seed = 1): number[] {
  const chooser = createKeyChooser(choice, keyCount, createRandom(seed));
  return Array.from({ length: count }, () => chooser.next());
}

function countsOf(values: readonly number[], size: number): number[] {
  const counts = new Array<number>(size).fill(0);
  for (const value of values) counts[value] = (counts[value] as number) + 1;
  return counts;
}

/** P(rank k) = k^−s / H(n, s), for ranks 1 … n. */
function zipfProbabilities(keyCount: number, exponent: number): number[] {
  const weights = Array.from({ length: keyCount }, (_, index) => (index + 1) ** -exponent);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => weight / total);
}

/** The 99.9th percentile of χ² with `df` degrees of freedom (Wilson–Hilferty). */
function chiSquare999(df: number): number {
  const spread = 2 / (9 * df);
  return df * (1 - spread + 3.09 * Math.sqrt(spread)) ** 3;
}

/**
 * Pearson's χ² of observed counts against probabilities, with every key whose expected count is
 * under 10 pooled into one cell so the χ² approximation holds.
 */
function chiSquare(counts: readonly number[], probabilities: readonly number[], draws: number) {
  let statistic = 0;
  let cells = 0;
  let pooledObserved = 0;
  let pooledExpected = 0;
  probabilities.forEach((probability, index) => {
    const expected = probability * draws;
    const observed = counts[index] as number;
    if (expected < 10) {
      pooledObserved += observed;
      pooledExpected += expected;
      return;
    }
    statistic += (observed - expected) ** 2 / expected;
    cells += 1;
  });
  if (pooledExpected > 0) {
    statistic += (pooledObserved - pooledExpected) ** 2 / pooledExpected;
    cells += 1;
  }
  return { statistic, df: cells - 1 };
}

describe("parseKeyChoice", () => {
  it.each<[string, KeyChoice]>([
    ["uniform", { kind: "uniform" }],
    [" Sequential ", { kind: "sequential" }],
    ["zipf:1.1", { kind: "zipf", exponent: 1.1 }],
    ["zipf:1", { kind: "zipf", exponent: 1 }],
    ["ZIPF: 0.99", { kind: "zipf", exponent: 0.99 }],
    ["zipf:.5", { kind: "zipf", exponent: 0.5 }],
    ["zipf:20", { kind: "zipf", exponent: 20 }],
  ])("reads %j", (text, expected) => {
    expect(parseKeyChoice(text)).toEqual({ ok: true, value: expected });
  });

  const RANGE =
    "the zipf exponent must be a number above 0 and at most 20 (0.99 is YCSB's, 1.1 a common hot set)";
  it.each([
    [
      "random",
      '"random" — unknown key choice; expected uniform, sequential or zipf:EXPONENT (e.g. zipf:1.1)',
    ],
    ["", '"" — unknown key choice; expected uniform, sequential or zipf:EXPONENT (e.g. zipf:1.1)'],
    ["zipf", '"zipf" — zipf needs an exponent, e.g. zipf:1.1'],
    ["zipf:", '"zipf:" — zipf needs an exponent, e.g. zipf:1.1'],
    ["zipf:0", `"zipf:0" — ${RANGE}`],
    ["zipf:-1", `"zipf:-1" — ${RANGE}`],
    ["zipf:hot", `"zipf:hot" — ${RANGE}`],
    ["zipf:21", `"zipf:21" — ${RANGE}`],
  ])("rejects %j", (text, reason) => {
    const parsed = parseKeyChoice(text);
    expect(parsed.ok ? parsed : englishOf(parsed.reason)).toBe(reason);
  });

  it.each(["uniform", "sequential", "zipf:1.1", "zipf:0.5"])(
    "formats %j back to itself",
    (text) => {
      const parsed = parseKeyChoice(text);
      if (!parsed.ok) throw new Error(englishOf(parsed.reason));
      expect(formatKeyChoice(parsed.value)).toBe(text);
    },
  );
});

describe("sequential keys", () => {
  it.each([
    [1, [0, 0, 0]],
    [3, [0, 1, 2, 0, 1, 2, 0]],
    [5, [0, 1, 2, 3, 4, 0]],
  ])("over %d keys go in order and wrap: %j", (keyCount, expected) => {
    expect(keys({ kind: "sequential" }, keyCount, expected.length)).toEqual(expected);
  });
});

describe("uniform keys", () => {
  it.each(SEEDS)("are flat over 100 keys (χ² below its 99.9th percentile, seed %d)", (seed) => {
    const draws = 100_000;
    const counts = countsOf(keys({ kind: "uniform" }, 100, draws, seed), 100);
    const { statistic, df } = chiSquare(counts, new Array<number>(100).fill(0.01), draws);
    expect(df).toBe(99);
    expect(statistic).toBeLessThan(chiSquare999(df));
  });

  it("stay inside a 10-million key space and reach both halves of it", () => {
    const values = keys({ kind: "uniform" }, 10_000_000, 10_000, 3);
    expect(values.every((key) => Number.isInteger(key) && key >= 0 && key < 10_000_000)).toBe(true);
    const upper = values.filter((key) => key >= 5_000_000).length / values.length;
    expect(Math.abs(upper - 0.5)).toBeLessThan(0.03);
  });
});

describe("zipf keys", () => {
  const DRAWS = 200_000;

  describe.each([0.5, 0.99, 1, 1.1, 2, 5])("exponent %d over 1000 keys", (exponent) => {
    const probabilities = zipfProbabilities(1000, exponent);

    it.each(SEEDS)("fit k^−s (χ² below its 99.9th percentile, seed %d)", (seed) => {
      const counts = countsOf(keys({ kind: "zipf", exponent }, 1000, DRAWS, seed), 1000);
      const { statistic, df } = chiSquare(counts, probabilities, DRAWS);
      expect(statistic).toBeLessThan(chiSquare999(df));
    });

    it.each(SEEDS)("have f(1)/f(2) ≈ 2^s and the analytic top-10 share (seed %d)", (seed) => {
      const counts = countsOf(keys({ kind: "zipf", exponent }, 1000, DRAWS, seed), 1000);
      const [first = 0, second = 0] = counts;
      // Four standard errors of the log of a ratio of two counts.
      const ratioTolerance = 4 * Math.sqrt(1 / first + 1 / second);
      expect(Math.abs(Math.log(first / second) - exponent * Math.LN2)).toBeLessThan(ratioTolerance);
      const topShare = counts.slice(0, 10).reduce((sum, count) => sum + count, 0) / DRAWS;
      const expectedTop = probabilities.slice(0, 10).reduce((sum, p) => sum + p, 0);
      const shareTolerance = 4 * Math.sqrt((expectedTop * (1 - expectedTop)) / DRAWS);
      expect(Math.abs(topShare - expectedTop)).toBeLessThan(shareTolerance);
    });
  });

  describe.each([0.99, 1.1])("exponent %d over 10 million keys", (exponent) => {
    const keyCount = 10_000_000;
    const probabilities = zipfProbabilities(keyCount, exponent);
    const expectedTop = probabilities.slice(0, 10).reduce((sum, p) => sum + p, 0);
    const expectedTop1000 = probabilities.slice(0, 1000).reduce((sum, p) => sum + p, 0);

    it("matches the analytic top-10 and top-1000 shares and stays in range", () => {
      const values = keys({ kind: "zipf", exponent }, keyCount, DRAWS, 9);
      expect(values.every((key) => Number.isInteger(key) && key >= 0 && key < keyCount)).toBe(true);
      for (const [top, expected] of [
        [10, expectedTop],
        [1000, expectedTop1000],
      ] as const) {
        const share = values.filter((key) => key < top).length / DRAWS;
        const tolerance = 4 * Math.sqrt((expected * (1 - expected)) / DRAWS);
        expect(Math.abs(share - expected)).toBeLessThan(tolerance);
      }
      // The tail is reached too: about 30 % (s = 0.99) or 20 % (s = 1.1) of draws fall past key 100 000.
      const tail = values.filter((key) => key >= 100_000).length / DRAWS;
      const expectedTail = 1 - probabilities.slice(0, 100_000).reduce((sum, p) => sum + p, 0);
      expect(Math.abs(tail - expectedTail)).toBeLessThan(
        4 * Math.sqrt((expectedTail * (1 - expectedTail)) / DRAWS),
      );
    });
  });

  it.each([
    [0.5, 10_000_000],
    [1.1, 10_000_000],
    [2, 1000],
    [1, 2],
  ])("takes fewer than 1.1 tries a draw on average (s = %d, n = %d)", (exponent, keyCount) => {
    const source = createRandom(4);
    let uniforms = 0;
    const counting: Random = {
      ...source,
      next: () => {
        uniforms += 1;
        return source.next();
      },
    };
    const sample = createZipfSampler(keyCount, exponent, counting);
    for (let draw = 0; draw < 10_000; draw += 1) sample();
    // Each try takes one 53-bit uniform, made of two 32-bit draws.
    expect(uniforms / 2 / 10_000).toBeLessThan(1.1);
  });

  it("with two keys and s = 1, draws key 0 two thirds of the time", () => {
    const values = keys({ kind: "zipf", exponent: 1 }, 2, 100_000, 8);
    const zeros = values.filter((key) => key === 0).length / values.length;
    expect(Math.abs(zeros - 2 / 3)).toBeLessThan(0.006);
  });

  it("with a steep exponent nearly always draws key 0", () => {
    const values = keys({ kind: "zipf", exponent: 20 }, 1_000_000, 10_000, 2);
    expect(values.filter((key) => key !== 0).length).toBeLessThanOrEqual(2);
  });
});

describe("createKeyChooser", () => {
  it.each<KeyChoice>([
    { kind: "uniform" },
    { kind: "sequential" },
    { kind: "zipf", exponent: 1.1 },
  ])("with one key always gives key 0 (%j)", (choice) => {
    expect(keys(choice, 1, 50)).toEqual(new Array<number>(50).fill(0));
  });

  it.each<KeyChoice>([{ kind: "uniform" }, { kind: "zipf", exponent: 1.1 }])(
    "replays from the same seed (%j)",
    (choice) => {
      expect(keys(choice, 1000, 100, 12)).toEqual(keys(choice, 1000, 100, 12));
      expect(keys(choice, 1000, 100, 12)).not.toEqual(keys(choice, 1000, 100, 13));
    },
  );

  it.each([0, -1, 2.5, Number.NaN])("refuses %d keys", (keyCount) => {
    expect(() => createKeyChooser({ kind: "uniform" }, keyCount, createRandom(1))).toThrow(
      /keyCount/,
    );
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])(
    "refuses the Zipf exponent %d",
    (exponent) => {
      expect(() => createZipfSampler(10, exponent, createRandom(1))).toThrow(/exponent/);
    },
  );
});
