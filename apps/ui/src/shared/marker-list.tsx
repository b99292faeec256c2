import type { RunMarker } from "@taillab/api";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { TimelineMarker } from "./chart-over-time.ts";
import { markerText } from "./marker-text.ts";

/** The knob changes of a live session (its start left out), as a timeline chart marks them. */
export function timelineMarkers(
  markers: readonly RunMarker[],
  t: TFunction<"common">,
): TimelineMarker[] {
  return markers
    .filter((marker) => marker.changed.length > 0)
    .map((marker) => ({ atMs: marker.atMs, label: markerText(marker, t) }));
}

/** The same changes as a list under the chart: when, and what changed. */
export function MarkerList({
  markers,
  testId,
}: {
  markers: readonly TimelineMarker[];
  testId: string;
}) {
  if (markers.length === 0) return null;
  return (
    <ul className="marker-list muted small" data-testid={testId}>
      {markers.map((marker) => (
        <li key={marker.atMs} data-at-ms={marker.atMs}>
          <span className="mono">{(marker.atMs / 1000).toFixed(1)} s</span> {marker.label}
        </li>
      ))}
    </ul>
  );
}

/** `timelineMarkers` in the current language. */
export function useTimelineMarkers(markers: readonly RunMarker[]): TimelineMarker[] {
  const { t } = useTranslation("common");
  return timelineMarkers(markers, t);
}
