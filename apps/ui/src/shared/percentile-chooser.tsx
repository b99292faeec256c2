import { PALETTES, PERCENTILE_LABELS, type PercentileKey } from "@taillab/report";
import { useTranslation } from "react-i18next";
import { useSettings } from "../app/settings-store.ts";

/**
 * Toggle chips, one per percentile a chart can draw, each in its colour: a chart shows the
 * chosen ones. The last one cannot be turned off (a chart with none would be empty).
 */
export function PercentileChooser({
  offered,
  chosen,
  onChange,
  testId,
  colored = true,
}: {
  offered: readonly PercentileKey[];
  chosen: readonly PercentileKey[];
  onChange: (chosen: PercentileKey[]) => void;
  testId?: string;
  /** Each chip shows the percentile's colour (off where a chart tells them apart by dash). */
  colored?: boolean;
}) {
  const { t } = useTranslation("common");
  const colors = PALETTES[useSettings((state) => state.theme)].percentiles;
  return (
    <span className="percentile-chooser" role="group" aria-label={t("chart.percentiles")}>
      {offered.map((key) => {
        const on = chosen.includes(key);
        return (
          <button
            key={key}
            type="button"
            className="chip small"
            aria-pressed={on}
            data-testid={testId ? `${testId}-${key}` : undefined}
            disabled={on && chosen.length === 1}
            onClick={() =>
              onChange(
                on
                  ? chosen.filter((known) => known !== key)
                  : offered.filter((known) => known === key || chosen.includes(known)),
              )
            }
          >
            {colored ? (
              <span
                className="chip-swatch"
                style={{ background: colors[key] }}
                aria-hidden="true"
              />
            ) : null}
            {PERCENTILE_LABELS[key]}
          </button>
        );
      })}
    </span>
  );
}
