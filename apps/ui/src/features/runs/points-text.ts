import { UNTIL_STOPPED_SAMPLES, type RunPointParams } from "@taillab/api";
import { formatInteger, formatSize } from "@taillab/report";
import type { TFunction } from "i18next";
import { outlinePoints } from "./points-outline.ts";

/** "1 client", "8 clients", or a range "1–8 clients". */
function clientsText(min: number, max: number, t: TFunction<"runs">): string {
  const value = min === max ? formatInteger(min) : `${formatInteger(min)}–${formatInteger(max)}`;
  return t("points.clients", { count: max, value });
}

/**
 * One point as people read it, in tables, pickers and headings: `8 clients · 256 × 32 KiB`
 * (256 requests of 32 KiB), rather than the labs' terse `8-256-32KiB`.
 */
export function pointText(params: RunPointParams, t: TFunction<"runs">): string {
  if (params.samples === UNTIL_STOPPED_SAMPLES) {
    return t("points.untilStopped", {
      clients: clientsText(params.clients, params.clients, t),
      size: formatSize(params.objectSizeBytes),
    });
  }
  return t("points.one", {
    clients: clientsText(params.clients, params.clients, t),
    samples: formatInteger(params.samples),
    size: formatSize(params.objectSizeBytes),
  });
}

/** One point as `pointText` says it; a sweep as what it spans. */
export function pointsText(points: readonly RunPointParams[], t: TFunction<"runs">): string {
  const outline = outlinePoints(points);
  const span = (min: string, max: string) => (min === max ? min : `${min}–${max}`);
  if (outline.count <= 1) {
    return pointText(
      {
        clients: outline.clients.min,
        samples: outline.samples.min,
        objectSizeBytes: outline.objectSizeBytes.min,
      },
      t,
    );
  }
  return t("points.sweep", {
    n: outline.count,
    clients: clientsText(outline.clients.min, outline.clients.max, t),
    size: span(formatSize(outline.objectSizeBytes.min), formatSize(outline.objectSizeBytes.max)),
  });
}

/**
 * The point at `index` (from 0) as the point picker lists it and the charts' heading names it:
 * `#4: 8 clients · 64 × 64 KiB`.
 */
export function pointOptionText(
  index: number,
  params: RunPointParams,
  t: TFunction<"runs">,
): string {
  return t("picker.pointOption", { index: index + 1, point: pointText(params, t) });
}
