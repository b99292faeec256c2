import type { Experiment, PhaseSummary } from "@taillab/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { draftOf, startAppClient, type AppClient } from "./test-support/app-client.ts";

let app: AppClient;
beforeAll(async () => {
  app = await startAppClient();
});
afterAll(async () => {
  await app?.close();
});

/** Runs a built-in's series of modes to its end: its runs' ids. */
async function runSeries(experiment: Experiment): Promise<string[]> {
  const count = experiment.modes?.length ?? 1;
  let finishedRuns = 0;
  const series = new Promise<string[]>((resolve) => {
    app.service.onRunEvent((event) => {
      if (event.type === "finished" && ++finishedRuns === count) resolve(event.seriesRunIds);
    });
  });
  await app.api.startRun({ experiment: draftOf(experiment) });
  return series;
}

describe("the built-in tail latency experiment", () => {
  // How far each mode cuts p99.9 is a figure of `pnpm bench tail` (and tail-modes.test.ts counts
  // the stalls hedging rescues): a moment when a busy machine stalls this whole process slows all
  // 16 requests in flight at once, more than the 3 worst of 3 000 that make p99.9.
  it("runs normal, hedged and tied requests: the stalls show in normal's p99.9, backups rescue them", async () => {
    const experiment = (await app.api.listExperiments()).find((each) =>
      each.name.startsWith("Tail latency"),
    );
    if (!experiment) throw new Error("no built-in tail latency experiment");
    const runIds = await runSeries(experiment);

    const gets = await Promise.all(
      runIds.map(async (runId) => {
        const { summary } = await app.api.getRun({ runId });
        const get = summary.points[0]?.phases.find((phase) => phase.op === "GET");
        return { mode: summary.mode, get: get as PhaseSummary };
      }),
    );
    const [normal, hedged, tied] = gets;
    expect(gets.map(({ mode }) => mode)).toEqual(["normal", "hedged", "tied"]);
    // 1 % of requests stall for 1 s: p99.9 of normal requests is a stall.
    expect(normal?.get.latencyMs?.p999).toBeGreaterThanOrEqual(1000);
    expect(normal?.get.hedge).toBeUndefined();
    // About 30 of the 3 000 GETs stall: most are answered by their backup instead.
    expect(hedged?.get.hedge?.wonByBackup).toBeGreaterThanOrEqual(15);
    // Within the 20 % budget and each worker's starting burst of 20 backups.
    expect(hedged?.get.hedge?.extraPct).toBeLessThanOrEqual(25);
    // Two copies of every GET; the slower of each pair is cancelled.
    expect(tied?.get.hedge?.extraPct).toBeGreaterThan(80);
    expect(tied?.get.hedge?.cancelled).toBeGreaterThan(300);
    for (const { get } of gets) expect(get.errors).toBe(0);
  });
});

describe("the built-in tied requests experiment", () => {
  it("shows server cancellation doing the work once where client cancellation does it twice", async () => {
    const experiment = (await app.api.listExperiments()).find(
      (each) => each.id === "builtin-tied-cancel",
    );
    if (!experiment) throw new Error("no built-in tied requests experiment");
    const { openLoop } = experiment.spec;
    if (!openLoop) throw new Error("the built-in tied requests experiment has no open loop");
    // The lab's servers, rate and modes for a third of its 15 s: 300 GETs a mode, where the
    // work counted is a share of them and the drops need one queue; the lab's length is for a
    // class's charts, and three of its runs took 45 s of a suite that runs this file alone.
    const shortened = {
      ...experiment,
      spec: { ...experiment.spec, openLoop: { ...openLoop, durationMs: "5s" } },
    };
    const runs = await Promise.all(
      (await runSeries(shortened)).map(async (runId) => (await app.api.getRun({ runId })).summary),
    );
    expect(runs.map((run) => run.mode)).toEqual(["normal", "tied", "tied-server"]);
    const [normal, tied, tiedServer] = runs.map((run) => {
      const get = run.points[0]?.phases.find((phase) => phase.op === "GET") as PhaseSummary;
      const replicas = run.testbed ?? [];
      return {
        get,
        served: replicas.reduce((sum, replica) => sum + (replica.served ?? 0), 0),
        dropped: replicas.reduce((sum, replica) => sum + (replica.tiesDropped ?? 0), 0),
      };
    });
    for (const run of [normal, tied, tiedServer]) expect(run?.get.errors).toBe(0);
    // Both tied modes send (nearly) every request twice: a copy answered before the second
    // leaves has no twin...
    expect(tied?.get.hedge?.extraPct).toBeGreaterThan(90);
    expect(tiedServer?.get.hedge?.extraPct).toBeGreaterThan(90);
    // ...but only the servers' cancellation keeps the second copy from being served.
    expect(normal?.dropped).toBe(0);
    expect(tied?.dropped).toBe(0);
    expect(tiedServer?.dropped).toBeGreaterThan(0);
    const work = (run: typeof normal) => (run?.served ?? 0) / (run?.get.requests ?? 1);
    expect(work(tiedServer)).toBeLessThan(work(tied));
    expect(work(tiedServer) - work(normal)).toBeLessThan((work(tied) - work(normal)) / 2);
  });
});
