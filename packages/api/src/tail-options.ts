/**
 * How users write the tail-latency options of a spec: the hedge delay (`30ms`, `p95`) and the
 * hedge budget (`5%`). The schemas and the CLI share these parsers.
 */
import { parseDuration } from "./duration.ts";

export type HedgeDelaySpec =
  { kind: "fixed"; delayMs: number } | { kind: "percentile"; percentile: number };
export type HedgeDelayParseResult =
  { ok: true; value: HedgeDelaySpec } | { ok: false; reason: string };

const HEDGE_DELAY_EXPECTED = "expected a duration like 30ms or a percentile like p95";
const PERCENTILE_PATTERN = /^p(\d+(?:\.\d+)?)$/i;

/** `30ms`, `0.5s`, `250us` → a fixed delay; `p95`, `p99.9` → a percentile of recent latencies. */
export function parseHedgeDelay(text: string): HedgeDelayParseResult {
  const trimmed = text.trim();
  if (/^p/i.test(trimmed)) {
    const match = PERCENTILE_PATTERN.exec(trimmed);
    const percentile = match ? Number(match[1]) : Number.NaN;
    if (!(percentile > 0 && percentile < 100)) {
      return {
        ok: false,
        reason: `"${trimmed}" is not a percentile above p0 and below p100; ${HEDGE_DELAY_EXPECTED}`,
      };
    }
    return { ok: true, value: { kind: "percentile", percentile } };
  }
  const duration = parseDuration(trimmed);
  if (!duration.ok) {
    return { ok: false, reason: `"${trimmed}" is not a hedge delay; ${HEDGE_DELAY_EXPECTED}` };
  }
  return { ok: true, value: { kind: "fixed", delayMs: duration.ms } };
}

export type BudgetPercentParseResult =
  { ok: true; percent: number } | { ok: false; reason: string };

const BUDGET_EXPECTED = "expected a percentage like 5%";

/** `5%`, `0.5%`, `100%` → 5, 0.5, 100. The `%` is required so that `0.05` is not misread. */
export function parseBudgetPercent(text: string): BudgetPercentParseResult {
  const trimmed = text.trim();
  if (trimmed.startsWith("-")) {
    return { ok: false, reason: `"${trimmed}" is negative; ${BUDGET_EXPECTED}` };
  }
  const match = /^(\d+(?:\.\d+)?|\.\d+)\s*%$/.exec(trimmed);
  if (!match) {
    const bare = /^\d+(?:\.\d+)?$/.test(trimmed) ? " (the % sign is required)" : "";
    return { ok: false, reason: `"${trimmed}" is not a percentage${bare}; ${BUDGET_EXPECTED}` };
  }
  const percent = Number(match[1]);
  if (percent > 100) {
    return { ok: false, reason: `"${trimmed}" is more than 100%; ${BUDGET_EXPECTED}` };
  }
  return { ok: true, percent };
}
