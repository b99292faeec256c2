import { formatMs } from "@taillab/report";

/** A latency with its unit (the report's figure and "ms"), or a dash when there is none yet. */
export function formatLatency(ms: number | null | undefined): string {
  return ms === null || ms === undefined || !Number.isFinite(ms) ? "–" : `${formatMs(ms)} ms`;
}

/** A duration for a person: `45 s`, `3 min 20 s`, `1 h 05 min`. */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.max(0, Math.round(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, "0")} min`;
  if (minutes > 0) return `${minutes} min ${String(seconds).padStart(2, "0")} s`;
  return `${seconds} s`;
}

/** A knob's percentage as a person sets it: `1 %`, `0.5 %`, `12.5 %`, no trailing zeros. */
export function formatKnobPercent(percent: number): string {
  return `${Number(percent.toFixed(2))} %`;
}

/** A knob's milliseconds as a person sets them: `20 ms`, `0.5 ms`, `1500 ms`. */
export function formatKnobMs(ms: number): string {
  return `${Number(ms.toFixed(1))} ms`;
}
