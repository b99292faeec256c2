import type { PhaseSummary } from "@taillab/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSeries, startAppClient, type AppClient } from "./test-support/app-client.ts";

let app: AppClient;
beforeAll(async () => {
  app = await startAppClient();
});
afterAll(async () => {
  await app?.close();
});

describe("the built-in tail latency experiment", () => {
  // How far each mode cuts p99.9 is a figure of `pnpm bench tail` (and tail-modes.test.ts counts
  // the stalls hedging rescues): a moment when a busy machine stalls this whole process slows all
  // 16 requests in flight at once, more than the 3 worst of 3 000 that make p99.9.
  it("runs normal, hedged and tied requests: the stalls show in normal's p99.9, backups rescue them", async () => {
    const experiment = (await app.api.listExperiments()).find((each) =>
      each.name.startsWith("Tail latency"),
    );
    if (!experiment) throw new Error("no built-in tail latency experiment");
    const runIds = await runSeries(app, experiment);

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
