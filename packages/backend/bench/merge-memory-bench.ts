/**
 * `pnpm bench merge-memory`: the peak resident set of `taillab merge` for BENCH_SHARDS shards
 * (default 4) whose records files hold BENCH_RECORDS records each (default 1 M), beside the same
 * merge of shards of 1 000 records (the process's floor: Node, the modules, the results). The
 * shards' folders are generated (results folded from generated requests, records compressed as a
 * shard uploads them) into the embedded testbed, which serves them from this process; the merge
 * runs in its own process under GNU time. Each records file is streamed to a temporary file once
 * and read from there in batches, so the merge holds a batch, not a file, whatever the count; it
 * used to read each file whole into memory, twice (up to 1 GiB each). Measured on the 2-core dev
 * machine at load 20, 2 shards: 200 000 records each (7.7 MB gzipped in all) peaked 116 MB above
 * the floor, 800 000 each (30.8 MB) 105 MB above it, and the default 4 shards of 1 M (77 MB)
 * 115 MB above it: V8 letting garbage pile up while it has room, not growing with the records;
 * with NODE_OPTIONS=--max-old-space-size=64, 2 × 800 000 merged at 28 MB above the floor.
 */
import { RunSpecSchema } from "@taillab/api";
import { startTestbed } from "@taillab/testbed";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openRunFolder } from "../src/distributed/run-folder-client.ts";
import { foldedPhase, putGeneratedShard } from "../src/distributed/test-support/generated-shard.ts";

const SHARDS = Number(process.env.BENCH_SHARDS ?? 4);
const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const FLOOR_RECORDS = 1000;

const CLI = fileURLToPath(new URL("../../../apps/cli/bin/taillab.js", import.meta.url));
const credentials = { accessKeyId: "BENCHKEY", secretAccessKey: "bench-secret" };
const env = {
  ...process.env,
  AWS_ACCESS_KEY_ID: credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
};

const testbed = await startTestbed({ credentials, buckets: ["loadgen"] });
const dir = await mkdtemp(join(tmpdir(), "taillab-merge-memory-bench-"));
const spec = RunSpecSchema.parse({
  endpoints: [{ url: testbed.url }],
  clients: SHARDS * 10,
  samples: SHARDS * 1000,
  objectSize: 1024,
  phases: ["write"],
});
const phase = foldedPhase(1000, 1);

/** A run's folder of SHARDS generated shards of `records` records each; its records' bytes. */
async function generatedRun(runId: string, records: number): Promise<number> {
  const folder = { bucket: "loadgen", prefix: `taillab/${runId}/`, runId };
  const client = await openRunFolder(spec, { env }, folder);
  const keyPrefix = `${spec.keyPrefix}/${runId}/`;
  const runStartEpochMs = Date.now() - 120_000;
  let bytes = 0;
  try {
    for (let index = 0; index < SHARDS; index += 1) {
      const put = await putGeneratedShard(client.markers, {
        runId,
        index,
        shards: SHARDS,
        spec,
        endpointUrl: testbed.url,
        runStartEpochMs,
        phase,
        records: { count: records, keyOf: (n) => `${keyPrefix}${n % 10_000}` },
      });
      bytes += put.recordsBytes;
    }
  } finally {
    await client.close();
  }
  return bytes;
}

/** `taillab merge` of the run under GNU time, whose %M is the peak resident set in KiB. */
async function mergePeakMb(runId: string): Promise<number> {
  const timeFile = join(dir, `${runId}.time`);
  const child = spawn(
    "/usr/bin/time",
    ["-f", "%M", "-o", timeFile, process.execPath, CLI, "merge"].concat([
      `s3://loadgen/taillab/${runId}/`,
      "--endpoint",
      testbed.url,
      "--results",
      join(dir, "library"),
      "--json",
    ]),
    { stdio: ["ignore", "ignore", "inherit"], env },
  );
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`taillab merge exited with ${code}`);
  return Number((await readFile(timeFile, "utf8")).trim().split("\n").at(-1)) / 1024;
}

try {
  const stamp = Date.now();
  await generatedRun(`bench-floor-${stamp}`, FLOOR_RECORDS);
  const largeBytes = await generatedRun(`bench-large-${stamp}`, RECORDS);
  const floorMb = await mergePeakMb(`bench-floor-${stamp}`);
  const largeMb = await mergePeakMb(`bench-large-${stamp}`);
  const mb = (value: number) => value.toFixed(1);
  const count = (value: number) => value.toLocaleString("en-US");
  process.stdout.write(
    [
      `shards merged                  ${SHARDS}, records uploaded with each`,
      `peak RSS, ${count(FLOOR_RECORDS).padEnd(10)} records  ${mb(floorMb)} MB (the process's floor)`,
      `peak RSS, ${count(RECORDS).padEnd(10)} records  ${mb(largeMb)} MB (${mb(largeMb - floorMb)} MB above the floor; ${mb(largeBytes / 1024 / 1024)} MB of gzipped records in all)`,
    ].join("\n") + "\n",
  );
} finally {
  await testbed.close();
  await rm(dir, { recursive: true, force: true });
}
