/**
 * `pnpm bench csv-export`: the peak resident set of `taillab report --format csv --requests`
 * exporting a run of BENCH_RECORDS requests (default 1 M) to a file, beside the same export of a
 * run of one request (the process's own floor: Node, the modules); then the same two exports
 * downloaded from the web host (`GET /download/requests.csv`, the app's export in a browser), the
 * host's peak resident set after each (its VmHWM: the floor's export first, so what the large
 * one adds is the second figure less the first). The export is streamed, so
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
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { request, type IncomingMessage } from "node:http";
import { createInterface } from "node:readline";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_MAIN } from "../src/test-support/run-cli.ts";
import { peakRssMb } from "./process-memory.ts";

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

const WEB_MAIN = join(import.meta.dirname, "..", "..", "web", "src", "main.ts");

/**
 * The web host's second turn: its JS heap held to 64 MB (a host that kept the CSV, 100 MB for
 * 1 M requests, could not finish) and glibc's malloc in one arena. Neither makes the peak flat:
 * the host's peak grows with the run up to a plateau (on the 2-core dev machine at load 20,
 * above its floor: 300 000 requests +67 MB, held +56; 1 M +168, held +125; 3 M, 305 MB of CSV,
 * +169, held +123; the whole-file export it replaced reached 1.87 GB for 3 M). The same
 * download served in one process and measured inside it: its JS heap after a GC was 26 MB after
 * 300 000 requests and 1 M alike, external memory 38 and 23 MB; the heap in use during the
 * download peaked at 57 and 98 MB (garbage V8 lets pile up before collecting, more the longer the
 * export), and each thread that allocates keeps a malloc arena of its own (300 000 exported
 * three times in one process, default arenas: 209, 225, 277 MB; one arena: 198, 195, 196 MB).
 */
const HELD = { NODE_OPTIONS: "--max-old-space-size=64", MALLOC_ARENA_MAX: "1" };

/**
 * The web host over the library `dir` (with `env` on top of this process's), serving a stand-in
 * for the UI (the downloads need none); the peak resident set after each download of `ids`' CSV,
 * in MB, and the bytes downloaded.
 */
async function webExportPeaksMb(
  dir: string,
  ids: string[],
  env: Record<string, string> = {},
): Promise<{ peaksMb: number[]; bytes: number[] }> {
  const uiDir = join(dir, "ui");
  await mkdir(uiDir, { recursive: true });
  await writeFile(join(uiDir, "index.html"), "<!doctype html><title>bench</title>");
  const host = spawn(
    process.execPath,
    [WEB_MAIN, "--port", "0", "--data-dir", join(dir, "data"), "--results", dir].concat([
      "--ui-dir",
      uiDir,
    ]),
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, TAILLAB_SECRETS_PASSPHRASE: "bench", ...env },
    },
  );
  try {
    const [line] = (await once(createInterface({ input: host.stdout }), "line")) as [string];
    const url = new URL(/(http:\/\/\S+)/.exec(line)?.[1] ?? "");
    const token = url.searchParams.get("token") ?? "";
    const peaksMb: number[] = [];
    const bytes: number[] = [];
    for (const id of ids) {
      bytes.push(await downloadedBytes(url, token, id));
      peaksMb.push((await peakRssMb(host.pid as number)) ?? Number.NaN);
    }
    return { peaksMb, bytes };
  } finally {
    host.kill("SIGTERM");
    await once(host, "exit");
  }
}

/** The bytes of the run's per-request CSV as the host sends them, counted and let go. */
async function downloadedBytes(url: URL, token: string, id: string): Promise<number> {
  const answer = await new Promise<IncomingMessage>((resolve, reject) => {
    request(new URL(`/download/requests.csv?runId=${id}`, url), {
      headers: { authorization: `Bearer ${token}` },
    })
      .on("response", resolve)
      .on("error", reject)
      .end();
  });
  if (answer.statusCode !== 200) throw new Error(`the web host answered ${answer.statusCode}`);
  let bytes = 0;
  for await (const chunk of answer) bytes += (chunk as Buffer).length;
  return bytes;
}

const dir = await mkdtemp(join(tmpdir(), "taillab-csv-export-bench-"));
try {
  await storedRun(dir, "floor", 1);
  await storedRun(dir, "large", RECORDS);
  const floorMb = await exportPeakMb(dir, "floor", join(dir, "floor.csv"));
  const largeMb = await exportPeakMb(dir, "large", join(dir, "large.csv"));
  const sizeMb = (await stat(join(dir, "large.csv"))).size / 1024 / 1024;
  const web = await webExportPeaksMb(dir, ["floor", "large"]);
  const [webFloorMb = 0, webLargeMb = 0] = web.peaksMb;
  const oneArena = await webExportPeaksMb(dir, ["floor", "large"], HELD);
  const [oneArenaFloorMb = 0, oneArenaLargeMb = 0] = oneArena.peaksMb;
  const mb = (value: number) => value.toFixed(1);
  process.stdout.write(
    [
      `requests exported              ${RECORDS.toLocaleString("en-US")} (${mb(sizeMb)} MB of CSV)`,
      `peak RSS, 1 request            ${mb(floorMb)} MB (the process's floor)`,
      `peak RSS, ${RECORDS.toLocaleString("en-US").padEnd(20)} ${mb(largeMb)} MB (${mb(largeMb - floorMb)} MB above the floor)`,
      `web host, GET /download/requests.csv (${mb((web.bytes[1] ?? 0) / 1024 / 1024)} MB downloaded):`,
      `  peak RSS after 1 request      ${mb(webFloorMb)} MB (the host's floor)`,
      `  peak RSS after ${RECORDS.toLocaleString("en-US").padEnd(14)} ${mb(webLargeMb)} MB (${mb(webLargeMb - webFloorMb)} MB above the floor)`,
      `  the same, heap 64 MB, MALLOC_ARENA_MAX=1: ${mb(oneArenaFloorMb)} MB, then ${mb(oneArenaLargeMb)} MB (${mb(oneArenaLargeMb - oneArenaFloorMb)} MB above the floor)`,
    ].join("\n") + "\n",
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
