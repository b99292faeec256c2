import type { RunPointParams } from "@taillab/api";
import { formatInteger, formatSize } from "@taillab/report";
import type { TFunction } from "i18next";
import { outlinePoints } from "./points-outline.ts";

/** One point as the labs write it (`8 clients × 256 × 32 KiB`); a sweep as what it spans. */
export function pointsText(points: readonly RunPointParams[], t: TFunction<"runs">): string {
  const outline = outlinePoints(points);
  const span = (min: string, max: string) => (min === max ? min : `${min}–${max}`);
  if (outline.count <= 1) {
    return t("points.one", {
      clients: outline.clients.min,
      samples: formatInteger(outline.samples.min),
      size: formatSize(outline.objectSizeBytes.min),
    });
  }
  return t("points.sweep", {
    n: outline.count,
    clients: span(String(outline.clients.min), String(outline.clients.max)),
    size: span(formatSize(outline.objectSizeBytes.min), formatSize(outline.objectSizeBytes.max)),
  });
}

/** A point as the labs name it in tables: `8-256-32 KiB` (clients-samples-size). */
export function pointLabel(params: RunPointParams): string {
  return `${params.clients}-${formatInteger(params.samples)}-${formatSize(params.objectSizeBytes)}`;
}

/**
 * The point at `index` (from 0) as the point picker lists it and the charts' heading names it:
 * `#4: 8 clients × 64 × 64 KiB`.
 */
export function pointOptionText(
  index: number,
  params: RunPointParams,
  t: TFunction<"runs">,
): string {
  return t("picker.pointOption", {
    index: index + 1,
    clients: params.clients,
    samples: formatInteger(params.samples),
    size: formatSize(params.objectSizeBytes),
  });
}
