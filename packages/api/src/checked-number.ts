import { z } from "zod";
import { coded, codedIssue, type CodedMessage, type MessageCode } from "./coded-message.ts";

/**
 * A number whose problems are coded messages: `problem` says what is wrong with a value (any
 * value: a number of the wrong kind, text, nothing), or null when it is right.
 */
export function checkedNumber(problem: (value: unknown) => CodedMessage | null) {
  return z.custom<number>().superRefine((value, context) => {
    const found = value === undefined ? coded("required") : problem(value);
    if (found) context.addIssue(codedIssue(found));
  });
}

/** A number from `min` to `max`, or `notInRange` (also said of anything but a number). */
export function numberFrom(min: number, max: number, notInRange: CodedMessage) {
  return checkedNumber((value) =>
    typeof value === "number" && value >= min && value <= max ? null : notInRange,
  );
}

/**
 * Milliseconds from 0 (or above 0, `positive`) to `max`: the testbed's profiles and the live
 * lab's knobs.
 */
export function milliseconds(max: number, { positive = false } = {}) {
  return checkedNumber((ms) => {
    if (typeof ms !== "number") return coded("millisecondsExpected");
    if (ms < 0) return coded("notNegative");
    if (positive && ms === 0) return coded("above", { min: 0 });
    return ms > max ? coded("millisecondsAtMost", { max }) : null;
  });
}

/** What a count counts, as its one and its many (`expected at least 1 client`). */
const UNITS = {
  clients: ["unitClient", "unitClients"],
  samples: ["unitSample", "unitSamples"],
  objects: ["unitObject", "unitObjects"],
  parts: ["unitPart", "unitParts"],
  workers: ["unitWorker", "unitWorkers"],
  replicas: ["unitReplica", "unitReplicas"],
  pods: ["unitPod", "unitPods"],
  slots: ["unitSlot", "unitSlots"],
} as const satisfies Record<string, readonly [MessageCode, MessageCode]>;
export type CountUnit = keyof typeof UNITS;

/** Why `value` is not a whole count of `unit` from 1 to `max`, or null when it is. */
export function countProblem(
  value: unknown,
  unit: CountUnit,
  max = Number.MAX_SAFE_INTEGER,
  tooMany?: CodedMessage,
): CodedMessage | null {
  const [one, many] = UNITS[unit];
  if (typeof value !== "number" || !Number.isInteger(value)) {
    return coded("countNotWhole", { units: coded(many) });
  }
  if (value < 1) return coded("countTooSmall", { unit: coded(one) });
  if (value > max) return tooMany ?? coded("countTooLarge", { max, units: coded(many) });
  return null;
}

/** A whole number of `unit` from 1 to `max`. */
export function wholeCount(unit: CountUnit, max?: number, tooMany?: CodedMessage) {
  return checkedNumber((value) => countProblem(value, unit, max, tooMany));
}
