import type { PhaseSummary } from "@taillab/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { draftOf, startAppClient, type AppClient } from "./test-support/app-client.ts";

let app: AppClient;
beforeAll(async () => {
  app = await startAppClient();
});
afterAll(async () => {
  await app?.close();
});

describe("the built-in tail latency experiment", () => {
  it("shows hedged and tied requests cutting p99.9 far below normal", async () => {
    const experiment = (await app.api.listExperiments()).find((each) =>
      each.name.startsWith("Tail latency"),
    );
    if (!experiment) throw new Error("no built-in tail latency experiment");
    let finishedRuns = 0;
    const series = new Promise<string[]>((resolve) => {
      app.service.onRunEvent((event) => {
        if (event.type === "finished" && ++finishedRuns === 3) resolve(event.seriesRunIds);
      });
    });
    await app.api.startRun({ experiment: draftOf(experiment) });
    const runIds = await series;

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
    expect(normal?.get.latencyMs?.p999).toBeGreaterThan(900);
    expect((hedged?.get.latencyMs?.p999 ?? Infinity) * 5).toBeLessThan(
      normal?.get.latencyMs?.p999 ?? 0,
    );
    expect((tied?.get.latencyMs?.p999 ?? Infinity) * 5).toBeLessThan(
      normal?.get.latencyMs?.p999 ?? 0,
    );
    expect(hedged?.get.hedge?.extraPct).toBeLessThan(20);
    expect(tied?.get.hedge?.extraPct).toBeGreaterThan(80);
    for (const { get } of gets) expect(get.errors).toBe(0);
  });
});
