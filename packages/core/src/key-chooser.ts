import { coded } from "@taillab/api";
import type { Random } from "./random.ts";
import { uniformFloat53, uniformInt } from "./uniform-draw.ts";
import { itemProblem, parseFailure, type TextParseResult } from "./workload-text.ts";

/**
 * Which of the prepared objects a request touches, as an index 0 … keyCount − 1.
 * - uniform: every key equally likely.
 * - sequential: 0, 1, 2, … keyCount − 1, then from 0 again.
 * - zipf: key k (0-based) is drawn with probability ∝ (k + 1)^−exponent: index 0 is the hottest
 *   key, index 1 the next, and so on. Callers that want the hot keys spread over the key space
 *   (so they do not share a prefix or partition) should permute the index.
 */
export type KeyChoice =
  { kind: "uniform" } | { kind: "sequential" } | { kind: "zipf"; exponent: number };

/**
 * Beyond this, nearly every request hits key 0 anyway (at 20, key 1 gets one request in a
 * million), and h(x) = x^−s starts to underflow for large key counts.
 */
export const MAX_ZIPF_EXPONENT = 20;

/** `uniform`, `sequential`, `zipf:1.1` (any exponent above 0, 1 included). */
export function parseKeyChoice(text: string): TextParseResult<KeyChoice> {
  const trimmed = text.trim();
  const lower = trimmed.toLowerCase();
  if (lower === "uniform" || lower === "sequential") return { ok: true, value: { kind: lower } };
  const zipf = /^zipf\s*(?::(.*))?$/i.exec(trimmed);
  if (!zipf) return parseFailure(itemProblem(trimmed, coded("keysUnknown")));
  const exponentText = (zipf[1] ?? "").trim();
  if (exponentText === "") {
    return parseFailure(itemProblem(trimmed, coded("keysZipfExponent")));
  }
  const exponent = /^(\d+(?:\.\d*)?|\.\d+)$/.test(exponentText) ? Number(exponentText) : Number.NaN;
  if (!(exponent > 0) || !(exponent <= MAX_ZIPF_EXPONENT)) {
    return parseFailure(itemProblem(trimmed, coded("keysZipfRange", { max: MAX_ZIPF_EXPONENT })));
  }
  return { ok: true, value: { kind: "zipf", exponent } };
}

/** Text that `parseKeyChoice` reads back as the same choice. */
export function formatKeyChoice(choice: KeyChoice): string {
  return choice.kind === "zipf" ? `zipf:${choice.exponent}` : choice.kind;
}

export interface KeyChooser {
  /** A key index in [0, keyCount). */
  next(): number;
}

export function createKeyChooser(choice: KeyChoice, keyCount: number, random: Random): KeyChooser {
  if (!Number.isSafeInteger(keyCount) || keyCount < 1) {
    throw new RangeError(`keyCount must be a whole number of at least 1, got ${keyCount}`);
  }
  switch (choice.kind) {
    case "uniform":
      return { next: () => uniformInt(random, keyCount) };
    case "sequential": {
      let nextKey = 0;
      return {
        next() {
          const key = nextKey;
          nextKey = (nextKey + 1) % keyCount;
          return key;
        },
      };
    }
    case "zipf": {
      const sample = createZipfSampler(keyCount, choice.exponent, random);
      return { next: () => sample() - 1 };
    }
  }
}

/**
 * Zipf ranks 1 … n with P(k) ∝ k^−s, by rejection-inversion (W. Hörmann and G. Derflinger,
 * "Rejection-inversion to generate variates from monotone discrete distributions", ACM TOMACS
 * 6(3), 1996), as in Apache Commons Math's ZipfDistribution and Commons RNG. It inverts the
 * integral H of the continuous hat h(x) = x^−s and accepts the rounded value with a cheap test,
 * so set-up is O(1), memory is O(1) and a draw takes O(1) expected time (fewer than 1.1 tries on
 * average) for any n — a 10-million-key table of cumulative probabilities would take 80 MB and
 * an O(n) pass to build. Works for every s > 0, including s = 1, through log1p/expm1 helpers.
 */
export function createZipfSampler(
  numberOfElements: number,
  exponent: number,
  random: Random,
): () => number {
  if (!Number.isSafeInteger(numberOfElements) || numberOfElements < 1) {
    throw new RangeError(
      `the number of Zipf elements must be a whole number of at least 1, got ${numberOfElements}`,
    );
  }
  if (!(exponent > 0) || !Number.isFinite(exponent)) {
    throw new RangeError(`the Zipf exponent must be a finite number above 0, got ${exponent}`);
  }
  // H(x) = ((x^(1−s)) − 1) / (1 − s), and ln x when s = 1: an antiderivative of h(x) = x^−s.
  const hIntegral = (x: number): number => {
    const logX = Math.log(x);
    return expm1OverX((1 - exponent) * logX) * logX;
  };
  const h = (x: number): number => Math.exp(-exponent * Math.log(x));
  const hIntegralInverse = (x: number): number => {
    // t < −1 can only come from rounding; clamp it to the domain of log1p.
    const t = Math.max(-1, x * (1 - exponent));
    return Math.exp(log1pOverX(t) * x);
  };

  const hIntegralX1 = hIntegral(1.5) - 1;
  const hIntegralN = hIntegral(numberOfElements + 0.5);
  const acceptWithin = 2 - hIntegralInverse(hIntegral(2.5) - h(2));

  return () => {
    for (;;) {
      // u is uniform in (hIntegralX1, hIntegralN]: the area under the hat from rank 1 to n.
      const u = hIntegralN + uniformFloat53(random) * (hIntegralX1 - hIntegralN);
      const x = hIntegralInverse(u);
      const k = Math.min(numberOfElements, Math.max(1, Math.round(x)));
      // P(k) is now C·(H(k + ½) − H(k − ½)) for k ≥ 2 and C for k = 1; accepting when
      // u ≥ H(k + ½) − h(k) leaves exactly C·h(k), i.e. ∝ k^−s. Within acceptWithin of k that
      // test always passes, so most draws skip evaluating it.
      if (k - x <= acceptWithin || u >= hIntegral(k + 0.5) - h(k)) return k;
    }
  };
}

/** ln(1 + x) / x, continuous at 0. */
function log1pOverX(x: number): number {
  if (Math.abs(x) > 1e-8) return Math.log1p(x) / x;
  return 1 - x * (1 / 2 - x * (1 / 3 - x * (1 / 4)));
}

/** (eˣ − 1) / x, continuous at 0. */
function expm1OverX(x: number): number {
  if (Math.abs(x) > 1e-8) return Math.expm1(x) / x;
  return 1 + x * (1 / 2) * (1 + x * (1 / 3) * (1 + x * (1 / 4)));
}
