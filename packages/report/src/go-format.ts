/**
 * Numbers and durations as Go's fmt and time packages print them, for text that must be
 * byte-identical to a Go tool's (s3bench). JavaScript's toFixed rounds an exact half up; Go's
 * %.Nf rounds it to even (0.125 → "0.12"), and Go prints a time.Duration as "1.5ms" or "2m3.4s".
 */

/** Go's `%0.<digits>f` of a finite, non-negative number. */
export function goFixed(value: number, digits: number): string {
  // toFixed(100) is the exact binary value in decimal for every figure printed here.
  const exact = value.toFixed(100);
  const point = exact.indexOf(".");
  if (!/^50*$/.test(exact.slice(point + 1 + digits))) return value.toFixed(digits);
  // An exact half: toFixed rounded it up; Go keeps the even neighbour.
  const truncated = exact.slice(0, digits === 0 ? point : point + 1 + digits);
  return Number(truncated.at(-1)) % 2 === 0 ? truncated : value.toFixed(digits);
}

const NS_PER_US = 1_000;
const NS_PER_MS = 1_000_000;
const NS_PER_S = 1_000_000_000;

/** `v / 10^precision` as digits after the point, trailing zeros dropped ("" when none left). */
function fractionOf(value: number, precision: number): string {
  const digits = String(value % 10 ** precision)
    .padStart(precision, "0")
    .replace(/0+$/, "");
  return digits === "" ? "" : `.${digits}`;
}

/** Go's time.Duration.String() of a non-negative duration in nanoseconds. */
export function goDuration(nanoseconds: number): string {
  const ns = Math.round(nanoseconds);
  if (ns === 0) return "0s";
  if (ns < NS_PER_US) return `${ns}ns`;
  if (ns < NS_PER_MS) return `${Math.floor(ns / NS_PER_US)}${fractionOf(ns, 3)}µs`;
  if (ns < NS_PER_S) return `${Math.floor(ns / NS_PER_MS)}${fractionOf(ns, 6)}ms`;
  const totalSeconds = Math.floor(ns / NS_PER_S);
  const seconds = `${totalSeconds % 60}${fractionOf(ns, 9)}s`;
  const totalMinutes = Math.floor(totalSeconds / 60);
  if (totalMinutes === 0) return seconds;
  const minutes = `${totalMinutes % 60}m${seconds}`;
  const hours = Math.floor(totalMinutes / 60);
  return hours === 0 ? minutes : `${hours}h${minutes}`;
}

/** A duration in milliseconds (TailLab's unit) as Go prints a time.Duration. */
export function goDurationOfMs(ms: number): string {
  return goDuration(ms * NS_PER_MS);
}
