import type { RunProgress } from "@taillab/api";

const BAR_WIDTH = 24;

/** One status line, redrawn in place on a terminal. */
export function formatProgressLine(progress: RunProgress): string {
  const fraction = progress.total > 0 ? Math.min(1, progress.done / progress.total) : 0;
  const filled = Math.round(fraction * BAR_WIDTH);
  const bar = `${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}`;
  const point =
    progress.pointCount > 1 ? `point ${progress.pointIndex + 1}/${progress.pointCount} ` : "";
  const latency =
    progress.p50Ms === null
      ? ""
      : ` p50 ${progress.p50Ms.toFixed(2)} ms p99 ${(progress.p99Ms ?? 0).toFixed(2)} ms`;
  const remainingS =
    progress.opsPerSec > 0 ? (progress.total - progress.done) / progress.opsPerSec : null;
  const eta = remainingS === null || remainingS <= 0 ? "" : ` ETA ${formatSeconds(remainingS)}`;
  return (
    `${point}${progress.op.padEnd(6)} [${bar}] ${Math.floor(fraction * 100)
      .toString()
      .padStart(3)}% ` +
    `${progress.done}/${progress.total} ${Math.round(progress.opsPerSec)} ops/s${eta}${latency}` +
    (progress.errors > 0 ? ` errors ${progress.errors}` : "")
  );
}

/** 42s, 3m05s, 1h02m: the phase's remaining time at the current rate. */
function formatSeconds(seconds: number): string {
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes}m${String(whole % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

export interface ProgressDisplay {
  update(progress: RunProgress): void;
  /** Clears the line so the next output starts clean. */
  clear(): void;
}

export function createProgressDisplay(stream: NodeJS.WriteStream): ProgressDisplay {
  if (!stream.isTTY) return { update() {}, clear() {} };
  let shown = false;
  return {
    update(progress) {
      const line = formatProgressLine(progress).slice(0, (stream.columns ?? 100) - 1);
      stream.write(`\r\x1b[2K${line}`);
      shown = true;
    },
    clear() {
      if (shown) stream.write("\r\x1b[2K");
      shown = false;
    },
  };
}
