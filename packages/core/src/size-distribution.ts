import { coded, parseByteSize, type CodedMessage } from "@taillab/api";
import type { Random } from "./random.ts";
import { standardNormalCdf } from "./normal-distribution.ts";
import { valueRange } from "./value-range.ts";
import { createWeightedIndex, uniformInt } from "./uniform-draw.ts";
import {
  itemProblem,
  normalisePct,
  parseFailure,
  parseWeight,
  splitItems,
  type TextParseResult,
} from "./workload-text.ts";

/** S3's largest object (a multipart upload); a single PUT stops at 5 GiB. */
export const MAX_S3_OBJECT_SIZE_BYTES = 5 * 1024 ** 4;

/**
 * Φ⁻¹(0.995): the standard normal quantile that leaves 0.5 % in each tail, so the bounds of a
 * lognormal size are its 0.5th and 99.5th percentiles and 99 % of draws fall between them.
 */
const LOGNORMAL_BOUND_Z = 2.5758293035489004;

export interface SizeHistogramBin {
  sizeBytes: number;
  /** Share of draws, 0–100; the bins of a histogram add up to 100. */
  weightPct: number;
}

/**
 * How object sizes are drawn.
 * - fixed: every object the same size.
 * - list: one of the sizes, each equally likely (repeat a size to make it more likely).
 * - uniform: any whole number of bytes from minBytes to maxBytes, equally likely.
 * - lognormal: median √(minBytes × maxBytes) (the geometric middle of the bounds) and log standard
 *   deviation σ = ln(maxBytes / minBytes) / (2 × 2.5758), so 99 % of draws fall inside the bounds;
 *   the 0.5 % below and the 0.5 % above are clamped to the bounds. File sizes are close to
 *   lognormal, which a uniform spread over 1 MB–1 GB is not: there, most objects would be
 *   hundreds of MB.
 * - histogram: sizes with weights.
 */
export type SizeDistribution =
  | { kind: "fixed"; sizeBytes: number }
  | { kind: "list"; sizesBytes: number[] }
  | { kind: "uniform"; minBytes: number; maxBytes: number }
  | { kind: "lognormal"; minBytes: number; maxBytes: number }
  | { kind: "histogram"; bins: SizeHistogramBin[] };

/** `problem; expected a size (32KiB), a list…`. */
const withExpected = (problem: CodedMessage) =>
  coded("expectedExample", { problem, expected: coded("sizesExpected") });

function parseSize(text: string): TextParseResult<number> {
  const parsed = parseByteSize(text);
  if (!parsed.ok) return parseFailure(parsed.reason);
  if (parsed.bytes > MAX_S3_OBJECT_SIZE_BYTES) {
    return parseFailure(coded("sizeAboveObjectLimitText", { text: text.trim() }));
  }
  return { ok: true, value: parsed.bytes };
}

/**
 * `32KiB`, `4KiB,64KiB,1MiB`, `uniform:4KiB:4MiB`, `lognormal:64KiB:4MiB`,
 * `histogram:4KiB=50,64KiB=30,1MiB=20`. Sizes take the units of `parseByteSize` (`KiB` binary,
 * `KB` decimal); histogram weights are relative and normalised to %.
 */
export function parseSizeDistribution(text: string): TextParseResult<SizeDistribution> {
  const trimmed = text.trim();
  if (trimmed === "") return parseFailure(withExpected(coded("sizesEmpty")));
  const prefixed = /^([a-z]+)\s*:(.*)$/i.exec(trimmed);
  if (prefixed) {
    const kind = (prefixed[1] as string).toLowerCase();
    const rest = prefixed[2] as string;
    if (kind === "uniform" || kind === "lognormal") return parseBounds(trimmed, kind, rest);
    if (kind === "histogram") return parseHistogram(trimmed, rest);
    return parseFailure(itemProblem(trimmed, withExpected(coded("sizesUnknownKind", { kind }))));
  }
  const items = splitItems(trimmed);
  const sizesBytes: number[] = [];
  for (const item of items) {
    if (item === "")
      return parseFailure(itemProblem(trimmed, withExpected(coded("sizesEmptyItem"))));
    const size = parseSize(item);
    if (!size.ok) return size;
    sizesBytes.push(size.value);
  }
  if (sizesBytes.length === 1)
    return { ok: true, value: { kind: "fixed", sizeBytes: sizesBytes[0] as number } };
  return { ok: true, value: { kind: "list", sizesBytes } };
}

