/**
 * `pnpm bench csv-export`: the peak resident set of `taillab report --format csv --requests`
 * exporting a run of BENCH_RECORDS requests (default 1 M) to a file, beside the same export of a
 * run of one request (the process's own floor: Node, the modules). The export is streamed, so
 * what it holds is one chunk whatever the run's length; the whole-file export it replaced peaked
 * at 192 MB for 90 000 requests against a floor of 120 MB (1.87 GB for 3 M). Measured on the
 * 2-core dev machine: 1 M requests peaked at 191 MB (floor 117 MB), V8 letting garbage pile up;
 * with NODE_OPTIONS=--max-old-space-size=40 the same export ran at 139 MB, so what it keeps alive
 * is bounded.
 */
import { RunSpecSchema, type RequestRecord } from "@taillab/api";
import { openResultsStore } from "@taillab/backend";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_MAIN } from "../src/test-support/run-cli.ts";

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const BATCH = 1000;

function recordOf(index: number, keyPrefix: string): RequestRecord {
  const start = index * 20;
  return {
    op: index % 2 === 0 ? "PUT" : "GET",
    key: `${keyPrefix}${index % 10_000}`,
    bytes: 1024,
    intendedStartUs: start,
    readyUs: start + 1,
    sentUs: start + 2,
    headersUs: start + 300 + (index % 97),
    firstByteUs: start + 310 + (index % 97),
    endUs: start + 400 + (index % 89),
    connectUs: 0,
    bodySentUs: start + 2,
    status: 200,
    error: null,
    attempt: 1,
    replica: 0,
    winner: true,
    phaseIndex: index % 2,
    client: index % 8,
    measured: true,
  };
}

/** A stored run of `count` requests, written through the store as a run writes them. */
async function storedRun(dir: string, id: string, count: number): Promise<void> {
  const store = await openResultsStore(dir);
  const spec = RunSpecSchema.parse({ clients: 1, samples: count, objectSize: "1KiB" });
  const keyPrefix = `taillab/${id}/`;
  const writer = await store.createRun({
    id,
    name: id,
    spec,
    environment: {
      taillabVersion: "bench",
      os: process.platform,
      cpuModel: "bench",
      cpuCount: 1,
      memoryBytes: 0,
      node: process.version,
      server: null,
    },
    keyPrefix,
    runStartEpochMs: Date.now(),
  });
  for (let start = 0; start < count; start += BATCH) {
    const batch: RequestRecord[] = [];
    for (let index = start; index < Math.min(count, start + BATCH); index += 1) {
      batch.push(recordOf(index, keyPrefix));
    }
    writer.appendRecords(0, batch);
    if (start % (50 * BATCH) === 0) await writer.flush();
  }
  // Records only: the export reads the log, whatever the run's status.
  await writer.fail("bench: records only");
}

/** The export under GNU time, whose %M is the peak resident set of what it ran, in KiB. */
async function exportPeakMb(dir: string, id: string, out: string): Promise<number> {
  const timeFile = join(dir, `${id}.time`);
  const child = spawn(
    "/usr/bin/time",
    [
      "-f",
      "%M",
      "-o",
      timeFile,
      process.execPath,
      CLI_MAIN,
      "report",
      id,
      "--format",
      "csv",
    ].concat(["--requests", "--out", out, "--results", dir]),
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`taillab report exited with ${code}`);
  return Number((await readFile(timeFile, "utf8")).trim().split("\n").at(-1)) / 1024;
}

const dir = await mkdtemp(join(tmpdir(), "taillab-csv-export-bench-"));
try {
  await storedRun(dir, "floor", 1);
  await storedRun(dir, "large", RECORDS);
  const floorMb = await exportPeakMb(dir, "floor", join(dir, "floor.csv"));
  const largeMb = await exportPeakMb(dir, "large", join(dir, "large.csv"));
  const sizeMb = (await stat(join(dir, "large.csv"))).size / 1024 / 1024;
  const mb = (value: number) => value.toFixed(1);
  process.stdout.write(
    [
      `requests exported              ${RECORDS.toLocaleString("en-US")} (${mb(sizeMb)} MB of CSV)`,
      `peak RSS, 1 request            ${mb(floorMb)} MB (the process's floor)`,
      `peak RSS, ${RECORDS.toLocaleString("en-US").padEnd(20)} ${mb(largeMb)} MB (${mb(largeMb - floorMb)} MB above the floor)`,
    ].join("\n") + "\n",
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
