import {
  englishOf,
  mixPlanningOf,
  type KeySource,
  type MixPlanning,
  type Operation,
  type Workload,
} from "@taillab/api";
import { createKeyChooser, parseKeyChoice } from "./key-chooser.ts";
import { requestClass } from "./latency-window.ts";
import {
  createOperationChooser,
  operationOf,
  parseOperationMix,
  type WorkloadOperation,
} from "./operation-mix.ts";
import { createRandom } from "./random.ts";
import { createRangeChooser, parseRangeChoice, type ByteRange } from "./range-choice.ts";
import { createSizeSampler, parseSizeDistribution } from "./size-distribution.ts";
import type { TextParseResult } from "./workload-text.ts";

/**
 * What each request of a phase is (operation, keys, size, range, measured or not), worked out
 * before it is built and sent: the same seed plans the same requests. A worker holds one
 * planner per phase and one `PlannedRequest` it is planned into, so planning allocates nothing
 * per request but a ranged GET's range.
 */
export interface PlannedRequest {
  op: Operation;
  /**
   * The key number of the object it reads, writes or deletes (of a batch, the first); -1 when it
   * names none (lists, bucket operations).
   */
  keyNumber: number;
  /** The key number of the object it reads from besides its key (mixPlanning.source); -1 if none. */
  sourceKeyNumber: number;
  /** Of the object read or written (0 when none): it sets the hedge-delay class. */
  sizeBytes: number;
  /** A ranged GET's bytes; null for a whole object. */
  range: ByteRange | null;
  /** An operation on a bucket of its own: this worker's nth bucket of the phase (from 1); 0 otherwise. */
  bucketNumber: number;
  /** False for a workload's warm-up and the objects it prepares: sent and recorded, not counted. */
  measured: boolean;
  /** The hedge-delay class (core's requestClass of the operation and size). */
  requestClass: string;
}

export function emptyPlannedRequest(): PlannedRequest {
  return {
    op: "GET",
    keyNumber: -1,
    sourceKeyNumber: -1,
    sizeBytes: 0,
    range: null,
    bucketNumber: 0,
    measured: false,
    requestClass: "",
  };
}

export interface RequestPlanner {
  /** Plans request `index` of the phase, meant to start at `intendedStartUs` (run µs). */
  plan(index: number, intendedStartUs: number, into: PlannedRequest): void;
}

/** Each key's object size in bytes. */
export type ObjectSizeOf = (keyNumber: number) => number;

/**
 * The point's one size, or a size drawn from the workload's distribution by a generator seeded
 * with the seed and the key, so every worker (and a later read) agrees on it.
 */
export function objectSizesOf(
  objectSizeBytes: number,
  sizes: { distribution: string; seed: number } | null,
): ObjectSizeOf {
  if (!sizes) return () => objectSizeBytes;
  const distribution = parsedOrThrow(parseSizeDistribution(sizes.distribution), "workload.sizes");
  return (keyNumber) =>
    createSizeSampler(distribution, createRandom(sizes.seed * 100_003 + keyNumber)).nextSizeBytes();
}

/** A one-operation phase (write, read, cleanup): request i uses key firstKey + i mod keyCount. */
export interface OperationPhase {
  op: Operation;
  firstKey: number;
  keyCount: number;
  measured: boolean;
}

export function createPhasePlanner(phase: OperationPhase, sizeOf: ObjectSizeOf): RequestPlanner {
  if (!Number.isSafeInteger(phase.keyCount) || phase.keyCount < 1) {
    throw new RangeError(`keyCount must be a whole number of at least 1, got ${phase.keyCount}`);
  }
  const classes = new RequestClasses();
  return {
    plan(index, _intendedStartUs, into) {
      const keyNumber = phase.firstKey + (index % phase.keyCount);
      const sizeBytes = sizeOf(keyNumber);
      into.op = phase.op;
      into.keyNumber = keyNumber;
      into.sourceKeyNumber = -1;
      into.sizeBytes = sizeBytes;
      into.range = null;
      into.bucketNumber = 0;
      into.measured = phase.measured;
      into.requestClass = classes.of(phase.op, sizeBytes);
    },
  };
}

/**
 * A mixed workload as one worker plans it. Prepared objects are key numbers
 * [firstKey, firstKey + workload.prepareObjects); new objects take numbers from newKeyFirst on,
 * handed out by `newKeys[0]`, a counter every worker of the phase shares.
 */
