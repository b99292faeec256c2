import { englishOf, type RunSpecInput } from "@taillab/api";
import { maxSizeBytes, parseSizeDistribution } from "./size-distribution.ts";
import { expandPreset } from "./workload-presets.ts";

/**
 * A preset as the run spec a user could have written, at `scale` (see expandPreset). Mixed
 * presets become a workload whose objects take the preset's size distribution; sweeps become
 * explicit run points. Other spec fields (endpoint, bucket, mode…) are the caller's.
 */
export function presetRunSpec(name: string, scale = 1): RunSpecInput {
  const preset = expandPreset(name, scale);
  if (preset.kind === "sweep") {
    const [first] = preset.points;
    if (!first) throw new RangeError(`preset "${name}" has no points`);
    return { name: preset.description, ...first, points: preset.points };
  }
  const sizes = parseSizeDistribution(preset.objectSize);
  if (!sizes.ok) throw new RangeError(`preset "${name}": ${englishOf(sizes.reason)}`);
  const fixed = sizes.value.kind === "fixed";
  return {
    name: preset.description,
    clients: preset.clients,
    samples: preset.requests,
    objectSize: fixed ? preset.objectSize : maxSizeBytes(sizes.value),
    workload: {
      ops: preset.ops,
      keys: preset.keys,
      prepareObjects: preset.prepareObjects,
      ...(fixed ? {} : { sizes: preset.objectSize }),
    },
  };
}
