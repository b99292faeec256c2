import { UNTIL_STOPPED_SAMPLES, type RunPointParams, type RunSpec } from "@taillab/api";

/**
 * The cartesian run points of a spec, clients outermost, then object size, then samples, so a
 * sweep always runs (and is listed) in the same order. `samples` is the number of requests per
 * phase: for an open loop with a duration, rate × duration; until stopped, UNTIL_STOPPED_SAMPLES.
 * Explicit `points` replace it all.
 */
export function expandSweep(
  spec: Pick<RunSpec, "clients" | "objectSize" | "samples" | "openLoop" | "points">,
): RunPointParams[] {
  if (spec.points) {
    return spec.points.map(({ clients, samples, objectSize }) => ({
      clients,
      samples,
      objectSizeBytes: objectSize,
    }));
  }
  const samplesList = spec.samples ?? [openLoopRequests(spec.openLoop)];
  return spec.clients.flatMap((clients) =>
    spec.objectSize.flatMap((objectSizeBytes) =>
      samplesList.map((samples) => ({ clients, samples, objectSizeBytes })),
    ),
  );
}

function openLoopRequests(openLoop: RunSpec["openLoop"]): number {
  if (openLoop?.untilStopped) return UNTIL_STOPPED_SAMPLES;
  const durationMs = openLoop?.durationMs;
  if (!openLoop || durationMs === undefined) {
    throw new Error("expandSweep: a spec without samples needs an open-loop duration");
  }
  return Math.max(1, Math.round((openLoop.rateHz * durationMs) / 1000));
}

/**
 * The labs' size sweep at a fixed total: at each object size, as many requests as move
 * `totalBytes` (512 × 8 KiB … 2 × 2 MiB for 4 MiB), rounded, and never fewer than the clients.
 */
export function fixedTotalPoints(
  totalBytes: number,
  sizesBytes: readonly number[],
  clients: number,
): RunPointParams[] {
  return sizesBytes.map((objectSizeBytes) => ({
    clients,
    samples: Math.max(clients, Math.round(totalBytes / objectSizeBytes)),
    objectSizeBytes,
  }));
}
