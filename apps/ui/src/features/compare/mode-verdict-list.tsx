import { P999_MIN_REQUESTS, modeVerdicts } from "@taillab/core";
import { formatFixed, formatInteger, formatMs, formatPercent, formatSigned } from "@taillab/report";
import { useTranslation } from "react-i18next";
import type { ModeEntry } from "./mode-comparison.ts";

/**
 * One line per mode against normal ("hedged: p99.9 −68 % for +7.4 % requests") and, where a mode
 * did not cut the tail, why as far as its figures tell. The compare screen and the walkthrough's
 * conclusion say the same.
 */
export function ModeVerdictList({ entries }: { entries: readonly ModeEntry[] }) {
  const { t } = useTranslation("compare");
  const { t: tRuns } = useTranslation("runs");
  const verdicts = modeVerdicts(entries);
  const normal = entries.find((entry) => entry.mode === "normal");
  if (verdicts.length === 0 || !normal) return null;
  return (
    <ul className="mode-verdicts" data-testid="mode-verdicts">
      {verdicts.map((verdict) => {
        const entry = entries.find((each) => each.runIndex === verdict.runIndex);
        return (
          <li
            key={verdict.runIndex}
            data-testid="mode-verdict"
            data-mode={verdict.mode}
            data-p999-change-pct={verdict.p999ChangePct}
            data-no-gain={verdict.noGain ?? undefined}
          >
            <strong>
              {t("modes.verdict", {
                mode: tRuns(`modes.${verdict.mode}`),
                // A tail made worse reads +46 %, not 46 %: the sign is the verdict.
                change: formatSigned(formatFixed(verdict.p999ChangePct, 0), verdict.p999ChangePct),
                extra: formatPercent(verdict.extraPct, 1),
              })}
            </strong>
            {verdict.noGain ? (
              <span className="muted" data-testid="mode-no-gain">
                {" "}
                {t(`modes.noGain.${verdict.noGain}`, {
                  requests: formatInteger(P999_MIN_REQUESTS),
                  budget: formatPercent(entry?.budgetPct ?? 0, 0),
                  delay: formatMs(entry?.hedgeDelayMs ?? 0),
                  p999: formatMs(normal.p999Ms),
                })}
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
