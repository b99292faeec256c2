import { formatByteSize } from "@taillab/api";

/**
 * How reports print numbers: the same in every language (the Chinese UI keeps Western digits and
 * grouping, as Chinese technical writing does), so a figure reads the same on both reports.
 */

const MINUS = "−";

function group(integerDigits: string): string {
  return integerDigits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Fixed decimals with thousands separators and a typographic minus: `1,234.5`, `−0.25`. */
export function formatFixed(value: number, decimals: number): string {
  if (!Number.isFinite(value)) return String(value);
  const text = Math.abs(value).toFixed(decimals);
  const [integer = "0", fraction] = text.split(".");
  const negative = value < 0 && Number(text) !== 0;
  return `${negative ? MINUS : ""}${group(integer)}${fraction === undefined ? "" : `.${fraction}`}`;
}

export function formatInteger(value: number): string {
  return formatFixed(Math.round(value), 0);
}

/** Milliseconds with microsecond digits below 100 ms, fewer above (a 1 s stall needs no µs). */
export function formatMs(valueMs: number): string {
  const magnitude = Math.abs(valueMs);
  return formatFixed(valueMs, magnitude >= 1000 ? 1 : magnitude >= 100 ? 2 : 3);
}

/** Three significant digits, for fit parameters and rates: 0.0123, 4.56, 789, 12,300. */
export function formatSignificant(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return value > 0 ? "∞" : String(value);
  if (value === 0) return "0";
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  return formatFixed(Number(value.toPrecision(digits)), decimals);
}

export function formatMiB(bytes: number): string {
  return formatFixed(bytes / 1024 / 1024, 3);
}

export function formatPercent(value: number, decimals = 2): string {
  return formatFixed(value, decimals);
}

/** A signed difference: `+1.5`, `−0.25`, `0`. */
export function formatSigned(text: string, value: number): string {
  return value > 0 ? `+${text}` : text;
}

export function formatSize(bytes: number): string {
  return formatByteSize(bytes).replace(/^(\d+(?:\.\d+)?)([A-Za-z]+)$/, "$1 $2");
}

/** `2025-03-01 10:00:00 UTC`: unambiguous in every language and time zone. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** Axis ticks: up to three significant digits, grouped above 1 000. */
export function formatTick(value: number): string {
  if (value === 0) return "0";
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return formatInteger(value);
  return formatFixed(value, Math.max(0, Math.min(4, 2 - Math.floor(Math.log10(magnitude)))))
    .replace(/(\.\d*?)0+$/, "$1")
    .replace(/\.$/, "");
}
