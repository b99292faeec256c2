import {
  englishOf,
  OPERATION_ENTRIES,
  type Loop,
  type Operation,
  type RunSpec,
  type Workload,
} from "@taillab/api";
import { sendsBackups } from "./never-hedged.ts";
import { operationOf, parseOperationMix } from "./operation-mix.ts";
import type { PhaseAccountShape } from "./phase-account.ts";

/** What decides how a point's phases run and are counted: the spec, or a point run's options. */
export type PhasePlanSpec = Pick<RunSpec, "phases" | "mode" | "hedge"> & {
  openLoop?: unknown;
  workload?: Workload | null | undefined;
};

const OPERATION_OF_PHASE = { write: "PUT", read: "GET", cleanup: "DELETE" } as const;

/**
 * The operations of a mix, in the order the workload names them; a multipart upload is followed
 * by its parts, which get a summary of their own (per-part beside whole-upload latency).
 */
export function mixOperations(workload: Workload): Operation[] {
  const mix = parseOperationMix(workload.ops);
  if (!mix.ok) throw new Error(`workload.ops: ${englishOf(mix.reason)}`);
  return mix.value.flatMap((entry) => {
    const op = operationOf(entry.op);
    const part = OPERATION_ENTRIES[op].partOperation;
    return part === null ? [op] : [op, part];
  });
}

/**
 * The run's phases one repetition of a point takes: s3bench's phases, or a workload's preparation
 * and its mix. Records number phases over the whole run (phaseIndex), point after point and
 * repetition after repetition, each repetition taking all of its phases but the one a stop cut.
 */
export function phasesPerRepetition(spec: {
  phases: readonly string[];
  workload?: Workload | null | undefined;
}): number {
  return spec.workload ? 2 : spec.phases.length;
}

/** Which repetition of its point (from 0) a record of the run's phase `phaseIndex` belongs to. */
export function repetitionOfPhase(
  spec: Parameters<typeof phasesPerRepetition>[0] & { repeat: number },
  pointIndex: number,
  phaseIndex: number,
): number {
  return Math.floor(phaseIndex / phasesPerRepetition(spec)) - pointIndex * spec.repeat;
}

/** A point's measured operations in the order its summary lists them. */
export function summaryOperations(spec: PhasePlanSpec): Operation[] {
  return spec.workload
    ? mixOperations(spec.workload)
    : spec.phases.map((phase) => OPERATION_OF_PHASE[phase]);
}

/**
 * The spec's phases that measured a request, by the operations a run's summary has: a live lab's
 * mix of reads ran "read", not s3bench's "write → read → cleanup", and a run stopped in its reads
 * never cleaned up.
 */
export function phasesThatRan(
  phases: RunSpec["phases"],
  ranOps: ReadonlySet<Operation>,
): RunSpec["phases"] {
  return phases.filter((phase) => ranOps.has(OPERATION_OF_PHASE[phase]));
}

/** s3bench's cleanup phase is a closed loop whatever the spec; everything else follows it. */
export function loopOf(spec: PhasePlanSpec, op: Operation): Loop {
  const open = Boolean(spec.openLoop) && (Boolean(spec.workload) || op !== "DELETE");
  return open ? "open" : "closed";
}

/** How an operation of a point is counted: the engine's and the results store's rule. */
export function phaseShapeOf(spec: PhasePlanSpec, op: Operation): PhaseAccountShape {
  return {
    op,
    loop: loopOf(spec, op),
    hedgeBudgetPct: sendsBackups(spec.mode, op) ? spec.hedge.budgetPercent : null,
  };
}
