import type { RunEvent, RunMarker } from "@taillab/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIVE_TAIL_EXPERIMENT_ID } from "./built-in-experiments.ts";
import {
  draftOf,
  failureOf,
  isFinished,
  startAppClient,
  type AppClient,
} from "./test-support/app-client.ts";

let app: AppClient;
beforeAll(async () => {
  app = await startAppClient();
});
afterAll(async () => {
  await app?.close();
});

type Progress = Extract<RunEvent, { type: "progress" }>;
const isProgress = (event: RunEvent): event is Progress => event.type === "progress";

/** The next progress event whose intervals have one that `match` accepts. */
function intervalWhere(match: (interval: Progress["intervals"] & object) => boolean) {
  return app.nextEvent((event): event is Progress => isProgress(event) && match(event.intervals!));
}

describe("the live tail lab", () => {
  it("runs until stopped while its knobs move, each change a marker kept with the run", async () => {
    const lab = (await app.api.listExperiments()).find(
      (each) => each.id === LIVE_TAIL_EXPERIMENT_ID,
    );
    if (!lab) throw new Error("no built-in live tail lab");
    const started = app.nextEvent(
      (event): event is Extract<RunEvent, { type: "started" }> => event.type === "started",
    );
    const { runId } = await app.api.startRun({ experiment: draftOf(lab) });
    expect((await started).tuning).toEqual({
      serviceMs: 5,
      stallProbability: 0.01,
      stallMs: 500,
      replicas: 2,
      mode: "normal",
      hedgeDelay: { kind: "fixed", delayMs: 20 },
      hedgeBudgetPercent: 10,
    });
    // No total: the open loop goes on until stopped.
    const first = await app.nextEvent(
      (event): event is Progress => isProgress(event) && event.progress.done > 500,
    );
    expect(first.progress.total).toBe(0);

    const retuned = app.nextEvent(
      (event): event is Extract<RunEvent, { type: "retuned" }> => event.type === "retuned",
    );
    const marker = await app.api.retuneRun({
      runId,
      tuning: { mode: "hedged", hedgeDelay: "2ms", hedgeBudgetPercent: 50, replicas: 3 },
    });
    expect(marker.changed).toEqual(["replicas", "mode", "hedgeDelay", "hedgeBudgetPercent"]);
    expect(marker.tuning).toMatchObject({ mode: "hedged", replicas: 3, stallProbability: 0.01 });
    expect((await retuned).marker).toEqual(marker);
    expect((await app.api.activeRun())?.tuning).toEqual(marker.tuning);

    // Backups are sent from the change on: a later second counts them.
    await intervalWhere((intervals) =>
      intervals.intervals.some(
        (interval) => interval.startMs > marker.atMs && (interval.backups ?? 0) > 0,
      ),
    );
    const stall = await app.api.retuneRun({ runId, tuning: { stallProbability: 0, replicas: 1 } });
    expect(stall.changed).toEqual(["stallProbability", "replicas"]);

    const finished = app.nextEvent(isFinished);
    await app.api.stopRun({ runId });
    expect((await finished).status).toBe("stopped");

    const { summary, intervals } = await app.api.getRun({ runId });
    expect(summary.status).toBe("stopped");
    expect(summary.markers?.map((each: RunMarker) => each.changed)).toEqual([
      [],
      ["replicas", "mode", "hedgeDelay", "hedgeBudgetPercent"],
      ["stallProbability", "replicas"],
    ]);
    expect(summary.testbed).toHaveLength(1);
    const get = summary.points[0]?.phases.find((phase) => phase.op === "GET");
    expect(get?.errorsByCode).toEqual({});
    expect(get?.hedge?.attempts).toBeGreaterThan(get?.requests ?? 0);
    // The lab bounds its backlog: arrivals too far behind are shed and counted, not kept.
    expect(get?.client?.arrivals).toBe("shed");
    expect(get?.client?.figures.shed).toBeGreaterThanOrEqual(0);
    expect(get?.client?.seconds.length).toBeGreaterThan(0);
    const seconds = intervals.find((phase) => phase.op === "GET")?.intervals ?? [];
    expect(seconds.some((second) => (second.backups ?? 0) > 0)).toBe(true);
    expect(seconds.filter((second) => second.startMs + 1000 <= marker.atMs)).not.toHaveLength(0);
    for (const second of seconds.filter((each) => each.startMs + each.lengthMs <= marker.atMs)) {
      expect(second.backups).toBe(0);
    }
  });

  it("refuses knobs for a run that is not a live session, and knobs out of range", async () => {
    const notLive = await failureOf(
      app.api.retuneRun({ runId: "20260101-000000-abcdef", tuning: { replicas: 2 } }),
    );
    expect(notLive.fields).toEqual([
      { field: "runId", message: expect.stringContaining("is not a live session") },
    ]);
    const outOfRange = await failureOf(
      app.api.retuneRun({ runId: "r", tuning: { stallProbability: 2 } }),
    );
    expect(outOfRange.fields?.[0]?.field).toBe("tuning.stallProbability");
  });
});
