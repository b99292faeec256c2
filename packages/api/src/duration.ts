/** Durations and rates as users type them on the command line or in a spec file. */
import { coded, failedParse, type CodedMessage } from "./coded-message.ts";

export type DurationParseResult = { ok: true; ms: number } | { ok: false; reason: CodedMessage };
export type RateParseResult = { ok: true; rateHz: number } | { ok: false; reason: CodedMessage };

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

const durationProblem = (problem: CodedMessage) => failedParse(problem, coded("durationExpected"));
const rateProblem = (problem: CodedMessage) => failedParse(problem, coded("rateExpected"));

/**
 * `30s`, `500ms`, `2m`, `1.5s`, `250us` → milliseconds. A unit is required, since a bare `30`
 * could mean seconds or milliseconds. Zero is accepted (a `0s` warm-up, a `0ms` hedge delay);
 * callers that need a positive duration check for it.
 */
export function parseDuration(text: string): DurationParseResult {
  const trimmed = text.trim();
  if (trimmed.startsWith("-")) {
    return durationProblem(coded("durationNegative", { text: trimmed }));
  }
  const match = DURATION_PATTERN.exec(trimmed);
  if (!match) {
    const bare = /^\d+(?:\.\d+)?$/.test(trimmed);
    return durationProblem(
      coded(bare ? "durationUnitRequired" : "durationNotDuration", { text: trimmed }),
    );
  }
  const [, amount = "", unit = ""] = match;
  const msPerUnit = MS_PER_UNIT[unit.toLowerCase()];
  if (msPerUnit === undefined) {
    return { ok: false, reason: coded("durationUnknownUnit", { text: trimmed, unit }) };
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
    return rateProblem(coded("rateNegative", { text: trimmed }));
  }
  const match = RATE_PATTERN.exec(trimmed);
  if (!match) {
    return rateProblem(coded("rateNotRate", { text: trimmed }));
  }
  const [, amount = "", unit = "s"] = match;
  const perSecond = PER_SECOND_PER_UNIT[unit.toLowerCase()];
  if (perSecond === undefined) {
    return { ok: false, reason: coded("rateUnknownUnit", { text: trimmed, unit }) };
  }
  const rateHz = Number(amount) * perSecond;
  if (rateHz <= 0) {
    return rateProblem(coded("rateNotPositive", { text: trimmed }));
  }
  return { ok: true, rateHz };
}
