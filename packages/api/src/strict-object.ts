import { z } from "zod";
import { coded, englishOf, type CodedMessage } from "./coded-message.ts";

/**
 * An object schema that refuses fields it does not know, naming each and the known field nearest
 * to it: a misspelt `"clinets"` or `"verfy"` in a spec would otherwise be dropped and the run
 * would silently measure something else.
 */
export function strictObject<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== "unrecognized_keys") return undefined;
      const message = unknownFieldsMessage(issue.keys, known);
      // zod copies an issue after asking for its message: params set here travel with it, so
      // issueMessage (field-error.ts) hands a UI the code to say it in its own language.
      Object.assign(issue, { params: message });
      return englishOf(message);
    },
  });
}

/** `unknown field "clinets" - did you mean "clients"?`, one clause per unknown field. */
export function unknownFieldsMessage(
  keys: readonly string[],
  known: readonly string[],
): CodedMessage {
  const clauses = keys.map((key) => {
    const nearest = nearestName(key, known);
    return nearest === null
      ? coded("unknownFieldKnown", { field: key, known: known.join(", ") })
      : coded("unknownFieldNear", { field: key, nearest });
  });
  return clauses.reduceRight((more, problem) => coded("problemAndMore", { problem, more }));
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
