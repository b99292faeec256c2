import type { FigureSpan, HeadlineSpan } from "@taillab/api";
import { formatFixed } from "@taillab/report";
import { useTranslation } from "react-i18next";
import { opTag } from "./op-tag.ts";
import { msOrDash } from "./results-table.tsx";
import { headlinePhases } from "./run-filter.ts";

export type HeadlineFigure = "p50Ms" | "p99Ms" | "p999Ms" | "opsPerSec";

function figureText(figure: HeadlineFigure, value: number): string {
  return figure === "opsPerSec" ? formatFixed(value, 1) : msOrDash(value);
}

/**
 * One figure of each headline phase over the run's points, one line per phase, each with its
 * operation's name: a single value for one point, "lowest–highest" across a sweep's points.
 */
export function HeadlineCell({
  spans,
  figure,
}: {
  spans: readonly HeadlineSpan[];
  figure: HeadlineFigure;
}) {
  const { t } = useTranslation("runs");
  if (spans.length === 0) return <td className="number muted">—</td>;
  return (
    <td className="number headline">
      {headlinePhases(spans).map((phase) => {
        const span: FigureSpan | null = phase[figure];
        const spread = span !== null && span.low !== span.high;
        return (
          <span
            key={phase.op}
            className="headline-line"
            data-op={phase.op}
            data-low={span?.low}
            data-high={span?.high}
            title={spread ? t("library.span", { n: phase.points }) : undefined}
          >
            <span className="op-tag">{opTag(phase.op, t)}</span>
            {span === null
              ? "—"
              : spread
                ? `${figureText(figure, span.low)}–${figureText(figure, span.high)}`
                : figureText(figure, span.low)}
          </span>
        );
      })}
    </td>
  );
}
