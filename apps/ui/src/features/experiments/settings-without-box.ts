import { OpenLoopSchema, RunSpecSchema, WorkloadSchema } from "@taillab/api";

/**
 * Spec settings the builder has no box for (a spec file or the CLI can set them): the builder
 * keeps them as they are, and says which, so an edited run is not silently different.
 */
const WITHOUT_BOX = [
  "bucket",
  "workers",
  "createBucket",
  "untilSteady",
  "hedge.minSamples",
  "openLoop.seed",
  "workload.listPageSize",
  "workload.seed",
] as const;

export interface KeptSetting {
  path: string;
  /** As JSON, the way a spec file writes it. */
  value: string;
}

let defaults: Record<string, unknown> | undefined;

/** Each setting's default, from the schemas that give it. */
function defaultSpec(): Record<string, unknown> {
  defaults ??= {
    ...RunSpecSchema.parse({ clients: [1], samples: [1], objectSize: [1] }),
    openLoop: OpenLoopSchema.parse({ rateHz: 1 }),
    workload: WorkloadSchema.parse({ ops: "get:100" }),
  };
  return defaults;
}

function at(record: Record<string, unknown>, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>(
      (value, key) =>
        typeof value === "object" && value !== null
          ? (value as Record<string, unknown>)[key]
          : undefined,
      record,
    );
}

/** The settings without a box that `spec` sets to other than their default, in a fixed order. */
export function settingsWithoutBox(spec: Record<string, unknown>): KeptSetting[] {
  return WITHOUT_BOX.flatMap((path) => {
    const value = at(spec, path);
    if (value === undefined) return [];
    const shown = JSON.stringify(value);
    return shown === JSON.stringify(at(defaultSpec(), path)) ? [] : [{ path, value: shown }];
  });
}
