import { RequestModeSchema, type RequestMode, type RunSummary } from "@taillab/api";
import { formatModeComparison } from "@taillab/report";
import {
  flagValue,
  formatFlagHelp,
  parseFlags,
  UsageError,
  type FlagValue,
  type ParsedFlags,
} from "./cli-args.ts";
import { EXIT } from "./exit-codes.ts";
import { readSpecFlag, runWithInterrupts } from "./run-command.ts";
import { runVerdict, type RunVerdict } from "./run-verdict.ts";
import { readSecretKeyFlag } from "./secret-key-flag.ts";
import { openLibrary } from "./results-library.ts";
import { namingFlags, RUN_FLAGS, specFromFlags } from "./run-flags.ts";
import { printError, printJson, printOut } from "./terminal-output.ts";

/** run's flags that compare-modes has no use for: it runs each mode, prints its own table. */
const RUN_ONLY_FLAGS = ["mode", "out", "verbose", "details", "threshold", "junit"] as const;
type SharedRunFlag = Exclude<(typeof RUN_FLAGS)[number], { name: (typeof RUN_ONLY_FLAGS)[number] }>;

/** --modes: the request modes compared, in order. */
const MODES: FlagValue<RequestMode[]> = {
  default: ["normal", "hedged", "tied"],
  parse: parseModes,
  write: (modes) => modes.join(","),
};

export const COMPARE_MODES_FLAGS = [
  { name: "modes", aliases: [], takesValue: true, description: "modes to compare", value: MODES },
  ...RUN_FLAGS.filter(
    (flag): flag is SharedRunFlag => !(RUN_ONLY_FLAGS as readonly string[]).includes(flag.name),
  ),
] as const;
type CompareFlags = ParsedFlags<(typeof COMPARE_MODES_FLAGS)[number]["name"]>;

export const COMPARE_MODES_HELP = `Usage: taillab compare-modes [flags]

Runs the same workload once per request mode (normal, hedged, tied; tied-server and adaptive on
request) and prints one table of p50, p99, p99.9, max, extra requests and wasted bytes, and on
the embedded testbed the work its replicas did. With --json: { "runs": [summary, …] }. Try it
on the testbed's stalls profile:
  taillab compare-modes --testbed-profile stalls --testbed-replicas 2 --clients 8 --samples 2000 --size 4KiB
and tied requests cancelled by the client or by the replicas, on a queue:
  taillab compare-modes --modes normal,tied,tied-server --testbed-profile queue \
    --testbed-replicas 2 --clients 16 --samples 4000 --size 4KiB

${formatFlagHelp(COMPARE_MODES_FLAGS)}
`;

export async function compareModesCommand(argv: readonly string[]): Promise<number> {
  const flags = parseFlags(argv, COMPARE_MODES_FLAGS);
  if (flags.help) {
    printOut(COMPARE_MODES_HELP);
    return EXIT.ok;
  }
  return await namingFlags(flags, () => compareModes(flags));
}

async function compareModes(flags: CompareFlags): Promise<number> {
  const secretWarning = await readSecretKeyFlag(flags, "compare-modes");
  const modes = flagValue(COMPARE_MODES_FLAGS, flags, "modes");
  const fileSpec = await readSpecFlag(flags);
  const store = await openLibrary(flags.results, "write");
  printError(secretWarning);
  const runs: RunSummary[] = [];
  const verdicts: RunVerdict[] = [];
  for (const mode of modes) {
    printError(`mode ${mode}…\n`);
    const spec = { ...specFromFlags(flags, fileSpec), mode };
    const { summary, cleanup } = await runWithInterrupts(spec, flags, store);
    runs.push(summary);
    verdicts.push(runVerdict(summary, cleanup));
    if (summary.status === "stopped") break;
  }
  if (flags.json) printJson({ runs });
  else printOut(formatModeComparison(runs));
  // The run that says most: a stop, then leftovers on the server, then request errors.
  const severity = [EXIT.interrupted, EXIT.leftovers, EXIT.requestErrors];
  const worst = severity
    .map((code) => verdicts.find((verdict) => verdict.code === code))
    .find((verdict) => verdict !== undefined);
  if (worst?.line) printError(`taillab compare-modes: ${worst.line}\n`);
  return worst?.code ?? EXIT.ok;
}

function parseModes(text: string, flag: string): RequestMode[] {
  return text.split(",").map((item) => {
    const parsed = RequestModeSchema.safeParse(item.trim());
    if (!parsed.success) {
      throw new UsageError(
        flag,
        `"${item}" is not a mode; expected ${RequestModeSchema.options.join(", ")}`,
      );
    }
    return parsed.data;
  });
}
