import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { RunIndexEntry } from "@taillab/api";
import { InputError, type ResultsStore, type StoredRun } from "@taillab/backend";
import { killedShardLeftovers, leftoverStateOf } from "@taillab/core";
import {
  formatDistributedSummary,
  formatNotRunS3bench,
  formatPointS3bench,
  formatServerLost,
  formatTable,
} from "@taillab/report";
import { formatFlagHelp, parseArguments, UsageError } from "./cli-args.ts";
import { EXIT } from "./exit-codes.ts";
import { printError, printJson, printOut } from "./terminal-output.ts";
import { openLibrary, RESULTS_FLAG } from "./results-library.ts";
import { describeLeftovers, killedShardLines } from "./run-verdict.ts";

export const RUNS_FLAGS = [
  RESULTS_FLAG,
  { name: "json", aliases: [], takesValue: false, description: "print JSON" },
  { name: "help", aliases: ["h"], takesValue: false, description: "show this help" },
] as const;

export const RUNS_HELP = `Usage: taillab runs <action> [arguments] [flags]

The results library: every run of taillab run is kept there, and a run killed midway is listed
as interrupted with every record that reached the disk.

  list                  the runs, newest first (id, name, status, records, headline figures)
  show ID               one run: its spec, environment, s3bench-style summary, and what it
                        may have left on its server (taillab cleanup ID removes it)
  rm ID...              move runs to the library's trash (all or none: an id that cannot
                        be removed refuses the whole command)
  restore ID            bring the run last removed under ID back from the trash
  import PATH           a run folder, a JSON file from taillab report --format json, or
                        another benchmark's results, kept as an imported run: warp's
                        .csv.zst or .json.zst, s3bench's printed output, fio's
                        --output-format=json+ report, elbencho's --jsonfile or
                        --csvfile (what a file does not carry is listed by runs
                        show, never made up)
  rename ID NAME        give a run a name
  tag ID TAG...         add tags (untag ID TAG... removes them)
  note ID TEXT          set a run's notes

${formatFlagHelp(RUNS_FLAGS)}
`;

type Output = { json: boolean };

const ACTIONS: Record<
  string,
  (store: ResultsStore, args: string[], output: Output) => Promise<number>
> = {
  list: listRuns,
  show: showRun,
  rm: removeRuns,
  restore: async (store, [id, stray], output) => {
    if (id === undefined || stray !== undefined) {
      throw new UsageError("restore", "expected one run id: taillab runs restore ID");
    }
    const entry = await store.restore(id);
    print(output, entry, `restored from the trash: ${entry.id}: ${entry.name}\n`);
    return EXIT.ok;
  },
  import: async (store, [path], output) => {
    if (path === undefined)
      throw new UsageError("import", "expected a path: taillab runs import PATH");
    const stats = await stat(path).catch(() => null);
    if (!stats) throw InputError.of("path", `${resolve(path)}: there is no such file or folder`);
    const entry = stats.isDirectory()
      ? await store.importFolder(path)
      : await store.importFile(path);
    print(output, entry, `imported as ${entry.id}\n`);
    return EXIT.ok;
  },
  rename: async (store, [id, ...words], output) => {
    need(id === undefined ? [] : words, 1, "rename ID NAME");
    return printEntry(output, await store.rename(id as string, words.join(" ")));
  },
  tag: async (store, [id, ...tags], output) => {
    need(id === undefined ? [] : tags, 1, "tag ID TAG...");
    return printEntry(output, await eachTag(tags, (tag) => store.tag(id as string, tag)));
  },
  untag: async (store, [id, ...tags], output) => {
    need(id === undefined ? [] : tags, 1, "untag ID TAG...");
    return printEntry(output, await eachTag(tags, (tag) => store.untag(id as string, tag)));
  },
  note: async (store, [id, ...words], output) => {
    need(id === undefined ? [] : words, 1, "note ID TEXT");
    return printEntry(output, await store.annotate(id as string, words.join(" ")));
  },
};

