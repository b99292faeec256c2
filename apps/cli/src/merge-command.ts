import { EndpointSchema, parseFields, type RunSummary } from "@taillab/api";
import { InputError, mergeRunFolder, openRunFolder, type RunFolderFate } from "@taillab/backend";
import { killedShardLeftovers, parseRunFolderUri } from "@taillab/core";
import { formatDistributedSummary } from "@taillab/report";
import { formatFlagHelp, parseArguments, UsageError } from "./cli-args.ts";
import { EXIT, EXIT_CODES_HELP } from "./exit-codes.ts";
import { openLibrary } from "./results-library.ts";
import { printSummary } from "./summary-printer.ts";
import { cliSecrets, RUN_FLAGS, runNameFlag, specFromFlags, type RunFlags } from "./run-flags.ts";
import { killedShardLines, plural } from "./run-verdict.ts";
import { printError, printOut } from "./terminal-output.ts";

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
export const KEEP_RUN_FOLDER_FLAG = {
  name: "keep-run-folder",
  aliases: [],
  takesValue: false,
  description:
    "keep the run's folder in the bucket once merged (its markers, progress and shard results); by default it is removed",
} as const;

export const MERGE_FLAGS = [
  ...RUN_FLAGS.filter((flag) => (MERGE_FLAG_NAMES as readonly string[]).includes(flag.name)),
  KEEP_RUN_FOLDER_FLAG,
];

export const MERGE_HELP = `Usage: taillab merge s3://BUCKET/PREFIX/RUN/ --endpoint URL [flags]

Merges the shards of a distributed run from the run's folder in the bucket into one run of the
results library, exactly: histograms added per operation and per second (never percentiles
averaged), throughput over the window where every shard's clients were busy, the start spread and
clock skew, and each shard's own figures beside the merged ones. Missing or failed shards are
named, with the objects a killed shard left; shards of another spec or TailLab version are
refused. Once merged, the run's folder is removed from the bucket (--keep-run-folder keeps it).
taillab k8s run merges by itself.

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
    const { summary, runFolder } = await mergeRunFolder({
      markers: client.markers,
      bucket: client.bucket,
      runId: folder.runId,
      store,
      ...name,
      ...(flags["keep-run-folder"] ? { keepRunFolder: true } : {}),
    });
    printMergedRun(summary, flags.json === true);
    printError(runFolderText(uri, runFolder));
    return mergedExitCode(summary);
  } finally {
    await client.close();
  }
}

/** What became of the run's folder once merged, one line for stderr. */
export function runFolderText(uri: string, fate: RunFolderFate): string {
  switch (fate.kind) {
    case "removed":
      return `run folder ${uri} removed (${plural(fate.objects, "object")}): the run is in the results library\n`;
    case "kept":
      return `run folder ${uri} kept (--keep-run-folder)\n`;
    case "left":
      return `run folder ${uri} could not be removed (${fate.error}); the run is in the results library, and its folder can be deleted with any S3 client\n`;
  }
}

/** The merged run's summary, then its shards and what its killed shards left. */
export function printMergedRun(summary: RunSummary, asJson: boolean): void {
  printSummary(summary, asJson);
  if (!asJson && summary.distributed) printOut(formatDistributedSummary(summary.distributed));
  const leftovers = killedShardLeftovers(
    { id: summary.runId, spec: summary.spec, cleanup: null },
    summary,
  );
  for (const line of killedShardLines(summary.runId, summary.spec.bucket, leftovers)) {
    printError(`${line}\n`);
  }
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
