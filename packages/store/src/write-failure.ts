import { ResultsStoreError } from "./results-error.ts";

/** Errors from writing results, phrased so a person knows what happened and what is kept. */

const DISK_FULL_CODES = new Set(["ENOSPC", "EDQUOT"]);

/** True when the error, or an error it wraps, says the disk (or the user's quota) is full. */
export function isDiskFull(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code !== undefined && DISK_FULL_CODES.has(code)) return true;
  }
  return false;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Writing a run's files failed: the run ends, and what reached the disk stays. */
export function runWriteError(path: string, error: unknown): Error {
  const message = isDiskFull(error)
    ? `results disk is full: could not write ${path}; the run's records up to here are kept`
    : `could not write ${path} (${reasonOf(error)}); the run's records up to here are kept`;
  return new ResultsStoreError(message, { cause: error });
}
