import type { PhaseSummary } from "@taillab/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSeries, startAppClient, type AppClient } from "./test-support/app-client.ts";

/**
 * The built-in tied requests lab, run as the app runs it. It counts work (requests served and
 * dropped per request sent), not time: its open loop sends on schedule however busy the machine
 * is, so it runs beside other files, not in the suite's pass of files alone.
 */

let app: AppClient;
beforeAll(async () => {
  app = await startAppClient();
});
afterAll(async () => {
  await app?.close();
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
    // class's charts, and three of its runs took 45 s of the suite.
    const shortened = {
      ...experiment,
      spec: { ...experiment.spec, openLoop: { ...openLoop, durationMs: "5s" } },
    };
    const runs = await Promise.all(
      (await runSeries(app, shortened)).map(
        async (runId) => (await app.api.getRun({ runId })).summary,
      ),
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