function parseBounds(
  text: string,
  kind: "uniform" | "lognormal",
  rest: string,
): TextParseResult<SizeDistribution> {
  const parts = rest.split(":");
  if (parts.length !== 2) {
    return parseFailure(itemProblem(text, coded("sizesBounds", { kind })));
  }
  const [minText = "", maxText = ""] = parts;
  const min = parseSize(minText);
  if (!min.ok)
    return parseFailure(itemProblem(text, coded("sizesLowerBound", { problem: min.reason })));
  const max = parseSize(maxText);
  if (!max.ok)
    return parseFailure(itemProblem(text, coded("sizesUpperBound", { problem: max.reason })));
  if (min.value >= max.value) {
    return parseFailure(itemProblem(text, coded("sizesBoundsOrder")));
  }
  return { ok: true, value: { kind, minBytes: min.value, maxBytes: max.value } };
}

function parseHistogram(text: string, rest: string): TextParseResult<SizeDistribution> {
  const sizes: number[] = [];
  const weights: number[] = [];
  for (const item of splitItems(rest)) {
    const equals = item.indexOf("=");
    if (equals === -1) {
      return parseFailure(itemProblem(item, coded("sizesHistogramItem")));
    }
    const size = parseSize(item.slice(0, equals));
    if (!size.ok) return parseFailure(itemProblem(item, size.reason));
    if (sizes.includes(size.value)) {
      return parseFailure(itemProblem(item, coded("sizesTwice", { text })));
    }
    const weight = parseWeight(item.slice(equals + 1));
    if (!weight.ok) return parseFailure(itemProblem(item, weight.reason));
    sizes.push(size.value);
    weights.push(weight.value);
  }
  const shares = normalisePct(weights);
  const bins = sizes.map((sizeBytes, index) => ({ sizeBytes, weightPct: shares[index] as number }));
  return { ok: true, value: { kind: "histogram", bins } };
}

const BINARY_UNITS: readonly [string, number][] = [
  ["TiB", 1024 ** 4],
  ["GiB", 1024 ** 3],
  ["MiB", 1024 ** 2],
  ["KiB", 1024],
];
const DECIMAL_UNITS: readonly [string, number][] = [
  ["TB", 1e12],
  ["GB", 1e9],
  ["MB", 1e6],
  ["KB", 1e3],
];

function largestExactUnit(bytes: number, units: readonly [string, number][]): string {
  const unit = units.find(([, unitBytes]) => bytes % unitBytes === 0);
  return unit ? `${bytes / unit[1]}${unit[0]}` : String(bytes);
}

/**
 * The shortest spelling that `parseByteSize` reads back as exactly `bytes`: `4MiB`, `40KB`, or a
 * bare byte count. (`formatByteSize` rounds when no unit divides, which is for display only.)
 */
export function formatExactByteSize(bytes: number): string {
  const binary = largestExactUnit(bytes, BINARY_UNITS);
  const decimal = largestExactUnit(bytes, DECIMAL_UNITS);
  return decimal.length < binary.length ? decimal : binary;
}

