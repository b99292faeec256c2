/**
 * `pnpm bench long-run`: one 10 000 000-request run, as a user starts it: `taillab testbed` in a
 * process of its own, and `taillab run` against it (GETs of 1 KiB over 1 000 prepared objects,
 * 16 clients, the results library in a temporary folder). Prints the peak resident memory of
 * each TailLab process (goal: at most 300 MB each), and counts every record back from the results
 * store (goal: one per request, none lost). `--requests N` runs N instead.
 */
import { RunSummarySchema, type RunSummary } from "@taillab/api";
import { openResultsStore } from "@taillab/backend";
import { formatTable } from "@taillab/report";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CLI_MAIN } from "../src/test-support/run-cli.ts";
import { startTestbedProcess, type TestbedProcess } from "../src/test-support/testbed-process.ts";
import { peakRssMb } from "./process-memory.ts";

const { values: flags } = parseArgs({ options: { requests: { type: "string" } } });
/** `pnpm bench long-run --requests N` for a shorter run. */
const REQUESTS = Number(flags.requests ?? 10_000_000);
if (!Number.isSafeInteger(REQUESTS) || REQUESTS < 1) {
  throw new Error(`--requests: expected a whole number of requests above 0, got ${flags.requests}`);
}
const PREPARED = 1_000;
const CLIENTS = 16;
const SIZE = "1KiB";
const GOAL_PEAK_RSS_MB = 300;

/**
 * `taillab run` under GNU time, whose %M is the peak resident set of the process it ran (in
 * KiB), read when it has exited: nothing of the run's end is missed.
 */
async function runCli(testbed: TestbedProcess, libraryDir: string, timeFile: string) {
  const child = spawn(
    "/usr/bin/time",
    [
      "-f",
      "%M",
      "-o",
      timeFile,
      process.execPath,
      CLI_MAIN,
      "run",
      "--endpoint",
      testbed.url,
      "--ops",
      "get",
      "--prepare",
      String(PREPARED),
      "--samples",
      String(REQUESTS),
      "--size",
      SIZE,
      "--clients",
      String(CLIENTS),
      "--results",
      libraryDir,
      "--json",
    ],
    { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...testbed.env } },
  );
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`taillab run exited with ${code}`);
  const peakKib = Number((await readFile(timeFile, "utf8")).trim().split("\n").at(-1));
  return { summary: RunSummarySchema.parse(JSON.parse(stdout)), peakRssMb: peakKib / 1024 };
}

/** Every record of the run, read back from the store, by whether it is measured. */
async function countRecords(libraryDir: string, runId: string) {
  const store = await openResultsStore(libraryDir);
  const stored = await store.get(runId);
  let measured = 0;
  let unmeasured = 0;
  for await (const { record } of store.records(runId)) {
    if (record.measured) measured += 1;
    else unmeasured += 1;
  }
  return { status: stored.status, recordCount: stored.recordCount, measured, unmeasured };
}

const requestsOf = (summary: RunSummary) =>
  summary.points.flatMap((point) => point.phases).reduce((sum, phase) => sum + phase.requests, 0);

/** The GET phase's own rate, and over the window where all its clients were busy. */
function getRateOf(summary: RunSummary): string {
  const get = summary.points[0]?.phases.find((phase) => phase.op === "GET");
  if (!get) return "no GET phase";
  const steady = get.steady ? `, ${get.steady.opsPerSec.toFixed(0)} with every client busy` : "";
  return `the GET phase ${get.opsPerSec.toFixed(0)} requests/s${steady}`;
}

const libraryDir = await mkdtemp(join(tmpdir(), "taillab-long-run-"));
const testbed = await startTestbedProcess();
try {
  process.stderr.write(`long run: ${REQUESTS} GETs against ${testbed.url}…\n`);
  const startedMs = performance.now();
  const run = await runCli(testbed, libraryDir, join(libraryDir, "time.txt"));
  const seconds = (performance.now() - startedMs) / 1000;
  const testbedPeakMb = await peakRssMb(testbed.pid);
  process.stderr.write(`long run: counting the records back…\n`);
  const records = await countRecords(libraryDir, run.summary.runId);
  const summarized = requestsOf(run.summary);

  const goal = (mb: number | null) =>
    mb === null ? "not read" : mb <= GOAL_PEAK_RSS_MB ? "met" : "NOT MET";
  process.stdout.write(
    `\nOne run of ${REQUESTS} GETs of ${SIZE} over ${PREPARED} prepared objects, ${CLIENTS} clients, ` +
      `closed loop, against \`taillab testbed\` in its own process: ${seconds.toFixed(0)} s ` +
      `(${(REQUESTS / seconds).toFixed(0)} requests/s with start-up and the summary; ${getRateOf(run.summary)})\n\n`,
  );
  process.stdout.write(
    formatTable([
      ["process", "peak RSS MB", `goal ≤ ${GOAL_PEAK_RSS_MB} MB`],
      [
        "taillab run (coordinator and worker threads)",
        run.peakRssMb.toFixed(0),
        goal(run.peakRssMb),
      ],
      ["taillab testbed", testbedPeakMb?.toFixed(0) ?? "", goal(testbedPeakMb)],
    ]),
  );
  const complete = records.measured === REQUESTS && summarized === REQUESTS;
  process.stdout.write(
    `\nRecords: the store lists ${records.recordCount} for run ${run.summary.runId} ` +
      `(status ${records.status}); read back one by one: ${records.measured} measured + ` +
      `${records.unmeasured} not (the ${PREPARED} prepared PUTs); the summary counts ${summarized} requests.\n` +
      `Goal (every request's record on disk): ${complete ? "MET" : "NOT MET"}.\n`,
  );
} finally {
  await testbed.kill();
  await rm(libraryDir, { recursive: true, force: true });
}
