import { z } from "zod";

/**
 * Counts keyed by error code. A code is a server's word, and `__proto__`, `constructor` or
 * `toString` are codes like any other: the counts come out as an object without a prototype, with
 * every code an own key (zod's record drops a `__proto__` key, and a plain object answers
 * `counts.constructor` before any count). `minCount`: 0 where a delta may carry zeros.
 */
export function codeCountsSchema(minCount: 0 | 1) {
  return z
    .custom<Record<string, number>>(isPlainObject, "expected counts by error code")
    .transform((counts, context) => {
      const kept = Object.create(null) as Record<string, number>;
      for (const [code, count] of Object.entries(counts)) {
        if (!Number.isSafeInteger(count) || count < minCount) {
          context.issues.push({
            code: "custom",
            message: `expected a whole count of at least ${minCount}`,
            input: count,
            path: [code],
          });
        }
        kept[code] = count;
      }
      return kept;
    });
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
