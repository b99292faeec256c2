/**
 * Pieces shared by the workload text parsers (`--ops`, `--size`, `--keys`, `--range`): the result
 * shape, list splitting and weights, so every parser reports problems the same way —
 * `"fetch:10" — unknown operation "fetch"; expected one of …`.
 */
import { coded, type CodedMessage } from "@taillab/api";

/** A parsed value, or a reason a user can act on (it quotes the text that was wrong). */
export type TextParseResult<T> = { ok: true; value: T } | { ok: false; reason: CodedMessage };

export function parseFailure(reason: CodedMessage): { ok: false; reason: CodedMessage } {
  return { ok: false, reason };
}

/** `"text" — problem`: the form every item-level error takes. */
export function itemProblem(item: string, problem: CodedMessage): CodedMessage {
  return coded("itemProblem", { item, problem });
}

/** Splits `a, b ,c` on commas and trims; an empty item (`a,,b`, `a,`) stays, as "", to be reported. */
export function splitItems(text: string): string[] {
  return text.split(",").map((item) => item.trim());
}

const WEIGHT_PATTERN = /^(\d+(?:\.\d*)?|\.\d+)%?$/;

/**
 * A relative weight: a positive number, optionally with `%` (`70`, `70%`, `0.5`). Weights need
 * not add up to 100; callers normalise them.
 */
export function parseWeight(text: string): TextParseResult<number> {
  const trimmed = text.trim();
  if (/^-\s*[\d.]/.test(trimmed)) {
    return parseFailure(coded("weightNotPositive", { text: trimmed }));
  }
  const match = WEIGHT_PATTERN.exec(trimmed);
  const weight = match ? Number(match[1]) : Number.NaN;
  if (!Number.isFinite(weight)) {
    return parseFailure(coded("weightNotNumber", { text: trimmed }));
  }
  if (weight <= 0) {
    return parseFailure(coded("weightNotPositive", { text: trimmed }));
  }
  return { ok: true, value: weight };
}

/** Weights scaled so they add up to 100. */
export function normalisePct(weights: readonly number[]): number[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => (weight / total) * 100);
}