/** Text that `parseSizeDistribution` reads back as the same distribution. */
export function formatSizeDistribution(distribution: SizeDistribution): string {
  switch (distribution.kind) {
    case "fixed":
      return formatExactByteSize(distribution.sizeBytes);
    case "list":
      return distribution.sizesBytes.map(formatExactByteSize).join(",");
    case "uniform":
    case "lognormal":
      return `${distribution.kind}:${formatExactByteSize(distribution.minBytes)}:${formatExactByteSize(distribution.maxBytes)}`;
    case "histogram":
      return `histogram:${distribution.bins
        .map((bin) => `${formatExactByteSize(bin.sizeBytes)}=${bin.weightPct}`)
        .join(",")}`;
  }
}

export interface SizeSampler {
  /** A whole number of bytes, at least 1. */
  nextSizeBytes(): number;
}

export function createSizeSampler(distribution: SizeDistribution, random: Random): SizeSampler {
  checkDistribution(distribution);
  switch (distribution.kind) {
    case "fixed": {
      const { sizeBytes } = distribution;
      return { nextSizeBytes: () => sizeBytes };
    }
    case "list": {
      const sizes = [...distribution.sizesBytes];
      return { nextSizeBytes: () => sizes[uniformInt(random, sizes.length)] as number };
    }
    case "uniform": {
      const { minBytes, maxBytes } = distribution;
      const count = maxBytes - minBytes + 1;
      return { nextSizeBytes: () => minBytes + uniformInt(random, count) };
    }
    case "lognormal": {
      const { minBytes, maxBytes } = distribution;
      const { median, sigma } = lognormalParameters(minBytes, maxBytes);
      return {
        nextSizeBytes: () =>
          Math.min(maxBytes, Math.max(minBytes, Math.round(random.lognormal(median, sigma)))),
      };
    }
    case "histogram": {
      const sizes = distribution.bins.map((bin) => bin.sizeBytes);
      const pick = createWeightedIndex(
        distribution.bins.map((bin) => bin.weightPct),
        random,
      );
      return { nextSizeBytes: () => sizes[pick()] as number };
    }
  }
}

/** The median and log standard deviation of the lognormal between the bounds (see SizeDistribution). */
export function lognormalParameters(
  minBytes: number,
  maxBytes: number,
): { median: number; sigma: number } {
  return {
    median: Math.sqrt(minBytes * maxBytes),
    sigma: Math.log(maxBytes / minBytes) / (2 * LOGNORMAL_BOUND_Z),
  };
}

/** The expected size of a draw, for totals ("this run writes about 3.2 GiB"). */
export function meanSizeBytes(distribution: SizeDistribution): number {
  switch (distribution.kind) {
    case "fixed":
      return distribution.sizeBytes;
    case "list":
      return (
        distribution.sizesBytes.reduce((sum, size) => sum + size, 0) /
        distribution.sizesBytes.length
      );
    case "uniform":
      return (distribution.minBytes + distribution.maxBytes) / 2;
    case "lognormal":
      return clampedLognormalMean(distribution.minBytes, distribution.maxBytes);
    case "histogram": {
      const totalPct = distribution.bins.reduce((sum, bin) => sum + bin.weightPct, 0);
      return distribution.bins.reduce(
        (sum, bin) => sum + (bin.sizeBytes * bin.weightPct) / totalPct,
        0,
      );
    }
  }
}

/** The largest size a draw can have, for buffer sizing. */
export function maxSizeBytes(distribution: SizeDistribution): number {
  return sizeBounds(distribution).maxBytes;
}

/** The smallest size a draw can have. */
export function minSizeBytes(distribution: SizeDistribution): number {
  return sizeBounds(distribution).minBytes;
}

function sizeBounds(distribution: SizeDistribution): { minBytes: number; maxBytes: number } {
  switch (distribution.kind) {
    case "fixed":
      return { minBytes: distribution.sizeBytes, maxBytes: distribution.sizeBytes };
    case "list":
      return boundsOf(distribution.sizesBytes);
    case "uniform":
    case "lognormal":
      return { minBytes: distribution.minBytes, maxBytes: distribution.maxBytes };
    case "histogram":
      return boundsOf(distribution.bins.map((bin) => bin.sizeBytes));
  }
}

