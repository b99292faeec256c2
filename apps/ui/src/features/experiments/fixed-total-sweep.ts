import {
  countProblem,
  coded,
  formatByteSize,
  parseByteSize,
  type CodedMessage,
} from "@taillab/api";
import { fixedTotalPoints } from "@taillab/core";
import { splitList } from "../../shared/list-text.ts";

export interface FixedTotalInput {
  /** Bytes each point moves, e.g. `4MiB`. */
  total: string;
  /** The object sizes, e.g. `8KiB, 16KiB, 32KiB`. */
  sizes: string;
  clients: string;
}

/** The labs' size sweep, the helper's boxes to begin with: 4 MiB per point, 8 KiB … 2 MiB, one client. */
export const LAB_SWEEP: FixedTotalInput = {
  total: "4MiB",
  sizes: "8KiB, 16KiB, 32KiB, 64KiB, 128KiB, 256KiB, 512KiB, 1MiB, 2MiB",
  clients: "1",
};

export type FixedTotalResult =
  | { ok: true; points: string }
  | { ok: false; errors: Partial<Record<keyof FixedTotalInput, CodedMessage>> };

/**
 * The builder's size sweep at a fixed total, as the explicit points' text (one
 * `clients × samples × size` a line), or what is wrong with each box.
 */
export function fixedTotalSweep(input: FixedTotalInput): FixedTotalResult {
  const errors: Partial<Record<keyof FixedTotalInput, CodedMessage>> = {};
  const total = parseByteSize(input.total.trim());
  if (!total.ok) errors.total = total.reason;
  const typedSizes = splitList(input.sizes);
  const sizes: number[] = [];
  for (const typed of typedSizes) {
    const size = parseByteSize(typed);
    if (size.ok) sizes.push(size.bytes);
    else errors.sizes ??= size.reason;
  }
  if (typedSizes.length === 0) errors.sizes = coded("sizesNone");
  const clients = Number(input.clients.trim());
  const clientsProblem = countProblem(clients, "clients");
  if (clientsProblem) errors.clients = clientsProblem;
  if (!total.ok || Object.keys(errors).length > 0) return { ok: false, errors };
  const points = fixedTotalPoints(total.bytes, sizes, clients);
  return {
    ok: true,
    points: points
      .map(
        (point) => `${point.clients} × ${point.samples} × ${formatByteSize(point.objectSizeBytes)}`,
      )
      .join("\n"),
  };
}
