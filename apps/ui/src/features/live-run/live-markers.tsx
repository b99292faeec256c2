import { useTranslation } from "react-i18next";
import { MarkerList, useTimelineMarkers } from "../../shared/marker-list.tsx";
import { useLiveRun } from "./live-run-store.ts";

/**
 * The live tail lab's knob changes, beside the chart that marks them: under the knobs, in the
 * room the chart's column leaves there, scrolling within it with the newest in view. Under the
 * chart a class's twentieth change would push the knobs or the chart off the projected screen.
 */
export function LiveMarkers() {
  const { t } = useTranslation("live");
  const markers = useTimelineMarkers(useLiveRun((state) => state.markers));
  if (markers.length === 0) return null;
  return (
    <section className="card live-markers" aria-labelledby="live-markers-title">
      <div className="live-markers-room">
        <h2 id="live-markers-title">{t("knobs.changes")}</h2>
        {/* Focusable: a keyboard scrolls it too. */}
        <div className="live-markers-scroll" tabIndex={0}>
          <MarkerList markers={markers} testId="live-markers" />
        </div>
      </div>
    </section>
  );
}
