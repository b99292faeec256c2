/**
 * How users write the tail-latency options of a spec: the hedge delay (`30ms`, `p95`) and the
 * hedge budget (`5%`). The schemas and the CLI share these parsers.
 */
import { coded, failedParse, type CodedMessage } from "./coded-message.ts";
import { parseDuration } from "./duration.ts";

export type HedgeDelaySpec =
  { kind: "fixed"; delayMs: number } | { kind: "percentile"; percentile: number };
export type HedgeDelayParseResult =
  { ok: true; value: HedgeDelaySpec } | { ok: false; reason: CodedMessage };

const delayProblem = (problem: CodedMessage) => failedParse(problem, coded("hedgeDelayExpected"));
const PERCENTILE_PATTERN = /^p(\d+(?:\.\d+)?)$/i;

/** `30ms`, `0.5s`, `250us` → a fixed delay; `p95`, `p99.9` → a percentile of recent latencies. */
export function parseHedgeDelay(text: string): HedgeDelayParseResult {
  const trimmed = text.trim();
  if (/^p/i.test(trimmed)) {
    const match = PERCENTILE_PATTERN.exec(trimmed);
    const percentile = match ? Number(match[1]) : Number.NaN;
    if (!(percentile > 0 && percentile < 100)) {
      return delayProblem(coded("hedgeDelayBadPercentile", { text: trimmed }));
    }
    return { ok: true, value: { kind: "percentile", percentile } };
  }
  const duration = parseDuration(trimmed);
  if (!duration.ok) {
    return delayProblem(coded("hedgeDelayNotDelay", { text: trimmed }));
  }
  return { ok: true, value: { kind: "fixed", delayMs: duration.ms } };
}

export type BudgetPercentParseResult =
  { ok: true; percent: number } | { ok: false; reason: CodedMessage };

const budgetProblem = (problem: CodedMessage) => failedParse(problem, coded("budgetExpected"));

/** `5%`, `0.5%`, `100%` → 5, 0.5, 100. The `%` is required so that `0.05` is not misread. */
export function parseBudgetPercent(text: string): BudgetPercentParseResult {
  const trimmed = text.trim();
  if (trimmed.startsWith("-")) {
    return budgetProblem(coded("budgetNegative", { text: trimmed }));
  }
  const match = /^(\d+(?:\.\d+)?|\.\d+)\s*%$/.exec(trimmed);
  if (!match) {
    const bare = /^\d+(?:\.\d+)?$/.test(trimmed);
    return budgetProblem(
      coded(bare ? "budgetSignRequired" : "budgetNotPercentage", { text: trimmed }),
    );
  }
  const percent = Number(match[1]);
  if (percent > 100) {
    return budgetProblem(coded("budgetAbove100", { text: trimmed }));
  }
  return { ok: true, percent };
}
