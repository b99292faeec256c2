import type { RunSummary } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { pointOptionText } from "./points-text.ts";
import type { PhaseChoice } from "./run-detail-store.ts";

/** Which point of a sweep and which phase the charts show. */
export function PhasePicker({
  summary,
  choice,
  onChoose,
  onChoosePoint,
}: {
  summary: RunSummary;
  choice: PhaseChoice;
  onChoose: (choice: PhaseChoice) => void;
  onChoosePoint: (pointIndex: number) => void;
}) {
  const { t } = useTranslation("runs");
  const point = summary.points[choice.pointIndex];
  return (
    <div className="toolbar phase-picker">
      {summary.points.length > 1 ? (
        <label className="inline-field">
          <span>{t("picker.point")}</span>
          <select
            data-testid="point-picker"
            value={choice.pointIndex}
            onChange={(event) => onChoosePoint(Number(event.target.value))}
          >
            {summary.points.map((entry, index) => (
              <option key={index} value={index}>
                {pointOptionText(index, entry.params, t)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <div className="tabs" role="tablist" aria-label={t("picker.phase")}>
        {point?.phases.map((phase) => (
          <button
            key={phase.op}
            type="button"
            role="tab"
            className="tab"
            data-testid="phase-tab"
            data-op={phase.op}
            aria-selected={phase.op === choice.op}
            onClick={() => onChoose({ pointIndex: choice.pointIndex, op: phase.op })}
          >
            {t(`ops.${phase.op}`)}
          </button>
        ))}
      </div>
    </div>
  );
}
