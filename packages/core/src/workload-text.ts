/**
 * Pieces shared by the workload text parsers (`--ops`, `--size`, `--keys`, `--range`): the result
 * shape, list splitting and weights, so every parser reports problems the same way —
 * `"fetch:10" — unknown operation "fetch"; expected one of …`.
 */

/** A parsed value, or a reason a user can act on (it quotes the text that was wrong). */
export type TextParseResult<T> = { ok: true; value: T } | { ok: false; reason: string };

export function parseFailure(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

/** `"text" — problem`: the form every item-level error takes. */
export function itemProblem(item: string, problem: string): string {
  return `"${item}" — ${problem}`;
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
    return parseFailure(`weight "${trimmed}" must be greater than 0`);
  }
  const match = WEIGHT_PATTERN.exec(trimmed);
  const weight = match ? Number(match[1]) : Number.NaN;
  if (!Number.isFinite(weight)) {
    return parseFailure(`weight "${trimmed}" is not a number; expected a positive number like 70`);
  }
  if (weight <= 0) {
    return parseFailure(`weight "${trimmed}" must be greater than 0`);
  }
  return { ok: true, value: weight };
}

/** Weights scaled so they add up to 100. */
export function normalisePct(weights: readonly number[]): number[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => (weight / total) * 100);
}
