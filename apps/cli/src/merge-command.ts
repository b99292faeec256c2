import { EndpointSchema, parseFields, type RunSummary } from "@taillab/api";
import { InputError, mergeRunFolder, openRunFolder } from "@taillab/backend";
import { parseRunFolderUri } from "@taillab/core";
import { formatDistributedSummary } from "@taillab/report";
import { formatFlagHelp, parseArguments, UsageError } from "./cli-args.ts";
import { EXIT, EXIT_CODES_HELP } from "./exit-codes.ts";
import { openLibrary } from "./results-library.ts";
import { printSummary } from "./run-command.ts";
import { cliSecrets, RUN_FLAGS, runNameFlag, specFromFlags, type RunFlags } from "./run-flags.ts";
import { printOut } from "./terminal-output.ts";

/** Exit codes of a command that ends with a merged distributed run. */
export const MERGED_EXIT_CODES_HELP = `${EXIT_CODES_HELP}
Here 1 also means that a shard is missing, failed or was stopped (the merge names it), and 3
that no shard started: one's clock was more than 1 s off the storage server's, so the barrier
refused it and the others aborted (the merged run, kept in the library, names it).`;

const MERGE_FLAG_NAMES = [
  "endpoint",
  "region",
  "addressing",
  "access-key",
  "secret-key",
  "results",
  "name",
  "json",
  "help",
] as const;
const MERGE_FLAGS = RUN_FLAGS.filter((flag) =>
  (MERGE_FLAG_NAMES as readonly string[]).includes(flag.name),
);

export const MERGE_HELP = `Usage: taillab merge s3://BUCKET/PREFIX/RUN/ --endpoint URL [flags]

Merges the shards of a distributed run from the run's folder in the bucket into one run of the
results library, exactly: histograms added per operation and per second (never percentiles
averaged), throughput over the window where every shard's clients were busy, the start spread and
clock skew, and each shard's own figures beside the merged ones. Missing or failed shards are
named; shards of another spec or TailLab version are refused. taillab k8s run merges by itself.

Flags:
${formatFlagHelp(MERGE_FLAGS)}

${MERGED_EXIT_CODES_HELP}
`;

export async function mergeCommand(argv: readonly string[]): Promise<number> {
  const { flags, positionals } = parseArguments(argv, MERGE_FLAGS);
  if (flags.help) {
    printOut(MERGE_HELP);
    return EXIT.ok;
  }
  const [uri, stray] = positionals;
  if (uri === undefined)
    throw new UsageError(
      "folder",
      "expected the run's folder: taillab merge s3://BUCKET/PREFIX/RUN/",
    );
  if (stray !== undefined)
    throw new UsageError("arguments", `unexpected "${stray}": merge takes one folder`);
  const folder = parseRunFolderUri(uri);
  if ("problem" in folder) throw new UsageError("folder", folder.problem);
  const runFlags = flags as RunFlags;
  const endpoints = specFromFlags(runFlags, {}).endpoints;
  if (!endpoints)
    throw new UsageError(
      "endpoint",
      "the run's folder is read through the endpoint the shards measured: give --endpoint URL",
    );
  const endpoint = parseFields(EndpointSchema, endpoints[0], "endpoint");
  if (!endpoint.ok) throw new InputError(endpoint.errors);
  const name = runNameFlag(flags);
  const store = await openLibrary(flags.results, "write");
  const client = await openRunFolder(
    { endpoints: [endpoint.value] },
    { env: { ...process.env, ...cliSecrets(runFlags) } },
    folder,
  );
  try {
    const { summary } = await mergeRunFolder({
      markers: client.markers,
      runId: folder.runId,
      store,
      ...name,
    });
    printMergedRun(summary, flags.json === true);
    return mergedExitCode(summary);
  } finally {
    await client.close();
  }
}

/** The merged run's summary, then its shards. */
export function printMergedRun(summary: RunSummary, asJson: boolean): void {
  printSummary(summary, asJson);
  if (!asJson && summary.distributed) printOut(formatDistributedSummary(summary.distributed));
}

/**
 * 3 when no shard started (one's clock was refused at the barrier: the merged run names it); 1
 * when a shard did not run to its end, or a request failed: the run is not what was asked.
 */
export function mergedExitCode(summary: RunSummary): number {
  if (summary.distributed?.t0 === null) return EXIT.shardGaveUp;
  const shardsMissing = summary.distributed?.shards.some((shard) => shard.status !== "complete");
  const requestErrors = summary.points.some((point) =>
    point.phases.some((phase) => phase.errors > 0),
  );
  return shardsMissing || requestErrors ? EXIT.requestErrors : EXIT.ok;
}
