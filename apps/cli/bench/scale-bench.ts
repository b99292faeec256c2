/**
 * `pnpm bench scale`: 10 000 clients as a user runs them: `taillab testbed` in a process of its
 * own (the `fast` profile fails nothing, so every error is the tool's) and `taillab run` against
 * it, closed loop then open loop (Poisson, 20 000/s), each stopped by SIGTERM once it has run
 * RUN_FOR_MS. For each: the time from SIGTERM to the run stopped (its summary, status "stopped",
 * written to the results library), then how long the cleanup of the keys it wrote took (to the
 * process's exit), the requests measured and errors by code, the exit code (130), and the peak
 * memory of the `taillab run` process. Goals: no tool-side error, stopped within STOP_GOAL_MS.
 */
import { RunMetaSchema, RunSummarySchema, type RunSummary } from "@taillab/api";
import { formatTable } from "@taillab/report";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_MAIN } from "../src/test-support/run-cli.ts";
import { startTestbedProcess } from "../src/test-support/testbed-process.ts";
import { peakRssMb } from "./process-memory.ts";

const CLIENTS = 10_000;
const RUN_FOR_MS = Number(process.env.BENCH_SCALE_RUN_MS ?? 6000);
const STOP_GOAL_MS = 1000;
const POLL_MS = 5;

interface Outcome {
  label: string;
  exitCode: number | null;
  /** SIGTERM to summary.json written, null when it never was. */
  stopMs: number | null;
  /** summary.json written to the process's exit: the cleanup and the exit. */
  cleanupMs: number | null;
  summary: RunSummary | null;
  cleanup: { removed: number; left: number } | null;
  peakRssMb: number | null;
  stderrTail: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The one run folder of a fresh library, once it exists. */
async function runFolder(libraryDir: string): Promise<string | null> {
  const entries = await readdir(libraryDir, { withFileTypes: true }).catch(() => []);
  const folder = entries.find((entry) => entry.isDirectory() && !entry.name.startsWith("."));
  return folder ? join(libraryDir, folder.name) : null;
}

async function hasRecords(folder: string): Promise<boolean> {
  const records = await stat(join(folder, "records.log")).catch(() => null);
  // Frames follow the log's 16-byte header only once records were written.
  return records !== null && records.size > 16;
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, "utf8")) as unknown;
}

async function measure(label: string, loopFlags: readonly string[]): Promise<Outcome> {
  const testbed = await startTestbedProcess();
  const libraryDir = await mkdtemp(join(tmpdir(), "taillab-scale-"));
  const child = spawn(
    process.execPath,
    [
      CLI_MAIN,
      "run",
      "--endpoint",
      testbed.url,
      "--clients",
      String(CLIENTS),
      "--size",
      "4KiB",
      ...loopFlags,
      "--results",
      libraryDir,
    ],
    { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...testbed.env } },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = once(child, "exit") as Promise<[number | null]>;
  let exitCode: number | null | undefined;
  void exited.then(([code]) => (exitCode = code));
  let peakMb: number | null = null;
  const sampler = setInterval(() => {
    void peakRssMb(child.pid as number).then((mb) => {
      if (mb !== null) peakMb = Math.max(peakMb ?? 0, mb);
    });
  }, 100);
  try {
    // Its run folder exists once the endpoint checks passed; it measures once its records log
    // holds the first answers. From then on it runs RUN_FOR_MS.
    let folder: string | null = null;
    while (exitCode === undefined && !(folder !== null && (await hasRecords(folder)))) {
      await sleep(50);
      folder ??= await runFolder(libraryDir);
    }
    await sleep(RUN_FOR_MS);
    const stopAt = performance.now();
    child.kill("SIGTERM");
    const summaryFile = folder === null ? null : join(folder, "summary.json");
    let stoppedAt: number | null = null;
    while (summaryFile !== null && exitCode === undefined) {
      const written = await readFile(summaryFile).then(
        () => true,
        () => false,
      );
      if (written) {
        stoppedAt = performance.now();
        break;
      }
      await sleep(POLL_MS);
    }
    await exited;
    const exitAt = performance.now();
    const summary =
      summaryFile === null
        ? null
        : await readJson(summaryFile).then(RunSummarySchema.parse, () => null);
    const meta =
      folder === null ? null : RunMetaSchema.parse(await readJson(join(folder, "run.json")));
    return {
      label,
      exitCode: exitCode ?? null,
      stopMs: stoppedAt === null ? null : stoppedAt - stopAt,
      cleanupMs: stoppedAt === null ? null : exitAt - stoppedAt,
      summary,
      cleanup: meta?.cleanup
        ? { removed: meta.cleanup.removed.objects, left: meta.cleanup.objectsLeft }
        : null,
      peakRssMb: peakMb,
      stderrTail: stderr,
    };
  } finally {
    clearInterval(sampler);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await testbed.kill();
    await rm(libraryDir, { recursive: true, force: true });
  }
}

