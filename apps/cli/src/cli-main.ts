import { InputError, ResultsStoreError } from "@taillab/backend";
import { UsageError } from "./cli-args.ts";
import { CLEANUP_HELP, cleanupCommand } from "./cleanup-command.ts";
import { EXIT, EXIT_CODES_HELP } from "./exit-codes.ts";
import { COMPARE_MODES_HELP, compareModesCommand } from "./compare-modes-command.ts";
import { COMPARE_HELP, compareCommand, REPORT_HELP, reportCommand } from "./report-command.ts";
import { K8S_HELP, k8sCommand } from "./k8s-command.ts";
import { MERGE_HELP, mergeCommand } from "./merge-command.ts";
import { PRESETS_HELP, presetsCommand } from "./presets-command.ts";
import { RUN_HELP, runCommand } from "./run-command.ts";
import { RUNS_HELP, runsCommand } from "./runs-command.ts";
import { TESTBED_HELP, testbedCommand } from "./testbed-command.ts";
import { printError, printOut } from "./terminal-output.ts";

const USAGE = `Usage: taillab <command> [flags]

Commands:
  run             benchmark an S3 endpoint (or the embedded testbed), s3bench-compatible
  compare-modes   run one workload in normal, hedged and tied mode and compare the tails
  presets         the workload presets (typical applications, the labs' sweeps)
  runs            the results library: list, show, rm, import, rename, tag, note
  cleanup         remove what a run left on its server (objects, uploads, buckets)
  report          a run's report as HTML, CSV or JSON; several runs make a comparison
  compare         several runs side by side, with changes against a baseline
  testbed         serve the embedded S3 testbed
  merge           merge the shards of a distributed run from its folder in the bucket
  k8s             run a spec on N pods of a Kubernetes cluster, or print the manifests
  help            show help for a command: taillab help run

${EXIT_CODES_HELP}
`;

const COMMANDS: Record<string, (argv: readonly string[]) => Promise<number>> = {
  run: runCommand,
  "compare-modes": compareModesCommand,
  presets: presetsCommand,
  runs: runsCommand,
  cleanup: cleanupCommand,
  report: reportCommand,
  compare: compareCommand,
  testbed: testbedCommand,
  merge: mergeCommand,
  k8s: k8sCommand,
};

const HELP: Record<string, string> = {
  run: RUN_HELP,
  "compare-modes": COMPARE_MODES_HELP,
  presets: PRESETS_HELP,
  runs: RUNS_HELP,
  cleanup: CLEANUP_HELP,
  report: REPORT_HELP,
  compare: COMPARE_HELP,
  testbed: TESTBED_HELP,
  merge: MERGE_HELP,
  k8s: K8S_HELP,
};

/**
 * The taillab command: runs one command line and answers its exit code. What it prints goes to
 * this process's stdout and stderr; bad input is one line on stderr naming the field (several
 * problems share the line), and exit 2.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    printOut(HELP[rest[0] ?? ""] ?? USAGE);
    return EXIT.ok;
  }
  const handler = COMMANDS[command];
  if (!handler) {
    printError(`taillab: unknown command "${command}"\n\n${USAGE}`);
    return EXIT.badInput;
  }
  try {
    return await handler(rest);
  } catch (error) {
    if (error instanceof InputError || error instanceof UsageError) {
      const problems = error instanceof InputError ? error.problems : [error];
      const named = problems.map(({ field, message }) => `${field}: ${oneLine(message)}`);
      printError(`taillab ${command}: ${named.join("; ")}\n`);
      return EXIT.badInput;
    }
    if (error instanceof ResultsStoreError) {
      printError(`taillab ${command}: ${oneLine(error.message)}\n`);
      return EXIT.resultsStore;
    }
    throw error;
  }
}

/** A message from deeper down may hold a newline; a shell user sees one line per problem. */
function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, "; ");
}
