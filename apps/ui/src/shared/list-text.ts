/**
 * Lists typed into one input: `1, 4, 8` or `4KiB, 1MiB`. Commas separate values (also the
 * Chinese full-width comma and semicolons), so a size written with a space (`1 MiB`) stays one
 * value. Empty entries are dropped: a trailing comma while typing is not an error.
 */
export function splitList(text: string): string[] {
  return text
    .split(/[,，;；]/)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

export function joinList(values: readonly (string | number)[]): string {
  return values.join(", ");
}

/**
 * Sentences as one paragraph: a space between English ones; none between Chinese ones, whose
 * full stop (。) already takes a character's width.
 */
export function joinSentences(sentences: readonly string[], language: string): string {
  return sentences.filter((sentence) => sentence !== "").join(language.startsWith("zh") ? "" : " ");
}

/**
 * A number typed into a text box, as the spec should carry it: a plain number becomes a number;
 * anything else is passed on as typed, so the backend's parser can name what is wrong with it
 * (`"abc" is not a size`) instead of the UI turning it into NaN. Empty means "not given".
 */
export function numberOrText(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}