/** A list or histogram always has at least one size (the parser refuses an empty one). */
function boundsOf(sizes: readonly number[]): { minBytes: number; maxBytes: number } {
  const range = valueRange(sizes) ?? { min: 0, max: 0 };
  return { minBytes: range.min, maxBytes: range.max };
}

/**
 * Every size multiplied by `scale` and rounded to whole bytes, never below `floorBytes`. Bounds
 * that meet become a fixed size; histogram bins that meet are merged.
 */
export function scaleSizeDistribution(
  distribution: SizeDistribution,
  scale: number,
  floorBytes = 1,
): SizeDistribution {
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new RangeError(`scale must be a finite number above 0, got ${scale}`);
  }
  const resize = (bytes: number): number => Math.max(floorBytes, Math.round(bytes * scale));
  switch (distribution.kind) {
    case "fixed":
      return { kind: "fixed", sizeBytes: resize(distribution.sizeBytes) };
    case "list":
      return { kind: "list", sizesBytes: distribution.sizesBytes.map(resize) };
    case "uniform":
    case "lognormal": {
      const minBytes = resize(distribution.minBytes);
      const maxBytes = resize(distribution.maxBytes);
      return minBytes === maxBytes
        ? { kind: "fixed", sizeBytes: minBytes }
        : { kind: distribution.kind, minBytes, maxBytes };
    }
    case "histogram": {
      const bins: SizeHistogramBin[] = [];
      for (const bin of distribution.bins) {
        const sizeBytes = resize(bin.sizeBytes);
        const same = bins.find((existing) => existing.sizeBytes === sizeBytes);
        if (same) same.weightPct += bin.weightPct;
        else bins.push({ sizeBytes, weightPct: bin.weightPct });
      }
      return bins.length === 1
        ? { kind: "fixed", sizeBytes: (bins[0] as SizeHistogramBin).sizeBytes }
        : { kind: "histogram", bins };
    }
  }
}

function checkDistribution(distribution: SizeDistribution): void {
  const isSize = (bytes: number) => Number.isSafeInteger(bytes) && bytes >= 1;
  const sizes =
    distribution.kind === "fixed"
      ? [distribution.sizeBytes]
      : distribution.kind === "list"
        ? distribution.sizesBytes
        : distribution.kind === "histogram"
          ? distribution.bins.map((bin) => bin.sizeBytes)
          : [distribution.minBytes, distribution.maxBytes];
  if (sizes.length === 0 || !sizes.every(isSize)) {
    throw new RangeError(
      `object sizes must be whole numbers of bytes, at least 1, got [${sizes.join(", ")}]`,
    );
  }
  if (
    (distribution.kind === "uniform" || distribution.kind === "lognormal") &&
    distribution.minBytes >= distribution.maxBytes
  ) {
    throw new RangeError(
      `${distribution.kind} sizes need minBytes below maxBytes, got ${distribution.minBytes} and ${distribution.maxBytes}`,
    );
  }
}

/**
 * E[clamp(X, a, b)] for the lognormal X between bounds a and b (median m = √(ab), log sd σ):
 * a·P(X < a) + b·P(X > b) + e^(ln m + σ²/2)·[Φ(z − σ) − Φ(−z − σ)], with z = ln(b/m)/σ.
 */
function clampedLognormalMean(minBytes: number, maxBytes: number): number {
  const { median, sigma } = lognormalParameters(minBytes, maxBytes);
  const tail = standardNormalCdf(-LOGNORMAL_BOUND_Z);
  const inside =
    median *
    Math.exp((sigma * sigma) / 2) *
    (standardNormalCdf(LOGNORMAL_BOUND_Z - sigma) - standardNormalCdf(-LOGNORMAL_BOUND_Z - sigma));
  return (minBytes + maxBytes) * tail + inside;
}
