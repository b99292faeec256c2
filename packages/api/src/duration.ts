/** Durations and rates as users type them on the command line or in a spec file. */

export type DurationParseResult = { ok: true; ms: number } | { ok: false; reason: string };
export type RateParseResult = { ok: true; rateHz: number } | { ok: false; reason: string };

const MS_PER_UNIT: Record<string, number> = {
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  sec: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
};

const PER_SECOND_PER_UNIT: Record<string, number> = {
  s: 1,
  sec: 1,
  m: 1 / 60,
  min: 1 / 60,
  h: 1 / 3600,
};

// Plain decimals only: "1e3ms" or "0x10s" are more likely typos than intent.
const DECIMAL = String.raw`(\d+(?:\.\d+)?|\.\d+)`;
const DURATION_PATTERN = new RegExp(String.raw`^${DECIMAL}\s*([a-zµ]+)$`, "i");
const RATE_PATTERN = new RegExp(String.raw`^${DECIMAL}\s*(?:/\s*([a-z]+))?$`, "i");

const DURATION_EXPECTED = "expected a duration like 30s, 500ms, 2m, 1.5s or 250us";
const RATE_EXPECTED = "expected a rate like 500/s, 500 (per second) or 30/min";

/**
 * `30s`, `500ms`, `2m`, `1.5s`, `250us` → milliseconds. A unit is required, since a bare `30`
 * could mean seconds or milliseconds. Zero is accepted (a `0s` warm-up, a `0ms` hedge delay);
 * callers that need a positive duration check for it.
 */
export function parseDuration(text: string): DurationParseResult {
  const trimmed = text.trim();
  if (trimmed.startsWith("-")) {
    return { ok: false, reason: `"${trimmed}" is negative; ${DURATION_EXPECTED}` };
  }
  const match = DURATION_PATTERN.exec(trimmed);
  if (!match) {
    const bare = /^\d+(?:\.\d+)?$/.test(trimmed) ? " (the unit is required)" : "";
    return { ok: false, reason: `"${trimmed}" is not a duration${bare}; ${DURATION_EXPECTED}` };
  }
  const [, amount = "", unit = ""] = match;
  const msPerUnit = MS_PER_UNIT[unit.toLowerCase()];
  if (msPerUnit === undefined) {
    return {
      ok: false,
      reason: `"${trimmed}" has an unknown unit "${unit}"; expected one of us, ms, s, m (or min), h`,
    };
  }
  return { ok: true, ms: Number(amount) * msPerUnit };
}

/**
 * `500/s`, `500` (per second), `30/min`, `2/h` → requests per second. The rate must be positive:
 * an open-loop schedule at 0 Hz never sends anything.
 */
export function parseRate(text: string): RateParseResult {
  const trimmed = text.trim();
  if (trimmed.startsWith("-")) {
    return { ok: false, reason: `"${trimmed}" is negative; ${RATE_EXPECTED}` };
  }
  const match = RATE_PATTERN.exec(trimmed);
  if (!match) {
    return { ok: false, reason: `"${trimmed}" is not a rate; ${RATE_EXPECTED}` };
  }
  const [, amount = "", unit = "s"] = match;
  const perSecond = PER_SECOND_PER_UNIT[unit.toLowerCase()];
  if (perSecond === undefined) {
    return {
      ok: false,
      reason: `"${trimmed}" has an unknown time unit "${unit}"; expected /s, /min or /h`,
    };
  }
  const rateHz = Number(amount) * perSecond;
  if (rateHz <= 0) {
    return { ok: false, reason: `"${trimmed}" must be greater than 0; ${RATE_EXPECTED}` };
  }
  return { ok: true, rateHz };
}
