import { RunIndexEntrySchema, type PhaseHistograms } from "@taillab/api";
import { createRandom, decodeHistogram } from "@taillab/core";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openResultsStore } from "./results-store.ts";
import { CRASH_RUN } from "./test-support/sample-run.ts";

const CHILD = fileURLToPath(new URL("./test-support/write-run-child.ts", import.meta.url));
const KILLS = 24;
const AT_ONCE = 4;
const PHASES = CRASH_RUN.points * CRASH_RUN.ops.length;
const TOTAL = PHASES * CRASH_RUN.recordsPerPhase;

/** "<point> <op> <requests in the latency histogram>" */
function latencyCount(phase: PhaseHistograms): string {
  const latency = decodeHistogram(phase.latency);
  const count = latency.totalCount;
  latency.destroy();
  return `${phase.pointIndex} ${phase.op} ${count}`;
}

interface ChildOutcome {
  id: string;
  created: boolean;
  durable: number;
  finished: boolean;
  /** From the child's "ready" (store open) to its exit. */
  writingMs: number;
}

/**
 * Runs the writer process and SIGKILLs it `killAfterMs` after it says "ready" (its store is open
 * and it is about to create the run); null lets it finish.
 */
async function runChild(
  dir: string,
  id: string,
  killAfterMs: number | null,
): Promise<ChildOutcome> {
  const child = spawn(process.execPath, [CHILD, dir, id], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let readyAt = 0;
  let timer: NodeJS.Timeout | null = null;
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (readyAt === 0 && stdout.startsWith("ready\n")) {
      readyAt = performance.now();
      if (killAfterMs !== null) timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
  if (timer) clearTimeout(timer);
  if (signal === null && code !== 0) throw new Error(`writer ${id} failed (${code}): ${stderr}`);
  const lines = stdout.split("\n");
  const durable = lines
    .filter((line) => line.startsWith("durable "))
    .map((line) => Number(line.slice("durable ".length)));
  return {
    id,
    created: lines.includes("created"),
    durable: Math.max(0, ...durable),
    finished: lines.includes(`finished ${TOTAL}`),
    writingMs: performance.now() - readyAt,
  };
}

describe("a writer killed with SIGKILL at any moment", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "taillab-kill-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(`leaves runs that are listed, readable and summarizable (${KILLS} kills)`, async () => {
    // Undisturbed runs, as many at once as later, measure a run's life so the kills can be
    // spread over all of it: before the folder exists, mid-records, and after the finish.
    const calibration = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, index) => runChild(dir, `whole-${index}`, null)),
    );
    for (const outcome of calibration) expect(outcome.finished).toBe(true);
    const lifeMs =
      calibration.reduce((sum, outcome) => sum + outcome.writingMs, 0) / calibration.length;

    const random = createRandom(20261122);
    const delays = Array.from({ length: KILLS }, () => random.next() * lifeMs * 1.1);
    const outcomes: ChildOutcome[] = [...calibration];
    for (let start = 0; start < KILLS; start += AT_ONCE) {
      const round = delays.slice(start, start + AT_ONCE);
      outcomes.push(
        ...(await Promise.all(
          round.map((delay, index) => runChild(dir, `kill-${start + index}`, delay)),
        )),
      );
    }
    // The kills landed all over a run's life: before the folder, mid-records, after the finish.
    expect(outcomes.some((outcome) => !outcome.created)).toBe(true);
    expect(outcomes.some((outcome) => outcome.created && !outcome.finished)).toBe(true);
    expect(outcomes.filter((outcome) => outcome.finished).length).toBeGreaterThan(AT_ONCE);

    const store = await openResultsStore(dir);
    const entries = await store.list();
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    for (const entry of entries) expect(["complete", "interrupted"]).toContain(entry.status);

    for (const outcome of outcomes.filter((candidate) => candidate.created)) {
      const entry = byId.get(outcome.id);
      expect(entry, `${outcome.id} is listed`).toBeDefined();
      const stored = await store.get(outcome.id);
      if (outcome.finished) {
        expect(stored.status).toBe("complete");
        expect(stored.recordCount).toBe(TOTAL);
        expect(stored.histograms).toHaveLength(PHASES);
        expect(stored.summary?.runId).toBe(outcome.id);
        expect((await store.loadRecords(outcome.id)).count).toBe(TOTAL);
        continue;
      }
      // Killed after "finished" was printed but before the process exited counts as finished.
      if (stored.status === "complete") continue;
      expect(stored.status, outcome.id).toBe("interrupted");
      expect(stored.recordCount).toBeGreaterThanOrEqual(outcome.durable);
      expect(entry?.recordCount).toBe(stored.recordCount);
      const columns = await store.loadRecords(outcome.id);
      expect(columns.count).toBe(stored.recordCount);
      const { summary, histograms } = await store.rebuildFromRecords(outcome.id);
      expect(summary.status).toBe("stopped");
      const requests = summary.points
        .flatMap((point) => point.phases)
        .reduce((sum, phase) => sum + phase.requests, 0);
      expect(requests > 0).toBe(columns.count > 0);
      // Every phase measured has histograms (stored, or rebuilt for the one cut short) holding
      // its answered requests.
      const answered = summary.points.flatMap((point, pointIndex) =>
        point.phases.map((phase) => `${pointIndex} ${phase.op} ${phase.requests - phase.errors}`),
      );
      expect(histograms.map(latencyCount), outcome.id).toEqual(answered);
    }

    // Nothing left half-made, and every JSON file parses.
    const index = JSON.parse(await readFile(join(dir, "index.json"), "utf8")) as unknown;
    expect(RunIndexEntrySchema.array().safeParse(index).success).toBe(true);
    const top = await readdir(dir);
    expect(top.filter((name) => name.startsWith(".staging-") || name.endsWith(".tmp"))).toEqual([]);
    for (const entry of entries) {
      for (const name of await readdir(join(dir, entry.id))) {
        expect(name.endsWith(".tmp"), `${entry.id}/${name}`).toBe(false);
        if (name.endsWith(".json")) {
          JSON.parse(await readFile(join(dir, entry.id, name), "utf8"));
        }
      }
    }
  });
});
