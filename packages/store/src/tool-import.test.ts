import type { PhaseSummary, ToolLatencyFigure } from "@taillab/api";
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { zstdCompressSync, zstdDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openResultsStore, type ResultsStore } from "./results-store.ts";
import { readToolFileText, TOOL_FILE_LIMITS } from "./tool-run.ts";

/** Files the real tools wrote (see tool-fixtures/README.md), never files TailLab wrote. */
const fixture = (name: string) =>
  fileURLToPath(new URL(`./test-support/tool-fixtures/${name}`, import.meta.url));

let root: string;
let count = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "taillab-tool-import-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function newStore(): Promise<ResultsStore> {
  count += 1;
  return openResultsStore(join(root, `library-${count}`));
}

async function importedPhases(store: ResultsStore, path: string): Promise<PhaseSummary[][]> {
  const entry = await store.importFile(path);
  const run = await store.get(entry.id);
  expect(run.meta.imported?.file).toBe(path.split("/").at(-1));
  return (run.summary?.points ?? []).map((point) => point.phases);
}

/** HDR keeps three significant digits, and TailLab rounds to the µs. */
function expectWithinHistogram(actualMs: number | undefined, expectedMs: number): void {
  expect(Math.abs((actualMs ?? Number.NaN) - expectedMs)).toBeLessThanOrEqual(
    expectedMs * 0.001 + 0.001,
  );
}

