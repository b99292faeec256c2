import { cleanupLeftNothing } from "@taillab/api";
import { cleanUpRun } from "@taillab/backend";
import { formatFlagHelp, parseArguments, UsageError } from "./cli-args.ts";
import { EXIT, EXIT_CODES_HELP } from "./exit-codes.ts";
import { openLibrary, RESULTS_FLAG } from "./results-library.ts";
import { cliSecrets } from "./run-flags.ts";
import { describeLeftovers, plural } from "./run-verdict.ts";
import { readSecretKeyFlag, SECRET_FILE_FLAG } from "./secret-key-flag.ts";
import { printError, printJson, printOut } from "./terminal-output.ts";

export const CLEANUP_FLAGS = [
  {
    name: "access-key",
    aliases: ["accessKey"],
    takesValue: true,
    description: "the run's access key id, when it was given as a flag (else its variables)",
  },
  {
    name: "secret-key",
    aliases: ["accessSecret"],
    takesValue: true,
    description: "…and its secret key; - reads it from standard input",
  },
  SECRET_FILE_FLAG,
  RESULTS_FLAG,
  { name: "json", aliases: [], takesValue: false, description: "print what was done as JSON" },
  { name: "help", aliases: ["h"], takesValue: false, description: "show this help" },
] as const;

export const CLEANUP_HELP = `Usage: taillab cleanup RUN [flags]

Removes what a run left on its server: a run killed or stopped before its cleanup, one whose
cleanup failed (the run said so), or one that kept its objects. It deletes every object under
the run's key prefix (<prefix>/<run id>/), aborts its open multipart uploads and deletes its
workload buckets (taillab-<run id>-w…), with the run's endpoint and credentials (the same
variables, or the same -accessKey/-accessSecret). Nothing else in the bucket is touched: every
key a listing returns is checked against the prefix, and only keys the run could have made
(<prefix>/<run id>/<number>) are deleted; when the server lists none, the keys the run's
records name are deleted instead. A bucket that no longer exists holds nothing of the run: that
is said, and the run counts as clean. What it did is kept with the run (taillab runs show RUN).

${formatFlagHelp(CLEANUP_FLAGS)}

${EXIT_CODES_HELP}
`;

export async function cleanupCommand(argv: readonly string[]): Promise<number> {
  const { flags, positionals } = parseArguments(argv, CLEANUP_FLAGS);
  if (flags.help) {
    printOut(CLEANUP_HELP);
    return EXIT.ok;
  }
  const secretWarning = await readSecretKeyFlag(flags, "cleanup");
  const [runId, ...extra] = positionals;
  if (runId === undefined) throw new UsageError("run", "expected a run id: taillab cleanup RUN");
  if (extra.length > 0) throw new UsageError("arguments", `unexpected "${extra[0]}"`);
  if ((flags["access-key"] === undefined) !== (flags["secret-key"] === undefined)) {
    throw new UsageError("access-key", "give both -accessKey and -accessSecret, or neither");
  }
  const store = await openLibrary(flags.results, "read");
  printError(secretWarning);
  const cleanup = await cleanUpRun(store, runId, {
    env: { ...process.env, ...cliSecrets(flags) },
  });
  const { meta } = await store.get(runId);
  if (flags.json) {
    printJson(cleanup);
  } else if (cleanup.bucketGone) {
    printOut(
      `run ${runId}: bucket ${meta.spec.bucket} no longer exists, so nothing of the run is left in it\n`,
    );
  } else {
    const { objects, uploads, buckets } = cleanup.removed;
    printOut(
      `run ${runId}: removed ${plural(objects, "object")}, ${plural(uploads, "open upload")} and ${plural(buckets, "bucket")}\n`,
    );
  }
  if (cleanupLeftNothing(cleanup)) return EXIT.ok;
  const left = describeLeftovers(cleanup, { bucket: meta.spec.bucket, keyPrefix: meta.keyPrefix });
  printError(`taillab cleanup: exit ${EXIT.leftovers}: left ${left}; run it again to retry\n`);
  return EXIT.leftovers;
}
