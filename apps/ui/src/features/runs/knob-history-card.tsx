import type { IntervalStats, RunMarker } from "@taillab/api";
import { knobSpans } from "@taillab/core";
import { formatFixed, formatInteger } from "@taillab/report";
import { useTranslation } from "react-i18next";
import { formatKnobMs, formatKnobPercent } from "../../shared/display-format.ts";
import { hedgeDelayText } from "../live-run/live-knobs-model.ts";

/**
 * What a live session ran: its knobs at the start and after each change, with the requests
 * answered under each setting — every replica count and mode it had, not only the last.
 */
export function KnobHistoryCard({
  markers,
  intervals,
}: {
  markers: readonly RunMarker[];
  intervals: readonly IntervalStats[];
}) {
  const { t } = useTranslation("runs");
  const { t: tLive } = useTranslation("live");
  const spans = knobSpans(markers, intervals);
  if (spans.length === 0) return null;
  const seconds = (ms: number) => formatFixed(ms / 1000, 1);
  return (
    <section className="card" data-testid="knob-history" data-spans={spans.length}>
      <h3>{t("knobHistory.title")}</h3>
      <p className="muted">{t("knobHistory.intro")}</p>
      <div className="table-scroll">
        <table className="data">
          <thead>
            <tr>
              <th>{t("knobHistory.when")}</th>
              <th>{tLive("knobs.mode")}</th>
              <th className="number">{tLive("knobs.replicas")}</th>
              <th className="number">{tLive("knobs.stallProbability")}</th>
              <th className="number">{tLive("knobs.stallMs")}</th>
              <th className="number">{tLive("knobs.serviceMs")}</th>
              <th className="number">{tLive("knobs.hedgeDelay")}</th>
              <th className="number">{t("knobHistory.requests")}</th>
            </tr>
          </thead>
          <tbody>
            {spans.map((span) => (
              <tr
                key={span.fromMs}
                data-testid="knob-span"
                data-mode={span.tuning.mode}
                data-replicas={span.tuning.replicas}
                data-requests={span.requests}
              >
                <td>
                  {span.changed.length === 0
                    ? t("knobHistory.start")
                    : span.toMs === null
                      ? t("knobHistory.fromEnd", { from: seconds(span.fromMs) })
                      : t("knobHistory.span", {
                          from: seconds(span.fromMs),
                          to: seconds(span.toMs),
                        })}
                </td>
                <td>{tLive(`mode.${span.tuning.mode}`)}</td>
                <td className="number">{span.tuning.replicas}</td>
                <td className="number">{formatKnobPercent(span.tuning.stallProbability * 100)}</td>
                <td className="number">{formatKnobMs(span.tuning.stallMs)}</td>
                <td className="number">{formatKnobMs(span.tuning.serviceMs)}</td>
                <td className="number" translate="no">
                  {hedgeDelayText(span.tuning.hedgeDelay)}
                </td>
                <td className="number">{formatInteger(span.requests)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
