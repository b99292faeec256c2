import { openResultsStore, type ResultsStore } from "@taillab/backend";
import { UsageError, type FlagDefinition } from "./cli-args.ts";
import { checkPathFlag } from "./path-flags.ts";

export const RESULTS_FLAG = {
  name: "results",
  aliases: [],
  takesValue: true,
  description: "results library folder (else TAILLAB_RESULTS_DIR, else the user data folder)",
} as const satisfies FlagDefinition;

/**
 * The results library a command's --results names; a folder it cannot use is bad input. A command
 * that only reads ("read") finds no runs where there is no library, and makes none.
 */
export async function openLibrary(
  results: string | true | undefined,
  use: "read" | "write",
): Promise<ResultsStore> {
  if (typeof results === "string")
    await checkPathFlag("results", results, "folder", "the results folder");
  try {
    const dir = typeof results === "string" ? results : undefined;
    return await openResultsStore(dir, { create: use === "write" });
  } catch (error) {
    throw new UsageError("results", (error as Error).message);
  }
}
