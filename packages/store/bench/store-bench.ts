/**
 * `pnpm bench store`: writes 1 M records through a RunWriter (in batches of 1 000, as worker
 * reports arrive), then reads them back. Prints the write speed (as seen by the caller, and until
 * everything is fsynced), the reload time for charts (columns), the time to iterate them as
 * RequestRecords and to rebuild a summary, and the size of the records file.
 */
import type { RequestRecord } from "@taillab/api";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openResultsStore } from "../src/index.ts";
import {
  sampleRecords,
  sampleRunInput,
  sampleSpec,
  sampleSummary,
} from "../src/test-support/sample-run.ts";

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const BATCH = 1000;
const RELOADS = 5;

function format(value: number, digits = 0): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: digits });
}

const dir = await mkdtemp(join(tmpdir(), "taillab-store-bench-"));
try {
  const store = await openResultsStore(dir);
  const spec = sampleSpec({ samples: RECORDS });
  const input = sampleRunInput("bench", spec);
  // Generated beforehand so the figures are the store's alone; 100 000 records, reused.
  const pool = sampleRecords({ keyPrefix: input.keyPrefix, op: "GET", count: 100_000, seed: 1 });
  const batches: RequestRecord[][] = [];
  for (let start = 0; start < pool.length; start += BATCH) {
    batches.push(pool.slice(start, start + BATCH));
  }

  const writer = await store.createRun(input);
  const started = performance.now();
  let appendMs = 0;
  for (let written = 0, index = 0; written < RECORDS; index += 1) {
    const batch = batches[index % batches.length] ?? [];
    const before = performance.now();
    writer.appendRecords(0, batch);
    appendMs += performance.now() - before;
    written += batch.length;
    // Let the writes go out between batches, as they do between worker reports.
    if (index % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
  }
  await writer.finish(sampleSummary("bench", spec, ["GET"]));
  const totalMs = performance.now() - started;
  const size = (await stat(join(dir, "bench", "records.log"))).size;

  const reloadMs: number[] = [];
  let count = 0;
  for (let round = 0; round < RELOADS; round += 1) {
    const before = performance.now();
    count = (await store.loadRecords("bench")).count;
    reloadMs.push(performance.now() - before);
  }
  if (count !== RECORDS) throw new Error(`reloaded ${count} records, expected ${RECORDS}`);

  let iterated = 0;
  const iterateStart = performance.now();
  for await (const row of store.records("bench")) iterated += row.record.attempt > 0 ? 1 : 0;
  const iterateMs = performance.now() - iterateStart;
  if (iterated !== RECORDS) throw new Error(`iterated ${iterated} records`);

  const summaryStart = performance.now();
  await store.summarizeFromRecords("bench");
  const summaryMs = performance.now() - summaryStart;

  const sorted = [...reloadMs].sort((a, b) => a - b);
  const lines = [
    `records                       ${format(RECORDS)}`,
    `write, appendRecords calls    ${format(RECORDS / (appendMs / 1000))} records/s (caller's thread)`,
    `write, until fsynced          ${format(RECORDS / (totalMs / 1000))} records/s (${format(totalMs)} ms)`,
    `records.log size              ${format(size / 1024 / 1024, 1)} MiB (${format(size / RECORDS, 1)} bytes/record)`,
    `reload as columns (charts)    first ${format(reloadMs[0] ?? 0, 1)} ms, median ${format(sorted[Math.floor(RELOADS / 2)] ?? 0, 1)} ms`,
    `iterate as RequestRecords     ${format(iterateMs)} ms`,
    `summarize from records        ${format(summaryMs)} ms`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