const phasesOf = (outcome: Outcome) => outcome.summary?.points.flatMap((p) => p.phases) ?? [];
const errorsOf = (outcome: Outcome) =>
  phasesOf(outcome).reduce((sum, phase) => sum + phase.errors, 0);

function row(outcome: Outcome): string[] {
  const phases = phasesOf(outcome);
  const codes = phases
    .flatMap((phase) => Object.entries(phase.errorsByCode))
    .map(([code, count]) => `${code} ${count}`)
    .join(", ");
  return [
    outcome.label,
    phases.map((phase) => `${phase.op} ${phase.requests}`).join(", "),
    `${errorsOf(outcome)}${codes ? ` (${codes})` : ""}`,
    outcome.stopMs === null ? "never" : outcome.stopMs.toFixed(0),
    outcome.cleanupMs === null ? "" : outcome.cleanupMs.toFixed(0),
    outcome.cleanup ? `${outcome.cleanup.removed} / ${outcome.cleanup.left}` : "",
    String(outcome.exitCode),
    outcome.peakRssMb?.toFixed(0) ?? "",
  ];
}

function verdict(outcomes: readonly Outcome[]): string {
  const errors = outcomes.filter((outcome) => outcome.summary === null || errorsOf(outcome) > 0);
  const slow = outcomes.filter(
    (outcome) => outcome.stopMs === null || outcome.stopMs > STOP_GOAL_MS,
  );
  const name = (list: readonly Outcome[]) => list.map((outcome) => outcome.label).join(", ");
  return (
    `Goal, no tool-side errors: ${errors.length === 0 ? "MET" : `NOT MET (${name(errors)})`}.\n` +
    `Goal, stopped within ${STOP_GOAL_MS} ms of SIGTERM: ${slow.length === 0 ? "MET" : `NOT MET (${name(slow)})`}.\n`
  );
}

process.stderr.write(`scale: ${CLIENTS} clients against taillab testbed…\n`);
const outcomes: Outcome[] = [];
for (const [label, flags] of [
  ["closed loop", ["--samples", "10000000"]],
  [
    "open loop, Poisson 20 000/s",
    ["--rate", "20000/s", "--arrivals", "poisson", "--duration", "10m"],
  ],
] as const) {
  process.stderr.write(`scale: ${label}…\n`);
  const outcome = await measure(label, flags);
  if (outcome.summary === null || outcome.exitCode !== 130) {
    process.stderr.write(`scale: ${label}: taillab run said:\n${outcome.stderrTail}\n`);
  }
  outcomes.push(outcome);
}
process.stdout.write(
  `\n${CLIENTS} clients, 4 KiB, \`taillab run\` against \`taillab testbed\` (fast profile) in ` +
    `processes of their own, SIGTERM after ${RUN_FOR_MS} ms of measuring\n\n`,
);
process.stdout.write(
  formatTable([
    [
      "loop",
      "requests",
      "errors",
      "SIGTERM → stopped ms",
      "stopped → exit ms",
      "cleanup removed / left",
      "exit",
      "peak RSS MB",
    ],
    ...outcomes.map(row),
  ]),
);
process.stdout.write(
  `\nstopped: the summary (status "stopped") written to the results library; stopped → exit: ` +
    `the cleanup of the keys the run wrote, then the process's exit.\n${verdict(outcomes)}`,
);