export async function runsCommand(argv: readonly string[]): Promise<number> {
  const { flags, positionals } = parseArguments(argv, RUNS_FLAGS);
  const [action, ...args] = positionals;
  if (flags.help || action === undefined) {
    printOut(RUNS_HELP);
    return EXIT.ok;
  }
  const handler = ACTIONS[action];
  if (!handler) {
    throw new UsageError(
      "runs",
      `unknown action "${action}"; expected ${Object.keys(ACTIONS).join(", ")}`,
    );
  }
  // Only an import adds a run; every other action reads or changes runs already there.
  const store = await openLibrary(flags.results, action === "import" ? "write" : "read");
  return handler(store, args, { json: flags.json === true });
}

/**
 * Every id is checked before any run moves, so a refusal (exit 2) means nothing was removed. A
 * removal that fails after the check still says which runs went to the trash before it.
 */
async function removeRuns(store: ResultsStore, ids: string[], output: Output): Promise<number> {
  need(ids, 1, "rm ID...");
  const checks = await Promise.allSettled(ids.map((id) => store.checkRemovable(id)));
  const refused = checks.flatMap((check) => (check.status === "rejected" ? [check.reason] : []));
  if (refused.length > 0) {
    const badInput = refused.every((reason) => reason instanceof InputError);
    throw badInput ? new InputError(refused.flatMap((reason) => reason.problems)) : refused[0];
  }
  const removed: string[] = [];
  try {
    for (const id of ids) {
      await store.remove(id);
      removed.push(id);
    }
  } finally {
    if (removed.length > 0 && removed.length < ids.length) {
      printError(`taillab runs: moved to trash before the failure: ${removed.join(", ")}\n`);
    }
  }
  print(output, { removed: ids }, `moved to trash: ${ids.join(", ")}\n`);
  return EXIT.ok;
}

async function listRuns(store: ResultsStore, _args: string[], output: Output): Promise<number> {
  const runs = await store.list();
  if (output.json) {
    printJson(runs);
    return EXIT.ok;
  }
  if (runs.length === 0) {
    printOut(`no runs in ${store.dir}\n`);
    return EXIT.ok;
  }
  const rows = runs.map((run) => [
    run.id,
    run.damage
      ? `${run.status} (damaged)`
      : run.importedFrom
        ? `${run.status} (imported from ${run.importedFrom})`
        : run.status,
    run.createdAt.slice(0, 19).replace("T", " "),
    run.name,
    `${run.mode}/${run.loop}`,
    run.pointsFinished === null || run.pointsFinished === run.points.length
      ? String(run.points.length)
      : `${run.pointsFinished}/${run.points.length}`,
    String(run.recordCount),
    headline(run),
  ]);
  printOut(
    formatTable([
      ["id", "status", "created", "name", "mode", "points", "records", "headline"],
      ...rows,
    ]),
  );
  const damaged = runs.filter((run) => run.damage !== null);
  if (damaged.length > 0) printOut("\n");
  for (const run of damaged) {
    printOut(`${run.id} is damaged: ${run.damage?.problems.join("; ")}\n`);
  }
  return EXIT.ok;
}

function headline(run: RunIndexEntry): string {
  return run.headline
    .map(
      (phase) => `${phase.op} p99 ${phase.p99Ms === null ? "-" : `${phase.p99Ms.toFixed(2)} ms`}`,
    )
    .join(", ");
}

