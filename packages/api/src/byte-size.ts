/** Byte sizes as users write them: `1024`, `32KiB`, `1MiB`, `4MB` (decimal), `1.5GiB`. */
import { coded, type CodedMessage } from "./coded-message.ts";

const UNIT_BYTES: Record<string, number> = {
  "": 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  k: 1024,
  ki: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mi: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gi: 1024 ** 3,
  gib: 1024 ** 3,
  ti: 1024 ** 4,
  tib: 1024 ** 4,
};

const SIZE_PATTERN = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i;

export type ByteSizeResult = { ok: true; bytes: number } | { ok: false; reason: CodedMessage };

export function parseByteSize(input: string | number): ByteSizeResult {
  const text = String(input).trim();
  if (/^-\s*\d/.test(text)) {
    return { ok: false, reason: coded("sizeNotPositive", { text }) };
  }
  const match = SIZE_PATTERN.exec(text);
  if (!match) {
    return { ok: false, reason: coded("sizeNotSize", { text }) };
  }
  const [, amount = "", unit = ""] = match;
  const multiplier = UNIT_BYTES[unit.toLowerCase()];
  if (multiplier === undefined) {
    return { ok: false, reason: coded("sizeUnknownUnit", { text, unit }) };
  }
  const bytes = Number(amount) * multiplier;
  if (!Number.isInteger(bytes)) {
    return { ok: false, reason: coded("sizeNotWhole", { text }) };
  }
  if (bytes <= 0) {
    return { ok: false, reason: coded("sizeNotPositive", { text }) };
  }
  return { ok: true, bytes };
}

const BINARY_UNITS = ["B", "KiB", "MiB", "GiB", "TiB"] as const;

/** The shortest exact binary spelling (`32KiB`), or a rounded one when no unit divides evenly. */
export function formatByteSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (unit < BINARY_UNITS.length - 1 && value >= 1024 && value % 1024 === 0) {
    value /= 1024;
    unit += 1;
  }
  if (value >= 1024 && unit < BINARY_UNITS.length - 1) {
    while (unit < BINARY_UNITS.length - 1 && value >= 1024) {
      value /= 1024;
      unit += 1;
    }
    return `${value.toFixed(1)}${BINARY_UNITS[unit]}`;
  }
  return `${value}${BINARY_UNITS[unit]}`;
}
