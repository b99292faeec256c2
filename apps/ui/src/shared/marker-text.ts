import type { LiveTuning, RunMarker } from "@taillab/api";
import { formatKnobMs, formatKnobPercent } from "./display-format.ts";
import type { TFunction } from "i18next";

/** One knob's value as the lab shows it: `2 %`, `500 ms`, `3`, `hedged`, `p95`. */
export function knobValueText<K extends keyof LiveTuning>(
  knob: K,
  tuning: LiveTuning,
  t: TFunction<"common">,
): string {
  switch (knob) {
    case "stallProbability":
      return formatKnobPercent(tuning.stallProbability * 100);
    case "stallMs":
    case "serviceMs":
      return formatKnobMs(tuning[knob] as number);
    case "hedgeBudgetPercent":
      return formatKnobPercent(tuning.hedgeBudgetPercent);
    case "hedgeDelay": {
      const delay = tuning.hedgeDelay;
      return delay.kind === "percentile" ? `p${delay.percentile}` : formatKnobMs(delay.delayMs);
    }
    case "mode":
      return t(`knobs.modes.${tuning.mode}`);
    default:
      return String(tuning[knob]);
  }
}

/** What a knob change did, for a marker's tooltip and a list: `stalls 5 % · mode hedged`. */
export function markerText(marker: RunMarker, t: TFunction<"common">): string {
  if (marker.changed.length === 0) return t("knobs.start");
  return marker.changed
    .map((knob) => `${t(`knobs.names.${knob}`)} ${knobValueText(knob, marker.tuning, t)}`)
    .join(" · ");
}
