/**
 * `pnpm bench hostile-list`: peak memory of `taillab run` against a server that answers 2 GiB to
 * every LIST (test-support's hostile answer server in front of the embedded testbed; only the
 * preflight's one-key listing gets a true answer, so the run starts), beside the same run
 * against the testbed itself, on both transports. 400 LISTs and PUTs, 4 clients. Every
 * hostile LIST should fail as ResponseTooLarge and the peak stay within a few answer limits
 * (8 MiB each) of the normal run's.
 */
import { RunSummarySchema, type RunSummary } from "@taillab/api";
import { startTestbedServer } from "@taillab/backend";
import { formatTable } from "@taillab/report";
import { startHostileAnswerServer } from "@taillab/test-support";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_MAIN } from "../src/test-support/run-cli.ts";

const CLIENTS = 4;
const SAMPLES = 400;
const ANSWER_LIMIT_MB = 8;

/** `taillab run` under GNU time, whose %M is the peak resident set of the process (KiB). */
async function peakOfRun(endpoint: string, transport: string, libraryDir: string) {
  const timeFile = join(libraryDir, "time.txt");
  const child = spawn(
    "/usr/bin/time",
    [
      ...["-f", "%M", "-o", timeFile, process.execPath, CLI_MAIN, "run"],
      ...["--endpoint", endpoint, "--transport", transport],
      ...["--ops", "list:1,put:1", "--prepare", "100", "--samples", String(SAMPLES)],
      ...["--clients", String(CLIENTS), "--size", "1KiB", "--results", libraryDir, "--json"],
    ],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, AWS_ACCESS_KEY_ID: "any", AWS_SECRET_ACCESS_KEY: "any" },
    },
  );
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  const peakKib = Number((await readFile(timeFile, "utf8")).trim().split("\n").at(-1));
  const summary = stdout.includes("{") ? RunSummarySchema.parse(JSON.parse(stdout)) : null;
  return { code, summary, peakRssMb: peakKib / 1024 };
}

function tooLargeOf(summary: RunSummary | null): number {
  const list = summary?.points[0]?.phases.find((phase) => phase.op === "LIST");
  return list?.errorsByCode.ResponseTooLarge ?? 0;
}

const libraryDir = await mkdtemp(join(tmpdir(), "taillab-hostile-list-"));
const testbed = await startTestbedServer({ buckets: ["loadgen"] });
const hostile = await startHostileAnswerServer({
  upstream: testbed.url,
  answer: ({ operation, query }) =>
    operation === "LIST" && query.get("max-keys") !== "1" ? "huge" : null,
});
try {
  const rows = [
    [
      "transport",
      "normal peak MB",
      "2 GiB LISTs peak MB",
      "difference MB",
      "goal",
      "ResponseTooLarge",
      "exit",
    ],
  ];
  const goalMb = (CLIENTS + 1) * 2 * ANSWER_LIMIT_MB;
  for (const transport of ["fast", "sdk"]) {
    process.stderr.write(`hostile-list: --transport ${transport}…\n`);
    const normal = await peakOfRun(testbed.url, transport, libraryDir);
    const sentBefore = hostile.bytesSent();
    const listsBefore = hostile.answered().LIST;
    const attacked = await peakOfRun(hostile.url, transport, libraryDir);
    rows.push([
      transport,
      normal.peakRssMb.toFixed(0),
      attacked.peakRssMb.toFixed(0),
      (attacked.peakRssMb - normal.peakRssMb).toFixed(0),
      attacked.peakRssMb - normal.peakRssMb <= goalMb ? "met" : "NOT MET",
      `${tooLargeOf(attacked.summary)} of ${hostile.answered().LIST - listsBefore} LISTs`,
      String(attacked.code),
    ]);
    process.stderr.write(
      `hostile-list: the server sent ${((hostile.bytesSent() - sentBefore) / 1024 ** 2).toFixed(0)} MB of 2 GiB answers\n`,
    );
  }
  process.stdout.write(
    `\n${SAMPLES} requests (LIST and PUT), ${CLIENTS} clients; every LIST but the preflight's answered with 2 GiB:\n\n`,
  );
  process.stdout.write(formatTable(rows));
  process.stdout.write(
    `\nGoal: the difference at most ${goalMb} MB (each client and the cleanup holding one ${ANSWER_LIMIT_MB} MiB answer, twice).\n`,
  );
} finally {
  await hostile.close();
  await testbed.close();
  await rm(libraryDir, { recursive: true, force: true });
}