async function showRun(store: ResultsStore, [id]: string[], output: Output): Promise<number> {
  if (id === undefined) throw new UsageError("show", "expected a run id: taillab runs show ID");
  const run = await store.get(id);
  // An interrupted or failed run has no summary of its own: it is rebuilt from its records.
  const summary =
    run.summary ?? (run.recordCount > 0 ? await store.summarizeFromRecords(id) : null);
  if (output.json) {
    const shown = {
      meta: run.meta,
      status: run.status,
      recordCount: run.recordCount,
      damage: run.damage,
      summary,
      rebuiltFromRecords: run.summary === null,
    };
    printJson(shown);
    return EXIT.ok;
  }
  const { meta } = run;
  const lines = [
    `${meta.name} (${meta.id})`,
    `status: ${run.status}${meta.error ? ` (${meta.error})` : ""}, created ${meta.createdAt}, ${run.recordCount} records`,
    ...(meta.imported
      ? [
          `imported from ${meta.imported.tool} (${meta.imported.file}) on ${meta.imported.importedAt}`,
          ...meta.imported.notCarried.map((what) => `not in the file: ${what}`),
        ]
      : [
          `environment: TailLab ${meta.environment.taillabVersion}, ${meta.environment.os}, ${meta.environment.cpuCount}× ${meta.environment.cpuModel}, Node ${meta.environment.node}, server ${meta.environment.server ?? "unknown"}`,
        ]),
    ...(meta.tags.length > 0 ? [`tags: ${meta.tags.join(", ")}`] : []),
    ...(meta.notes ? [`notes: ${meta.notes}`] : []),
    ...(run.damage?.problems.map((problem) => `damaged: ${problem}`) ?? []),
    ...leftoverLines(run),
    "",
  ];
  printOut(lines.join("\n"));
  if (!summary) {
    printOut("no records reached the disk before the run ended\n");
    return EXIT.ok;
  }
  if (run.summary === null)
    printOut("(summary rebuilt from the records that reached the disk)\n\n");
  printOut(summary.points.map(formatPointS3bench).join("\n"));
  const notRun = formatNotRunS3bench(summary);
  if (notRun) printOut(`\n${notRun}`);
  const serverLost = formatServerLost(summary);
  if (serverLost) printOut(`\n${serverLost}`);
  if (summary.distributed) printOut(`\n${formatDistributedSummary(summary.distributed)}`);
  return EXIT.ok;
}

/** What the run may have left on its server, and how to remove it. */
function leftoverLines({ meta, status, summary }: StoredRun): string[] {
  const killed = killedShardLines(meta.id, meta.spec.bucket, killedShardLeftovers(meta, summary));
  return [...runLeftoverLines({ meta, status }), ...killed];
}

function runLeftoverLines({ meta, status }: Pick<StoredRun, "meta" | "status">): string[] {
  const state = leftoverStateOf(meta, status);
  const remove = `taillab cleanup ${meta.id} removes`;
  const where = `bucket ${meta.spec.bucket} at ${meta.spec.endpoints?.[0]?.url ?? "?"}`;
  switch (state.kind) {
    case "none":
      return [];
    case "left": {
      const place = { bucket: meta.spec.bucket, keyPrefix: meta.keyPrefix };
      return [
        `left on the server: ${describeLeftovers(state.cleanup, place)}, after its cleanup of ${state.cleanup.at}; ${remove} them`,
      ];
    }
    case "possible":
      return [
        state.why === "kept"
          ? `left on the server: its objects under ${meta.keyPrefix} in ${where} (it kept them); ${remove} them`
          : `may be left on the server: objects under ${meta.keyPrefix} in ${where}, open multipart uploads and workload buckets (taillab-${meta.id.toLowerCase()}-w…), as the run ended before its cleanup; ${remove} them`,
      ];
  }
}

async function eachTag(
  tags: readonly string[],
  change: (tag: string) => Promise<RunIndexEntry>,
): Promise<RunIndexEntry> {
  let entry: RunIndexEntry | null = null;
  for (const tag of tags) entry = await change(tag);
  if (!entry) throw new UsageError("runs", "expected at least one tag");
  return entry;
}

function need(values: readonly string[], count: number, usage: string): void {
  if (values.length < count) throw new UsageError("runs", `expected: taillab runs ${usage}`);
}

function print(output: Output, value: unknown, text: string): void {
  if (output.json) printJson(value);
  else printOut(text);
}

function printEntry(output: Output, entry: RunIndexEntry): number {
  print(
    output,
    entry,
    `${entry.id}: ${entry.name}${entry.tags.length > 0 ? ` [${entry.tags.join(", ")}]` : ""}\n`,
  );
  return EXIT.ok;
}
