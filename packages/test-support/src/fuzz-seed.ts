import { randomInt } from "node:crypto";

/**
 * The seed of a test run's generated inputs: fresh each run, so every run tries inputs no run
 * tried before; TAILLAB_FUZZ_SEED pins it to replay a failure (fast-check prints the seed of a
 * failing property, and so does the test's name: `fuzz seed N`).
 */
export function fuzzSeed(): number {
  const pinned = process.env["TAILLAB_FUZZ_SEED"];
  if (pinned === undefined || pinned === "") return randomInt(2 ** 31);
  const seed = Number(pinned);
  if (!Number.isSafeInteger(seed)) {
    throw new Error(`TAILLAB_FUZZ_SEED: expected a whole number, got "${pinned}"`);
  }
  return seed;
}