export interface MixPhase {
  workload: Workload;
  firstKey: number;
  newKeyFirst: number;
  newKeys: Int32Array;
  /** Requests meant to start before this run time (µs) are not measured. */
  warmupEndUs: number;
  measured: boolean;
  /** Seeds this worker's choices apart from the other workers'. */
  workerIndex: number;
}

/**
 * A mixed workload's requests, each planned as its operation's module says (mixPlanning): reads
 * use the prepared objects, so they never miss; writes take new keys; deletes pick one of the new
 * keys handed out so far, written yet or not. The operation, the source, the key and the range
 * are drawn in that order from one generator seeded with the workload's seed and the worker.
 */
export function createMixPlanner(mix: MixPhase, sizeOf: ObjectSizeOf): RequestPlanner {
  const { workload } = mix;
  const random = createRandom(workload.seed * 7919 + mix.workerIndex);
  const weights = parsedOrThrow(parseOperationMix(workload.ops), "workload.ops");
  const drawn = new Map<WorkloadOperation, DrawnOperation>(
    weights.map(({ op }) => [op, { op: operationOf(op), planning: mixPlanningOf(op) }]),
  );
  const operations = createOperationChooser(weights, random);
  const preparedKeys = createKeyChooser(
    parsedOrThrow(parseKeyChoice(workload.keys), "workload.keys"),
    workload.prepareObjects,
    random,
  );
  const ranges =
    workload.range === undefined
      ? null
      : createRangeChooser(
          parsedOrThrow(parseRangeChoice(workload.range), "workload.range"),
          random,
        );
  const classes = new RequestClasses();
  let bucketNumber = 0;
  const keyFrom: Record<KeySource, () => number> = {
    prepared: () => mix.firstKey + preparedKeys.next(),
    new: () => mix.newKeyFirst + Atomics.add(mix.newKeys, 0, 1),
    written: () => {
      const written = Math.max(1, Atomics.load(mix.newKeys, 0));
      return mix.newKeyFirst + Math.floor(random.next() * written);
    },
  };
  return {
    plan(_index, intendedStartUs, into) {
      // The chooser draws only the mix's own words, each of which is in the map.
      const { op, planning } = drawn.get(operations.next()) as DrawnOperation;
      const sourceKeyNumber = planning.source === null ? -1 : keyFrom[planning.source]();
      const keyNumber = planning.key === null ? -1 : keyFrom[planning.key]();
      const sizedKey = planning.sizedBy === "source" ? sourceKeyNumber : keyNumber;
      const sizeBytes = planning.sizedBy === null ? 0 : sizeOf(sizedKey);
      into.op = op;
      into.keyNumber = keyNumber;
      into.sourceKeyNumber = sourceKeyNumber;
      into.sizeBytes = sizeBytes;
      into.range = planning.ranged && ranges !== null ? ranges.nextRange(sizeBytes) : null;
      into.bucketNumber = planning.bucket ? ++bucketNumber : 0;
      into.measured = mix.measured && intendedStartUs >= mix.warmupEndUs;
      into.requestClass = classes.of(op, sizeBytes);
    },
  };
}

/** An operation a mix draws, by its name in records, and how its requests are planned. */
interface DrawnOperation {
  op: Operation;
  planning: MixPlanning;
}

/** Beyond this many (operation, size) pairs, a class is worked out again rather than kept. */
const CLASSES_KEPT = 10_000;

/** requestClass per operation and size, kept: no key string is made per request. */
class RequestClasses {
  private readonly byOperation = new Map<Operation, Map<number, string>>();
  private kept = 0;

  of(op: Operation, sizeBytes: number): string {
    let bySize = this.byOperation.get(op);
    if (bySize === undefined) {
      bySize = new Map();
      this.byOperation.set(op, bySize);
    }
    let found = bySize.get(sizeBytes);
    if (found === undefined) {
      found = requestClass(op, sizeBytes);
      if (this.kept < CLASSES_KEPT) {
        bySize.set(sizeBytes, found);
        this.kept += 1;
      }
    }
    return found;
  }
}

function parsedOrThrow<T>(result: TextParseResult<T>, field: string): T {
  if (!result.ok) throw new Error(`${field}: ${englishOf(result.reason)}`);
  return result.value;
}
