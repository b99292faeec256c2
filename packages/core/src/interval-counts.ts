import type { IntervalCounts } from "@taillab/api";
import { ErrorCodeCounts, type CodeCounts } from "./error-codes.ts";

/**
 * What one second of a phase moved and how its requests failed: the bytes of its successful
 * requests and its failures by error code, counted as the phase's `bytes` and `errorsByCode` are
 * (PhaseAccount counts both from the same request), so a phase's seconds add up to the phase.
 */
export class IntervalCounter {
  private bytes = 0;
  /** Made with the second's first failure: most seconds have none. */
  private errorsByCode: ErrorCodeCounts | null = null;
  /** Cleared once a part without counts (an older engine's) is merged in. */
  private known = true;

  addAnswer(bytes: number): void {
    this.bytes += bytes;
  }

  addFailure(code: string): void {
    (this.errorsByCode ??= new ErrorCodeCounts()).add(code);
  }

  /** Adds another part of the same second; `undefined`: that part's counts are not known. */
  merge(counts: IntervalCounts | undefined): void {
    if (!counts) {
      this.known = false;
      return;
    }
    this.bytes += counts.bytes;
    if (Object.keys(counts.errorsByCode).length > 0) {
      (this.errorsByCode ??= new ErrorCodeCounts()).addAll(counts.errorsByCode);
    }
  }

  /** The counts as plain data, or undefined when a part of the second had none. */
  toCounts(): IntervalCounts | undefined {
    if (!this.known) return undefined;
    return { bytes: this.bytes, errorsByCode: this.codeCounts() };
  }

  private codeCounts(): CodeCounts {
    return (this.errorsByCode ?? new ErrorCodeCounts()).toObject();
  }
}

/**
 * The counts of the parts of one second (log lines, deltas) added up; undefined when none had
 * counts or any part lacked them (a run stored before they were kept): not known, never 0.
 */
export function sumIntervalCounts(
  parts: readonly (IntervalCounts | undefined)[],
): IntervalCounts | undefined {
  if (parts.length === 0) return undefined;
  const counter = new IntervalCounter();
  for (const part of parts) counter.merge(part);
  return counter.toCounts();
}
