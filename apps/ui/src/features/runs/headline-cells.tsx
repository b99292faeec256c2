import type { Headline } from "@taillab/api";
import { formatFixed } from "@taillab/report";
import { useTranslation } from "react-i18next";
import { opTag } from "./op-tag.ts";
import { msOrDash } from "./results-table.tsx";

/** The phases a library row shows: the cleanup (DELETE) only when nothing else ran. */
function headlinePhases(headline: readonly Headline[]): Headline[] {
  const main = headline.filter((phase) => phase.op !== "DELETE");
  return main.length > 0 ? main : [...headline];
}

export type HeadlineFigure = "p50Ms" | "p99Ms" | "p999Ms" | "opsPerSec";

/** One figure of each headline phase, one line per phase, each with its operation's name. */
export function HeadlineCell({
  headline,
  figure,
}: {
  headline: readonly Headline[];
  figure: HeadlineFigure;
}) {
  const { t } = useTranslation("runs");
  if (headline.length === 0) return <td className="number muted">—</td>;
  return (
    <td className="number headline">
      {headlinePhases(headline).map((phase) => (
        <span
          key={phase.op}
          className="headline-line"
          data-op={phase.op}
          data-value={phase[figure]}
        >
          <span className="op-tag">{opTag(phase.op, t)}</span>
          {figure === "opsPerSec" ? formatFixed(phase.opsPerSec, 1) : msOrDash(phase[figure])}
        </span>
      ))}
    </td>
  );
}
