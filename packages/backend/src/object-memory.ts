import { formatByteSize, type FieldError, type RunSpec } from "@taillab/api";
import { expandSweep, maxSizeBytes, parseSizeDistribution } from "@taillab/core";
import { defaultWorkerCount } from "@taillab/engine";
import { totalmem } from "node:os";

export interface MachineMemory {
  memoryBytes: number;
  /** Worker threads a spec without `workers` gets. */
  defaultWorkers: number;
}

export function thisMachine(): MachineMemory {
  return { memoryBytes: totalmem(), defaultWorkers: defaultWorkerCount() };
}

/**
 * Object sizes this machine cannot hold. The engine keeps a point's largest object in memory:
 * one random buffer its workers share, and a copy in each worker (sockets write ordinary
 * buffers). Past the machine's memory the allocation fails mid-start, so such a size is refused
 * before anything is created, naming the field it came from.
 */
export function objectMemoryProblems(
  spec: RunSpec,
  machine: MachineMemory = thisMachine(),
): FieldError[] {
  const sizes = spec.workload?.sizes;
  const distribution = sizes === undefined ? null : parseSizeDistribution(sizes);
  const fromDistribution = distribution?.ok ? maxSizeBytes(distribution.value) : null;
  for (const point of expandSweep(spec)) {
    const largest = fromDistribution ?? point.objectSizeBytes;
    const workers = Math.min(spec.workers ?? machine.defaultWorkers, point.clients);
    const needed = largest * (workers + 1);
    if (needed <= machine.memoryBytes) continue;
    const field = fromDistribution !== null ? "workload.sizes" : objectSizeField(spec, largest);
    return [
      {
        field,
        message: `objects of ${formatByteSize(largest)} need ${formatByteSize(needed)} of memory (the largest object, once shared and once in each of ${workers} worker${workers === 1 ? "" : "s"}); this machine has ${formatByteSize(machine.memoryBytes)}`,
      },
    ];
  }
  return [];
}

function objectSizeField(spec: RunSpec, bytes: number): string {
  if (spec.points)
    return `points[${spec.points.findIndex((p) => p.objectSize === bytes)}].objectSize`;
  return spec.objectSize.length > 1
    ? `objectSize[${spec.objectSize.indexOf(bytes)}]`
    : "objectSize";
}
