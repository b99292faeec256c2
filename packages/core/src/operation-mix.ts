import { coded, MIX_WORDS, operationOfMixWord, type MixWord, type Operation } from "@taillab/api";
import type { Random } from "./random.ts";
import { createWeightedIndex } from "./uniform-draw.ts";
import {
  itemProblem,
  normalisePct,
  parseFailure,
  parseWeight,
  splitItems,
  type TextParseResult,
} from "./workload-text.ts";

/**
 * The S3 operations a mixed workload can issue, by the words the api's operation modules give
 * them. `get` may be ranged (see range-choice.ts); `multipart` is a whole multipart upload
 * (create, parts, complete); `list` is one ListObjectsV2 page.
 */
export const WORKLOAD_OPERATIONS: readonly WorkloadOperation[] = MIX_WORDS;
export type WorkloadOperation = MixWord;

/** The name a workload operation has in records and summaries: `delete-objects` → DELETE_OBJECTS. */
export function operationOf(op: WorkloadOperation): Operation {
  return operationOfMixWord(op);
}

export interface OperationWeight {
  op: WorkloadOperation;
  /** Share of requests, 0–100; the shares of a mix add up to 100. */
  weightPct: number;
}

function isWorkloadOperation(name: string): name is WorkloadOperation {
  return (WORKLOAD_OPERATIONS as readonly string[]).includes(name);
}

/**
 * `get:70,put:20,delete:5,list:5` → shares in %, in the order written. Weights are relative
 * (`get:7,put:2` is 78 %/22 %) and may carry a `%`. Names are case-insensitive. Without any
 * weights, operations share equally (`get,put` is 50/50); weights on some but not all are an
 * error, as is an operation named twice.
 */
export function parseOperationMix(text: string): TextParseResult<OperationWeight[]> {
  const trimmed = text.trim();
  if (trimmed === "") {
    return parseFailure(coded("mixEmpty"));
  }
  const items = splitItems(trimmed);
  if (items.includes("")) {
    return parseFailure(itemProblem(trimmed, coded("mixEmptyItem")));
  }
  const weighted = items.filter((item) => item.includes(":"));
  if (weighted.length > 0 && weighted.length < items.length) {
    const bare = items.find((item) => !item.includes(":")) as string;
    return parseFailure(
      coded("mixMissingWeight", { problem: itemProblem(bare, coded("mixNoWeight")) }),
    );
  }
  const ops: WorkloadOperation[] = [];
  const weights: number[] = [];
  for (const item of items) {
    const colon = item.indexOf(":");
    const name = (colon === -1 ? item : item.slice(0, colon)).trim().toLowerCase();
    if (!isWorkloadOperation(name)) {
      return parseFailure(
        itemProblem(
          item,
          coded("mixUnknownOperation", { name, operations: WORKLOAD_OPERATIONS.join(", ") }),
        ),
      );
    }
    if (ops.includes(name)) {
      return parseFailure(itemProblem(item, coded("mixTwice", { name })));
    }
    const weight =
      colon === -1 ? { ok: true as const, value: 1 } : parseWeight(item.slice(colon + 1));
    if (!weight.ok) return parseFailure(itemProblem(item, weight.reason));
    ops.push(name);
    weights.push(weight.value);
  }
  const shares = normalisePct(weights);
  return {
    ok: true,
    value: ops.map((op, index) => ({ op, weightPct: shares[index] as number })),
  };
}

/** `get:70,put:20,delete:5,list:5`: text `parseOperationMix` reads back as the same mix. */
export function formatOperationMix(mix: readonly OperationWeight[]): string {
  return mix.map(({ op, weightPct }) => `${op}:${weightPct}`).join(",");
}

/**
 * smooth: a deterministic largest-deficit schedule (the same sequence as nginx's smooth weighted
 * round-robin), so every prefix of the sequence is within about one request per operation of the
 * requested mix; ties are broken at random so equal shares do not always come out in the same
 * order. Its rhythm is regular: at 5 % a delete comes every 20th request, never two in a row.
 * independent: each operation is drawn afresh with its probability, so the mix is only right on
 * average (±2 % at 10 000 requests is about 4 standard errors of a 50 % share) but bursts occur
 * as they would from independent users.
 */
export type OperationChoiceStrategy = "smooth" | "independent";

export interface OperationChooserOptions {
  /** Default `smooth`. */
  strategy?: OperationChoiceStrategy;
}

export interface OperationChooser {
  /** The operation of the next request. */
  next(): WorkloadOperation;
}

export function createOperationChooser(
  mix: readonly OperationWeight[],
  random: Random,
  options: OperationChooserOptions = {},
): OperationChooser {
  checkMix(mix);
  const ops = mix.map((entry) => entry.op);
  if (options.strategy === "independent") {
    const pick = createWeightedIndex(
      mix.map((entry) => entry.weightPct),
      random,
    );
    return { next: () => ops[pick()] as WorkloadOperation };
  }

  const total = mix.reduce((sum, entry) => sum + entry.weightPct, 0);
  const shares = mix.map((entry) => entry.weightPct / total);
  const counts = new Array<number>(mix.length).fill(0);
  let drawn = 0;
  return {
    next() {
      // The deficit of each operation against its ideal count after this draw. It is computed
      // from whole counts each time, so floating-point error does not build up over long runs.
      const target = drawn + 1;
      const tolerance = 1e-9 * target;
      let chosen = 0;
      let best = Number.NEGATIVE_INFINITY;
      let ties = 0;
      for (let index = 0; index < shares.length; index += 1) {
        const deficit = target * (shares[index] as number) - (counts[index] as number);
        if (deficit > best + tolerance) {
          chosen = index;
          best = deficit;
          ties = 1;
        } else if (deficit >= best - tolerance) {
          // Reservoir sampling: each of the tied operations ends up chosen with equal chance.
          ties += 1;
          if (random.next() * ties < 1) chosen = index;
        }
      }
      counts[chosen] = (counts[chosen] as number) + 1;
      drawn = target;
      return ops[chosen] as WorkloadOperation;
    },
  };
}

function checkMix(mix: readonly OperationWeight[]): void {
  if (mix.length === 0) {
    throw new RangeError("an operation mix needs at least one operation");
  }
  for (const { op, weightPct } of mix) {
    if (!isWorkloadOperation(op)) {
      throw new RangeError(`unknown operation "${op}" in the mix`);
    }
    if (!(weightPct > 0) || !Number.isFinite(weightPct)) {
      throw new RangeError(`operation "${op}" needs a share above 0 %, got ${weightPct}`);
    }
  }
}
