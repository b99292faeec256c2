import type { ClientSecond } from "@taillab/api";
import { formatClientSecondWarning } from "@taillab/report";

/**
 * The warning lines a run prints while it runs: one when a second finds TailLab's client the
 * bottleneck, and again only after it kept up for a while or the reasons changed, so a run that
 * stays client-bound does not print a line a second.
 */
export class ClientWarnings {
  private warnedReasons: string | null = null;
  /** Since when (run ms) the client has kept up, after the last warning. */
  private keptUpSinceMs: number | null = null;

  /** The line to print for these newly measured seconds, or null. */
  next(seconds: readonly ClientSecond[]): string | null {
    let line: string | null = null;
    for (const second of seconds) {
      // A second comes again as it fills: it is judged by its newest figures.
      if (second.verdict.keptUp) {
        this.keptUpSinceMs ??= second.startMs;
        if (second.startMs - this.keptUpSinceMs >= QUIET_BEFORE_WARNING_AGAIN_MS) {
          this.warnedReasons = null;
        }
        continue;
      }
      this.keptUpSinceMs = null;
      const reasons = second.verdict.reasons.join(",");
      if (reasons === this.warnedReasons) continue;
      this.warnedReasons = reasons;
      line = formatClientSecondWarning(second);
    }
    return line;
  }
}

/** How long the client must keep up before the same warning is printed again. */
const QUIET_BEFORE_WARNING_AGAIN_MS = 5000;
