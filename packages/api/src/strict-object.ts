import { z } from "zod";

/**
 * An object schema that refuses fields it does not know, naming each and the known field nearest
 * to it: a misspelt `"clinets"` or `"verfy"` in a spec would otherwise be dropped and the run
 * would silently measure something else.
 */
export function strictObject<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? unknownFieldsMessage(issue.keys, known) : undefined,
  });
}

/** `unknown field "clinets" - did you mean "clients"?`, one clause per unknown field. */
export function unknownFieldsMessage(keys: readonly string[], known: readonly string[]): string {
  const clauses = keys.map((key) => {
    const nearest = nearestName(key, known);
    return nearest === null
      ? `unknown field "${key}" (known fields: ${known.join(", ")})`
      : `unknown field "${key}" - did you mean "${nearest}"?`;
  });
  return clauses.join("; ");
}

/** The known name within a few typos of `name` (case aside), or null when none is that close. */
export function nearestName(name: string, known: readonly string[]): string | null {
  const wanted = name.toLowerCase();
  let best: string | null = null;
  let bestDistance = Math.max(2, Math.floor(wanted.length / 3)) + 1;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, with a swap of two neighbours counting as one edit (`verfiy`). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = distance;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}