describe("importing other tools' results", () => {
  it("s3bench: the library's figures are the ones s3bench printed", async () => {
    const store = await newStore();
    const path = fixture("s3bench-minio.txt");
    const text = await readFile(path, "utf8");
    const [phases = []] = await importedPhases(store, path);
    const printed = [...text.matchAll(/^(Write|Read) times (.+?):\s+([\d.]+) s$/gm)];
    const totals = [...text.matchAll(/^Total Throughput:\s+([\d.]+) MB\/s$/gm)];
    expect(phases.map((phase) => phase.op)).toEqual(["PUT", "GET"]);
    expect(printed).toHaveLength(14);
    const figure: Record<string, ToolLatencyFigure> = {
      Max: "max",
      "99th %ile": "p99",
      "90th %ile": "p90",
      "75th %ile": "p75",
      "50th %ile": "p50",
      "25th %ile": "p25",
      Min: "min",
    };
    for (const [, word, label, seconds] of printed) {
      const phase = phases[word === "Write" ? 0 : 1];
      const name = figure[label as string] as ToolLatencyFigure;
      expect(phase?.toolLatencyMs?.[name]).toBeCloseTo(Number(seconds) * 1000, 9);
    }
    expect(phases.map((phase) => phase.throughputMBps)).toEqual(
      totals.map(([, mbps]) => Number(mbps)),
    );
    expect(phases.every((phase) => phase.requests === 40 && phase.latencyMs === null)).toBe(true);
    const listed = await store.list();
    expect(listed[0]).toMatchObject({ importedFrom: "s3bench" });
    expect(listed[0]?.headline[0]?.p99Ms).toBe(21);
  });

  it("fio json+: percentiles recomputed from its bins equal fio's own", async () => {
    const store = await newStore();
    const path = fixture("fio-psync.json");
    const report = JSON.parse(await readFile(path, "utf8")) as {
      jobs: Record<
        string,
        {
          total_ios: number;
          io_bytes: number;
          runtime: number;
          clat_ns: { percentile: Record<string, number> };
        }
      >[];
    };
    const points = await importedPhases(store, path);
    expect(points).toHaveLength(report.jobs.length);
    report.jobs.forEach((job, index) => {
      const stats = [job.write, job.read].find((direction) => (direction?.total_ios ?? 0) > 0);
      const [phase] = points[index] ?? [];
      expect(phase).toMatchObject({
        requests: stats?.total_ios,
        bytes: stats?.io_bytes,
        durationMs: stats?.runtime,
      });
      const percentile = stats?.clat_ns.percentile ?? {};
      for (const [level, name] of [
        ["50.000000", "p50"],
        ["90.000000", "p90"],
        ["99.000000", "p99"],
      ] as const) {
        expectWithinHistogram(phase?.latencyMs?.[name], (percentile[level] ?? Number.NaN) / 1e6);
      }
    });
  });

  it("elbencho --jsonfile: its counts and the minimum, mean and maximum it kept", async () => {
    const store = await newStore();
    const path = fixture("elbencho-s3.json");
    const written = (await readFile(path, "utf8"))
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as {
            last_done: Record<string, string> & { latency: { entries: Record<string, string> } };
          },
      );
    const [phases = []] = await importedPhases(store, path);
    expect(phases.map((phase) => phase.op)).toEqual(["PUT", "GET"]);
    written.forEach(({ last_done: done }, index) => {
      const phase = phases[index];
      expect(phase).toMatchObject({
        requests: Number(done.entries),
        bytes: Number(done.bytes),
        durationMs: Number(done.elapsed_time_ms),
        latencyMs: null,
      });
      expect(phase?.toolLatencyMs).toEqual({
        min: Number(done.latency.entries.min_us) / 1000,
        mean: Number(done.latency.entries.avg_us) / 1000,
        max: Number(done.latency.entries.max_us) / 1000,
      });
    });
  });

  it("elbencho --csvfile: the same figures as its --jsonfile of the same run", async () => {
    const fromJson = await importedPhases(await newStore(), fixture("elbencho-s3.json"));
    const fromCsv = await importedPhases(await newStore(), fixture("elbencho-s3.csv"));
    // Whole MiB in the CSV: the 256 MiB of each phase lose nothing.
    expect(fromCsv).toEqual(fromJson);
  });

  it("warp .csv.zst: figures recomputed from its requests", async () => {
    const store = await newStore();
    const [phases = []] = await importedPhases(store, fixture("warp-get.csv.zst"));
    const [put, get] = phases;
    // Counted from the fixture with Python's csv module (delimiter "\t"), apart from TailLab.
    expect(put).toMatchObject({ op: "PUT", requests: 16, errors: 0, bytes: 16 * 1048576 });
    expect(get).toMatchObject({ op: "GET", requests: 200, errors: 2, bytes: 198 * 1048576 });
    expect(get?.latencyMs).toMatchObject({ min: 1.195, max: 42.728 });
    expectWithinHistogram(get?.latencyMs?.p50, 2.206);
    expectWithinHistogram(get?.latencyMs?.p90, 2.853);
    expectWithinHistogram(get?.latencyMs?.p99, 3.205);
    expectWithinHistogram(put?.latencyMs?.p50, 5.555);
    expect(get?.ttfbMs).not.toBeNull();
    expect(put?.ttfbMs).toBeNull();
    expect(get?.clientQueueMs).toBeNull();
  });

  it("warp .json.zst: the figures warp prints from its aggregate's segments", async () => {
    const store = await newStore();
    const path = fixture("warp-get.json.zst");
    const aggregate = JSON.parse(zstdDecompressSync(await readFile(path)).toString()) as {
      by_op_type: {
        GET: {
          total_requests: number;
          total_errors: number;
          throughput: { measure_duration_millis: number };
          requests_by_client: Record<string, { single_sized_requests: Record<string, number> }[]>;
        };
      };
    };
    const get = aggregate.by_op_type.GET;
    const segments = Object.values(get.requests_by_client)
      .flat()
      .map((segment) => segment.single_sized_requests);
    // warp's SingleSizedRequests.StringByN: sums over segments divided by their count.
    const averaged = (field: string) =>
      segments.reduce((sum, segment) => sum + (segment[field] ?? 0), 0) / segments.length;
    const [[phase] = []] = await importedPhases(store, path);
    expect(phase).toMatchObject({
      op: "GET",
      requests: get.total_requests,
      errors: get.total_errors,
      durationMs: get.throughput.measure_duration_millis,
      latencyMs: null,
    });
    expect(phase?.toolLatencyMs?.p50).toBeCloseTo(averaged("dur_median_millis"), 3);
    expect(phase?.toolLatencyMs?.p99).toBeCloseTo(averaged("dur_99_millis"), 3);
    expect(phase?.toolLatencyMs?.max).toBe(
      Math.max(...segments.map((segment) => segment.slowest_millis ?? 0)),
    );
    expect(phase?.toolLatencyMs?.p999).toBeUndefined();
  });

  describe("a damaged or hostile file imports nothing, and says why in one line", () => {
    async function expectRefused(path: string, message: RegExp): Promise<void> {
      const store = await newStore();
      const refusal = store.importFile(path);
      await expect(refusal).rejects.toThrow(message);
      await refusal.catch((error: Error) => expect(error.message).not.toContain("\n"));
      expect(await store.list()).toEqual([]);
      expect(await readdir(store.dir)).not.toContainEqual(expect.stringMatching(/^\.staging/));
    }

    it("a warp file cut short", async () => {
      const whole = await readFile(fixture("warp-get.csv.zst"));
      const path = join(root, "cut.csv.zst");
      await writeFile(path, whole.subarray(0, whole.length / 2));
      await expectRefused(path, /cut\.csv\.zst: its zstd stream cannot be decompressed/);
    });

    it("a warp file with one changed time", async () => {
      const lines = zstdDecompressSync(await readFile(fixture("warp-get.csv.zst")))
        .toString()
        .split("\n");
      lines[49] = (lines[49] as string).replace(
        /2025-03-14T09:26:53\.\d+/,
        "2025-13-14T09:26:53.5",
      );
      const path = join(root, "changed.csv.zst");
      await writeFile(path, zstdCompressSync(Buffer.from(lines.join("\n"))));
      await expectRefused(path, /changed\.csv\.zst: line 50, field "start": .* is not a time/);
    });

    it("a zstd stream that expands past what an import reads", async () => {
      const bomb = join(root, "bomb.csv.zst");
      await writeFile(bomb, zstdCompressSync(Buffer.alloc(2 * 1024 * 1024)));
      const limits = { ...TOOL_FILE_LIMITS, textBytes: 1024 * 1024 };
      await expect(readToolFileText(bomb, limits)).rejects.toThrow(
        /bomb\.csv\.zst: expands past 1048576 bytes; an import reads at most that much/,
      );
    });

    it("a file past the size an import reads, not UTF-8, or not a result at all", async () => {
      const huge = join(root, "huge.txt");
      await writeFile(huge, "");
      await truncate(huge, TOOL_FILE_LIMITS.fileBytes + 1);
      await expectRefused(huge, /huge\.txt: \d+ bytes; an import reads files of at most/);
      const binary = join(root, "binary.txt");
      await writeFile(binary, Buffer.from([0xff, 0xfe, 0x00, 0x81]));
      await expectRefused(binary, /binary\.txt: is not UTF-8 text/);
      const other = join(root, "notes.txt");
      await writeFile(other, "shopping list\n");
      await expectRefused(other, /notes\.txt: not a result file TailLab reads/);
      await expectRefused(join(root, "absent.csv.zst"), /absent\.csv\.zst: there is no such file/);
    });
  });
});
