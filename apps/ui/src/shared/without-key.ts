/**
 * A copy of a record of optional entries (errors by field, tests by id) without `key`: a fixed
 * field's error, a stale test result.
 */
export function withoutKey<R extends Partial<Record<string, unknown>>>(record: R, key: string): R {
  const copy = { ...record };
  delete copy[key];
  return copy;
}
