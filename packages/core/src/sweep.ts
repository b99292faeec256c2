import type { RunPointParams, RunSpec } from "@taillab/api";

/**
 * The cartesian run points of a spec, clients outermost, then object size, then samples, so a
 * sweep always runs (and is listed) in the same order.
 */
export function expandSweep(
  spec: Pick<RunSpec, "clients" | "objectSize" | "samples">,
): RunPointParams[] {
  return spec.clients.flatMap((clients) =>
    spec.objectSize.flatMap((objectSizeBytes) =>
      spec.samples.map((samples) => ({ clients, samples, objectSizeBytes })),
    ),
  );
}

/** "8-256-32KiB": the labs' clients-samples-size label for one point. */
export function pointLabel(params: RunPointParams, formatSize: (bytes: number) => string): string {
  return `${params.clients}-${params.samples}-${formatSize(params.objectSizeBytes)}`;
}
