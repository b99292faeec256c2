import type { ExperimentDraft, ExperimentPreview, RunSpec, StoredEndpoint } from "@taillab/api";
import { checkExperiment, measuredRequestCount, openLoopDurationMs } from "./experiment-spec.ts";

/**
 * What running a draft would do — its sweep's points, the measured requests over every run of
 * the series, and for an open loop how long they take — or every bad field, named as in the draft.
 */
export function previewExperiment(
  draft: ExperimentDraft,
  findEndpoint: (id: string) => StoredEndpoint | undefined,
): ExperimentPreview {
  const checked = checkExperiment(draft, findEndpoint);
  if (!checked.ok) return checked;
  const { specs, points } = checked;
  // The runs of a series differ only in their mode, so each takes as many requests and as long.
  const durationMs = openLoopDurationMs(specs[0] as RunSpec, points);
  return {
    ok: true,
    points,
    requestCount: measuredRequestCount(specs[0] as RunSpec, points) * specs.length,
    durationMs: durationMs === null ? null : durationMs * specs.length,
  };
}
