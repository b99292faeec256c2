import { englishOf } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { createRandom } from "./random.ts";
import {
  createSizeSampler,
  formatExactByteSize,
  formatSizeDistribution,
  lognormalParameters,
  maxSizeBytes,
  meanSizeBytes,
  minSizeBytes,
  parseSizeDistribution,
  scaleSizeDistribution,
  type SizeDistribution,
} from "./size-distribution.ts";

const KiB = 1024;
const MiB = 1024 * KiB;
const DRAWS = 100_000;
const SEEDS = [1, 42, 987_654];

function distributionOf(text: string): SizeDistribution {
  const parsed = parseSizeDistribution(text);
  if (!parsed.ok) throw new Error(englishOf(parsed.reason));
  return parsed.value;
}

function draws(distribution: SizeDistribution, seed: number, count = DRAWS): number[] {
  const sampler = createSizeSampler(distribution, createRandom(seed));
  return Array.from({ length: count }, () => sampler.nextSizeBytes());
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function share(values: readonly number[], predicate: (value: number) => boolean): number {
  return values.filter(predicate).length / values.length;
}

describe("parseSizeDistribution", () => {
  it.each<[string, SizeDistribution]>([
    ["32KiB", { kind: "fixed", sizeBytes: 32 * KiB }],
    [" 4MB ", { kind: "fixed", sizeBytes: 4_000_000 }],
    ["1024", { kind: "fixed", sizeBytes: 1024 }],
    ["4KiB,64KiB,1MiB", { kind: "list", sizesBytes: [4 * KiB, 64 * KiB, MiB] }],
    ["4KiB, 4KiB ,1MiB", { kind: "list", sizesBytes: [4 * KiB, 4 * KiB, MiB] }],
    ["uniform:4KiB:4MiB", { kind: "uniform", minBytes: 4 * KiB, maxBytes: 4 * MiB }],
    ["Uniform: 1 : 4", { kind: "uniform", minBytes: 1, maxBytes: 4 }],
    ["lognormal:64KiB:4MiB", { kind: "lognormal", minBytes: 64 * KiB, maxBytes: 4 * MiB }],
    [
      "histogram:4KiB=50,64KiB=30,1MiB=20",
      {
        kind: "histogram",
        bins: [
          { sizeBytes: 4 * KiB, weightPct: 50 },
          { sizeBytes: 64 * KiB, weightPct: 30 },
          { sizeBytes: MiB, weightPct: 20 },
        ],
      },
    ],
    [
      "histogram:1KiB=1,2KiB=3",
      {
        kind: "histogram",
        bins: [
          { sizeBytes: KiB, weightPct: 25 },
          { sizeBytes: 2 * KiB, weightPct: 75 },
        ],
      },
    ],
  ])("reads %j", (text, expected) => {
    expect(parseSizeDistribution(text)).toEqual({ ok: true, value: expected });
  });

  const EXPECTED =
    "expected a size (32KiB), a list (4KiB,64KiB,1MiB), uniform:MIN:MAX, lognormal:MIN:MAX or histogram:SIZE=WEIGHT,…";
  it.each([
    ["", `the object size is empty; ${EXPECTED}`],
    [
      "32Kx",
      '"32Kx" has an unknown unit "Kx"; expected one of B, KiB, MiB, GiB, TiB, KB, MB, GB, TB',
    ],
    ["4KiB,-1,1MiB", '"-1" must be greater than 0 bytes'],
    ["4KiB,,1MiB", `"4KiB,,1MiB" — has an empty item; ${EXPECTED}`],
    ["6TiB", '"6TiB" is larger than 5TiB, S3\'s largest object'],
    ["gauss:1KiB:2KiB", `"gauss:1KiB:2KiB" — unknown size distribution "gauss"; ${EXPECTED}`],
    [
      "uniform:4KiB",
      '"uniform:4KiB" — expected uniform:MIN:MAX with two sizes, e.g. uniform:64KiB:4MiB',
    ],
    [
      "lognormal:64KiB:4Mx",
      '"lognormal:64KiB:4Mx" — upper bound "4Mx" has an unknown unit "Mx"; expected one of B, KiB, MiB, GiB, TiB, KB, MB, GB, TB',
    ],
    ["lognormal:0:4MiB", '"lognormal:0:4MiB" — lower bound "0" must be greater than 0 bytes'],
    [
      "uniform:4MiB:4KiB",
      '"uniform:4MiB:4KiB" — the lower bound must be below the upper bound (for one size, write just the size)',
    ],
    [
      "uniform:4KiB:4KiB",
      '"uniform:4KiB:4KiB" — the lower bound must be below the upper bound (for one size, write just the size)',
    ],
    ["histogram:4KiB", '"4KiB" — expected SIZE=WEIGHT, e.g. histogram:4KiB=50,64KiB=30,1MiB=20'],
    ["histogram:4KiB=0,8KiB=1", '"4KiB=0" — weight "0" must be greater than 0'],
    [
      "histogram:4Kx=1",
      '"4Kx=1" — "4Kx" has an unknown unit "Kx"; expected one of B, KiB, MiB, GiB, TiB, KB, MB, GB, TB',
    ],
    [
      "histogram:4KiB=1,4096=2",
      '"4096=2" — the size appears twice in "histogram:4KiB=1,4096=2"; give each size once',
    ],
  ])("rejects %j", (text, reason) => {
    const parsed = parseSizeDistribution(text);
    expect(parsed.ok ? parsed : englishOf(parsed.reason)).toBe(reason);
  });

  it.each([
    "32KiB",
    "4MB",
    "1000",
    "4KiB,64KiB,1MiB",
    "uniform:4KiB:4MiB",
    "lognormal:1MB:1GB",
    "histogram:4KiB=50,64KiB=30,1MiB=20",
    "histogram:1KiB=1,2KiB=2",
  ])("formats %j as text that reads back the same", (text) => {
    const distribution = distributionOf(text);
    expect(distributionOf(formatSizeDistribution(distribution))).toEqual(distribution);
  });
});

describe("formatExactByteSize", () => {
  it.each([
    [1, "1"],
    [1000, "1KB"],
    [1023, "1023"],
    [1024, "1KiB"],
    [40_000, "40KB"],
    [419_430, "419430"],
    [1_024_000, "1024KB"],
    [4 * MiB, "4MiB"],
    [5e9, "5GB"],
    [5 * 1024 ** 4, "5TiB"],
  ])("spells %d bytes %j", (bytes, text) => {
    expect(formatExactByteSize(bytes)).toBe(text);
    expect(distributionOf(text)).toEqual({ kind: "fixed", sizeBytes: bytes });
  });
});

describe("lognormalParameters", () => {
  it("puts the median at the geometric mean and the bounds at the 0.5th and 99.5th percentiles", () => {
    const { median, sigma } = lognormalParameters(64 * KiB, 4 * MiB);
    expect(median).toBe(512 * KiB);
    expect(Math.log((4 * MiB) / median) / sigma).toBeCloseTo(2.5758, 4);
  });
});

describe("size samplers", () => {
  it.each(SEEDS)("fixed: always the size (seed %d)", (seed) => {
    expect(new Set(draws(distributionOf("32KiB"), seed, 1000))).toEqual(new Set([32 * KiB]));
  });

  it.each(SEEDS)("list: each size about equally often (seed %d)", (seed) => {
    const values = draws(distributionOf("4KiB,64KiB,1MiB"), seed);
    for (const size of [4 * KiB, 64 * KiB, MiB]) {
      expect(Math.abs(share(values, (value) => value === size) - 1 / 3)).toBeLessThan(0.01);
    }
  });

  it.each(SEEDS)(
    "uniform: whole bytes between the bounds, flat, mean in the middle (seed %d)",
    (seed) => {
      const values = draws(distributionOf("uniform:4KiB:4MiB"), seed);
      expect(
        values.every((value) => Number.isInteger(value) && value >= 4 * KiB && value <= 4 * MiB),
      ).toBe(true);
      expect(
        Math.abs(mean(values) / meanSizeBytes(distributionOf("uniform:4KiB:4MiB")) - 1),
      ).toBeLessThan(0.01);
      expect(
        Math.abs(
          share(values, (value) => value < 2 * MiB) - (2 * MiB - 4 * KiB) / (4 * MiB - 4 * KiB + 1),
        ),
      ).toBeLessThan(0.01);
    },
  );

  it.each(SEEDS)("uniform: reaches both bounds of a small range equally (seed %d)", (seed) => {
    const values = draws(distributionOf("uniform:1:4"), seed);
    for (const size of [1, 2, 3, 4]) {
      expect(Math.abs(share(values, (value) => value === size) - 0.25)).toBeLessThan(0.01);
    }
  });

  describe.each(["lognormal:64KiB:4MiB", "lognormal:1MB:1GB", "lognormal:1KiB:2KiB"])(
    "%s",
    (text) => {
      const distribution = distributionOf(text);
      const minBytes = minSizeBytes(distribution);
      const maxBytes = maxSizeBytes(distribution);

      it.each(SEEDS)("has its median at the geometric mean of the bounds (seed %d)", (seed) => {
        const sorted = draws(distribution, seed).sort((a, b) => a - b);
        const median = sorted[DRAWS / 2] as number;
        expect(Math.abs(median / Math.sqrt(minBytes * maxBytes) - 1)).toBeLessThan(0.02);
      });

      it.each(SEEDS)("puts 99 % inside the bounds and clamps 0.5 % to each (seed %d)", (seed) => {
        const values = draws(distribution, seed);
        expect(
          values.every(
            (value) => Number.isInteger(value) && value >= minBytes && value <= maxBytes,
          ),
        ).toBe(true);
        // ±0.15 % is about 7 standard errors of a 0.5 % share at 100 000 draws.
        expect(Math.abs(share(values, (value) => value === minBytes) - 0.005)).toBeLessThan(0.0015);
        expect(Math.abs(share(values, (value) => value === maxBytes) - 0.005)).toBeLessThan(0.0015);
      });

      it.each(SEEDS)("has the mean meanSizeBytes computes (seed %d)", (seed) => {
        expect(
          Math.abs(mean(draws(distribution, seed)) / meanSizeBytes(distribution) - 1),
        ).toBeLessThan(0.01);
      });
    },
  );

  it.each(SEEDS)("histogram: sizes in their weights (seed %d)", (seed) => {
    const values = draws(distributionOf("histogram:4KiB=50,64KiB=30,1MiB=20"), seed);
    expect(Math.abs(share(values, (value) => value === 4 * KiB) - 0.5)).toBeLessThan(0.01);
    expect(Math.abs(share(values, (value) => value === 64 * KiB) - 0.3)).toBeLessThan(0.01);
    expect(Math.abs(share(values, (value) => value === MiB) - 0.2)).toBeLessThan(0.01);
  });

  it.each([
    "4KiB,64KiB,1MiB",
    "uniform:4KiB:4MiB",
    "lognormal:64KiB:4MiB",
    "histogram:4KiB=1,8KiB=1",
  ])("%s replays from the same seed and differs across seeds", (text) => {
    const distribution = distributionOf(text);
    expect(draws(distribution, 5, 100)).toEqual(draws(distribution, 5, 100));
    expect(draws(distribution, 5, 100)).not.toEqual(draws(distribution, 6, 100));
  });

  it.each<[string, SizeDistribution]>([
    ["a size of 0", { kind: "fixed", sizeBytes: 0 }],
    ["a fractional size", { kind: "fixed", sizeBytes: 1.5 }],
    ["an empty list", { kind: "list", sizesBytes: [] }],
    ["reversed bounds", { kind: "uniform", minBytes: 10, maxBytes: 5 }],
    ["equal bounds", { kind: "lognormal", minBytes: 10, maxBytes: 10 }],
    ["a histogram bin of weight 0", { kind: "histogram", bins: [{ sizeBytes: 1, weightPct: 0 }] }],
  ])("refuses %s", (_, distribution) => {
    expect(() => createSizeSampler(distribution, createRandom(1))).toThrow(RangeError);
  });
});

describe("meanSizeBytes, minSizeBytes, maxSizeBytes", () => {
  it.each([
    ["32KiB", 32 * KiB, 32 * KiB, 32 * KiB],
    ["1KiB,2KiB,6KiB", 3 * KiB, KiB, 6 * KiB],
    ["uniform:1KiB:3KiB", 2 * KiB, KiB, 3 * KiB],
    ["histogram:1KiB=75,5KiB=25", 2 * KiB, KiB, 5 * KiB],
    // The analytic mean of the clamped lognormal, which the sampling tests above confirm.
    ["lognormal:64KiB:4MiB", 719_342.8, 64 * KiB, 4 * MiB],
  ])("%s: mean %d, min %d, max %d", (text, meanBytes, minBytes, maxBytes) => {
    const distribution = distributionOf(text);
    expect(meanSizeBytes(distribution)).toBeCloseTo(meanBytes, 0);
    expect(minSizeBytes(distribution)).toBe(minBytes);
    expect(maxSizeBytes(distribution)).toBe(maxBytes);
  });
});

describe("scaleSizeDistribution", () => {
  it.each([
    ["4MB", 0.01, 1, "40KB"],
    ["4MB", 1e-6, 1, "4"],
    ["4MB", 1e-6, KiB, "1KiB"],
    ["4KiB,64KiB", 0.5, 1, "2KiB,32KiB"],
    ["lognormal:1MB:1GB", 0.1, 1, "lognormal:100KB:100MB"],
    ["lognormal:1MB:1GB", 0.001, KiB, "lognormal:1KiB:1MB"],
    ["uniform:2KiB:4KiB", 0.25, KiB, "1KiB"],
    ["histogram:1KiB=1,2KiB=1,8KiB=2", 0.5, KiB, "histogram:1KiB=50,4KiB=50"],
    ["histogram:1KiB=1,2KiB=1", 0.1, KiB, "1KiB"],
    ["4MiB", 0.1, 1, "419430"],
  ])("%s × %d (at least %d bytes) is %s", (text, scale, floorBytes, expected) => {
    const scaled = scaleSizeDistribution(distributionOf(text), scale, floorBytes);
    expect(formatSizeDistribution(scaled)).toBe(expected);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])("refuses scale %d", (scale) => {
    expect(() => scaleSizeDistribution(distributionOf("4MB"), scale)).toThrow(/scale/);
  });
});
