/**
 * Error codes are a server's word (an S3 error document's <Code>, an SDK's error name): a
 * hostile or broken server chooses them. So a code is bounded before anything keeps it, and
 * counts by code are kept in a Map and handed out as objects without a prototype, where
 * `constructor`, `toString` or `__proto__` are codes like any other.
 */

/** Longer codes are cut here: S3's own are under 40 characters. */
export const ERROR_CODE_MAX_LENGTH = 128;

/**
 * Distinct codes counted one by one per phase (and per cleanup); any further code is counted
 * under OTHER_ERROR_CODE, so a server answering a new code to every request cannot grow a
 * summary, the live view or the terminal's verdict without bound.
 */
export const ERROR_CODES_KEPT = 50;

/** Where the codes past the first ERROR_CODES_KEPT are counted. */
export const OTHER_ERROR_CODE = "OtherCodes";

/**
 * A code as TailLab keeps it (records, summaries, the terminal): cut to ERROR_CODE_MAX_LENGTH
 * characters (never inside a surrogate pair). Its characters are kept as the server sent them:
 * every output neutralises them its own way (the terminal drops controls, CSV quotes formulas).
 */
export function boundedErrorCode(code: string): string {
  if (code.length <= ERROR_CODE_MAX_LENGTH) return code;
  return [...code.slice(0, ERROR_CODE_MAX_LENGTH * 2)].slice(0, ERROR_CODE_MAX_LENGTH).join("");
}

/** Counts by code, as plain data: no prototype, so any code is an own key. */
export type CodeCounts = Record<string, number>;

/** An empty CodeCounts. */
export function emptyCodeCounts(): CodeCounts {
  return Object.create(null) as CodeCounts;
}

/**
 * Counts by error code, at most ERROR_CODES_KEPT of them one by one (the first seen), the rest
 * under OTHER_ERROR_CODE.
 */
export class ErrorCodeCounts {
  private readonly counts = new Map<string, number>();

  add(code: string, count = 1): void {
    if (count === 0) return;
    const kept = boundedErrorCode(code);
    const key =
      this.counts.has(kept) || this.counts.size < ERROR_CODES_KEPT ? kept : OTHER_ERROR_CODE;
    this.counts.set(key, (this.counts.get(key) ?? 0) + count);
  }

  addAll(counts: CodeCounts): void {
    for (const [code, count] of Object.entries(counts)) this.add(code, count);
  }

  /** The counts as plain data (see CodeCounts). */
  toObject(): CodeCounts {
    const object = emptyCodeCounts();
    for (const [code, count] of this.counts) object[code] = count;
    return object;
  }
}
