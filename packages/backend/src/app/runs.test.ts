import type { ExperimentDraftInput, RunEvent, SavedEndpoint } from "@taillab/api";
import { createControlPlane, createTransport } from "@taillab/engine";
import {
  freePort,
  heldCleanup,
  startDrippingProxy,
  startHostileListingServer,
} from "@taillab/test-support";
import { startTestbed } from "@taillab/testbed";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startSignedTestbed } from "../test-support/signed-testbed.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  draftOf,
  failureOf,
  isFinished,
  isStarted,
  startAppClient,
  type AppClient,
} from "./test-support/app-client.ts";

let app: AppClient;
/** A testbed without added latency, so runs are quick. */
let fast: SavedEndpoint;

beforeAll(async () => {
  app = await startAppClient();
  fast = await app.api.addEndpoint({
    name: "Fast testbed",
    kind: "testbed",
    credentials: { kind: "anonymous" },
    testbed: { replicas: 2, profile: "fast" },
  });
});
afterAll(async () => {
  await app?.close();
});

const experiment = (
  spec: Record<string, unknown>,
  extra: Partial<ExperimentDraftInput> = {},
): ExperimentDraftInput => ({
  name: "Quick run",
  endpointId: fast.id,
  spec: { clients: 2, objectSize: "1KiB", ...spec },
  ...extra,
});

/** Bucket "loadgen" of an unsigned testbed, as a control plane or transport reaches it. */
const bucketTarget = (url: string) => ({
  url,
  region: "us-east-1",
  addressing: "path" as const,
  credentials: null,
  bucket: "loadgen",
  maxConnections: 1,
});

/** Starts an experiment and waits until its series has finished; its events, received times. */
async function runToEnd(draft: ExperimentDraftInput) {
  const received: { event: RunEvent; atMs: number }[] = [];
  const unsubscribe = app.service.onRunEvent((event) =>
    received.push({ event, atMs: performance.now() }),
  );
  const count = draft.modes?.length ?? 1;
  let finishedRuns = 0;
  const ended = new Promise<void>((resolve) => {
    const stop = app.service.onRunEvent((event) => {
      if (event.type !== "finished") return;
      finishedRuns += 1;
      if (finishedRuns === count || event.status !== "complete") {
        stop();
        resolve();
      }
    });
  });
  const { runId } = await app.api.startRun({ experiment: draft });
  await ended;
  unsubscribe();
  return { runId, received, events: received.map(({ event }) => event) };
}

describe("a run on a testbed endpoint", () => {
  let runId: string;
  let events: RunEvent[];
  let received: { event: RunEvent; atMs: number }[];

  beforeAll(async () => {
    ({ runId, events, received } = await runToEnd(experiment({ samples: 3000 })));
  });

  it("streams started, notices, progress with live figures, and finished", () => {
    expect(events[0]).toEqual({
      type: "started",
      runId,
      name: "Quick run",
      points: [{ clients: 2, samples: 3000, objectSizeBytes: 1024 }],
      requestCount: 9000,
      series: { index: 0, count: 1, mode: "normal" },
    });
    expect(events).toContainEqual({
      type: "notice",
      runId,
      message: expect.stringMatching(/^embedded testbed listening on http:\/\/127\.0\.0\.1/),
      notice: expect.objectContaining({ code: "testbedStarted" }),
    });
    expect(events.at(-1)).toEqual({
      type: "finished",
      runId,
      status: "complete",
      error: null,
      series: { index: 0, count: 1, mode: "normal" },
      seriesRunIds: [runId],
    });

    const progress = received.filter(({ event }) => event.type === "progress");
    expect(progress.length).toBeGreaterThanOrEqual(3);
    const gaps = progress.slice(1).map((entry, index) => entry.atMs - (progress[index]?.atMs ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(95);
    const updates = progress.flatMap(({ event }) => (event.type === "progress" ? [event] : []));
    expect(updates.at(-1)?.progress).toMatchObject({
      runId,
      op: "DELETE",
      done: 3000,
      total: 3000,
    });
    const withFigures = updates.filter((update) => update.percentiles && update.intervals);
    expect(withFigures.length).toBeGreaterThan(0);
    for (const { intervals, percentiles, progress: phase } of withFigures) {
      expect(intervals?.op).toBe(phase.op);
      expect(percentiles?.count).toBeGreaterThan(0);
      expect(percentiles?.count).toBeLessThanOrEqual(3000);
      expect(percentiles?.p50Ms).toBeLessThanOrEqual(percentiles?.p999Ms ?? 0);
    }
    // One event, one count: the progress line and the percentiles come from the same accounts.
    for (const { percentiles, progress: phase } of updates) {
      if (percentiles) expect(percentiles.count).toBe(phase.done - phase.errors);
    }
    // Every phase's last figures arrive, however soon the next phase starts; its seconds, kept
    // by start with the newest figures of each, hold every answer.
    for (const op of ["PUT", "GET", "DELETE"]) {
      const ofPhase = updates.filter((update) => update.progress.op === op);
      expect(ofPhase.at(-1)).toMatchObject({
        progress: { done: 3000, total: 3000 },
        percentiles: { count: 3000 },
      });
      const seconds = new Map<number, number>();
      for (const update of ofPhase) {
        for (const interval of update.intervals?.intervals ?? []) {
          seconds.set(interval.startMs, interval.requests);
        }
      }
      expect([...seconds.values()].reduce((sum, requests) => sum + requests, 0)).toBe(3000);
    }
  });

  it("is then in the library, with what its charts need", async () => {
    expect(await app.api.activeRun()).toBeNull();
    const entry = (await app.api.listRuns()).find((run) => run.id === runId);
    expect(entry).toMatchObject({ name: "Quick run", status: "complete", recordCount: 9000 });
    const detail = await app.api.getRun({ runId });
    expect(detail.meta).toMatchObject({ id: runId, name: "Quick run" });
    expect(detail.summary.points[0]?.phases.map((phase) => phase.op)).toEqual([
      "PUT",
      "GET",
      "DELETE",
    ]);
    expect(detail.histograms).toHaveLength(3);
    expect(detail.latencySeries.map((series) => series.op)).toEqual(["PUT", "GET", "DELETE"]);
  });

  it("exports CSV, JSON and HTML named after the run", async () => {
    const csv = await app.api.exportReport({ runIds: [runId], format: "csv" });
    expect(csv.fileName).toBe(`taillab-quick-run-${runId}.csv`);
    expect(csv.mimeType).toBe("text/csv;charset=utf-8");
    const rows = csv.content.trim().split(/\r?\n/);
    expect(rows).toHaveLength(4);
    expect(rows[1]).toContain("Quick run");

    const requests = await app.api.exportReport({ runIds: [runId], format: "csv", requests: true });
    expect(requests.fileName).toBe(`taillab-quick-run-${runId}-requests.csv`);
    expect(requests.content.trim().split(/\r?\n/)).toHaveLength(9001);

    const json = await app.api.exportReport({ runIds: [runId], format: "json" });
    expect(json.mimeType).toBe("application/json;charset=utf-8");
    expect(JSON.parse(json.content)).toMatchObject({ kind: "taillab-run", meta: { id: runId } });

    const html = await app.api.exportReport({ runIds: [runId], format: "html", language: "zh-CN" });
    expect(html.fileName).toBe(`taillab-quick-run-${runId}.html`);
    expect(html.mimeType).toBe("text/html;charset=utf-8");
    expect(html.content).toMatch(/^<!doctype html>/i);
    expect(html.content).toContain("Quick run");
    expect(html.content).not.toMatch(/<script[^>]+src=/);
  });

  it("renames, tags, annotates and removes it", async () => {
    expect(await app.api.renameRun({ runId, name: "Renamed" })).toMatchObject({ name: "Renamed" });
    expect(await app.api.tagRun({ runId, tag: "baseline" })).toMatchObject({ tags: ["baseline"] });
    expect(await app.api.untagRun({ runId, tag: "baseline" })).toMatchObject({ tags: [] });
    expect(await app.api.annotateRun({ runId, notes: "2 cores" })).toMatchObject({
      notes: "2 cores",
    });
    await app.api.removeRun({ runId });
    expect((await app.api.listRuns()).map((run) => run.id)).not.toContain(runId);
    const gone = await failureOf(app.api.getRun({ runId }));
    expect(gone.message).toContain(runId);
  });
});

describe("runs", () => {
  it("stop ends the run within about a second, keeping what it measured", async () => {
    const started = app.nextEvent(isStarted);
    const underWay = app.nextEvent(
      (event): event is Extract<RunEvent, { type: "progress" }> =>
        event.type === "progress" && event.progress.done >= 200,
    );
    const finished = app.nextEvent(isFinished);
    const { runId } = await app.api.startRun({
      experiment: experiment({ samples: 1_000_000 }, { name: "Endless" }),
    });
    expect((await started).runId).toBe(runId);
    await underWay;
    expect(await app.api.activeRun()).toMatchObject({
      runId,
      name: "Endless",
      requestCount: 3_000_000,
      series: { index: 0, count: 1, mode: "normal" },
      lastProgress: { runId, op: "PUT" },
    });
    // How soon a stop takes effect is a figure of `pnpm bench scale`, not a test's bound.
    await app.api.stopRun({ runId });
    expect(await finished).toMatchObject({ runId, status: "stopped" });
    expect(await app.api.activeRun()).toBeNull();
    const detail = await app.api.getRun({ runId });
    expect(detail.meta.status).toBe("stopped");
    expect(detail.summary).toMatchObject({ status: "stopped", pointCount: 1 });
    expect(detail.summary.points[0]?.finished).toBe(false);
    expect(detail.summary.points[0]?.phases[0]?.requests).toBeGreaterThanOrEqual(200);
  });

  it("stop ends the whole series, not only its current run", async () => {
    const finished = app.nextEvent(isFinished);
    const { runId } = await app.api.startRun({
      experiment: experiment(
        { samples: 1_000_000 },
        { name: "Long series", modes: ["normal", "hedged", "tied"] },
      ),
    });
    await app.api.stopRun({ runId });
    expect(await finished).toMatchObject({
      runId,
      status: "stopped",
      series: { index: 0, count: 3 },
      seriesRunIds: [runId],
    });
    expect(await app.api.activeRun()).toBeNull();
    expect(app.events.filter((event) => event.type === "started").at(-1)).toMatchObject({
      runId,
    });
  });

  it("refuses a second run while one is running", async () => {
    const finished = app.nextEvent(isFinished);
    const { runId } = await app.api.startRun({
      experiment: experiment({ samples: 1_000_000 }, { name: "First" }),
    });
    const second = await failureOf(app.api.startRun({ experiment: experiment({ samples: 10 }) }));
    expect(second.message).toBe(
      `"First" (run ${runId}) is running; stop it or wait for it to finish before starting another`,
    );
    await app.api.stopRun({ runId });
    await finished;
  });

  it("runs one stored run per mode, tagged as one series", async () => {
    const { runId, events } = await runToEnd(
      experiment(
        { samples: 200, hedge: { minSamples: 5 } },
        { name: "Modes", modes: ["normal", "hedged", "tied"] },
      ),
    );
    const started = events.filter(isStarted);
    const finished = events.filter(isFinished);
    expect(started.map((event) => [event.name, event.series])).toEqual([
      ["Modes (normal)", { index: 0, count: 3, mode: "normal" }],
      ["Modes (hedged)", { index: 1, count: 3, mode: "hedged" }],
      ["Modes (tied)", { index: 2, count: 3, mode: "tied" }],
    ]);
    const ids = started.map((event) => event.runId);
    expect(ids[0]).toBe(runId);
    expect(finished.map((event) => event.seriesRunIds)).toEqual([
      ids.slice(0, 1),
      ids.slice(0, 2),
      ids,
    ]);
    expect(finished.every((event) => event.status === "complete")).toBe(true);
    const library = await app.api.listRuns();
    const runs = ids.map((id) => library.find((entry) => entry.id === id));
    expect(runs.map((run) => run?.mode)).toEqual(["normal", "hedged", "tied"]);
    const [tag] = runs[0]?.tags ?? [];
    expect(tag).toMatch(/^series:[0-9a-f]+$/);
    expect(runs.every((run) => run?.tags.includes(tag ?? ""))).toBe(true);

    const comparison = await app.api.exportReport({ runIds: ids, format: "html" });
    expect(comparison.fileName).toBe("taillab-comparison-3-runs.html");
  });

  it("finds a run's endpoint and experiment from its spec, until the experiment changes", async () => {
    const saved = await app.api.saveExperiment({
      draft: experiment({ samples: 100 }, { name: "Origin", modes: ["normal", "tied"] }),
    });
    const { events } = await runToEnd(draftOf(saved));
    const runIds = events.filter(isStarted).map((event) => event.runId);
    for (const runId of runIds) {
      expect(await app.api.runOrigin({ runId })).toEqual({
        endpointId: fast.id,
        experimentId: saved.id,
      });
    }
    await app.api.saveExperiment({
      experimentId: saved.id,
      draft: { ...draftOf(saved), spec: { ...saved.spec, samples: 200 } },
    });
    expect(await app.api.runOrigin({ runId: runIds[0]! })).toEqual({
      endpointId: fast.id,
      experimentId: null,
    });
  });

  it("names bad input by its path in startRun's input", async () => {
    const spec = await failureOf(
      app.api.startRun({ experiment: experiment({ clients: 0, samples: 10, objectSize: "huge" }) }),
    );
    expect(spec.fields.map((field) => field.field)).toEqual([
      "experiment.spec.clients",
      "experiment.spec.objectSize",
    ]);
    const endpoint = await failureOf(
      app.api.startRun({ experiment: { ...experiment({ samples: 10 }), endpointId: "nope" } }),
    );
    expect(endpoint.fields.map((field) => field.field)).toEqual(["experiment.endpointId"]);
  });

  it("refuses to start on an endpoint whose keys are not there, or that does not answer", async () => {
    const envKeys = await app.api.addEndpoint({
      name: "Env keys",
      kind: "custom",
      url: "http://127.0.0.1:9",
      credentials: {
        kind: "env",
        accessKeyIdVar: "NO_ACCESS_KEY_ID",
        secretAccessKeyVar: "NO_SECRET_ACCESS_KEY",
      },
    });
    const unset = await failureOf(
      app.api.startRun({ experiment: { ...experiment({ samples: 10 }), endpointId: envKeys.id } }),
    );
    expect(unset.fields).toMatchObject([
      {
        field: "experiment.endpointId",
        code: "endpointSays",
        message: expect.stringMatching(
          /^endpoint "Env keys": environment variables NO_ACCESS_KEY_ID and NO_SECRET_ACCESS_KEY are not set/,
        ),
      },
    ]);

    const port = await freePort();
    const closed = await app.api.addEndpoint({
      name: "Nobody home",
      kind: "custom",
      url: `http://127.0.0.1:${port}`,
      credentials: { kind: "anonymous" },
    });
    const unreachable = await failureOf(
      app.api.startRun({ experiment: { ...experiment({ samples: 10 }), endpointId: closed.id } }),
    );
    expect(unreachable.message).toMatch(/cannot connect \(ECONNREFUSED\)/);
    expect(await app.api.activeRun()).toBeNull();
  });
});

describe("replicas of a real server", () => {
  it("a run on an endpoint and its replica endpoints sends to every one, each with its own keys", async () => {
    const credentials = { accessKeyId: "TESTKEY", secretAccessKey: "test-secret" };
    const testbed = await startTestbed({ credentials, buckets: ["loadgen"], replicas: 2 });
    try {
      const [first, second] = await Promise.all(
        testbed.urls.map((url, index) =>
          app.api.addEndpoint({
            name: `Replica ${index}`,
            kind: "custom",
            url,
            credentials: { kind: "stored", accessKeyId: credentials.accessKeyId },
            secretAccessKey: credentials.secretAccessKey,
          }),
        ),
      );
      const { runId } = await runToEnd(
        experiment(
          { samples: 40, mode: "hedged", hedge: { delay: "0ms", budgetPercent: 100 } },
          { endpointId: first!.id, replicaEndpointIds: [second!.id] },
        ),
      );
      const { meta } = await app.api.getRun({ runId });
      expect(meta.spec.endpoints?.map((endpoint) => endpoint.url)).toEqual(testbed.urls);
      for (const replica of testbed.replicas) expect(replica.stats().received).toBeGreaterThan(0);
    } finally {
      await testbed.close();
    }
  });
});

describe("what a run leaves on a real server", () => {
  it("a run that kept its objects: cleanupRun removes them with the endpoint's stored keys and keeps the outcome with the run", async () => {
    const signed = await startSignedTestbed();
    try {
      const lab = await app.api.addEndpoint({
        name: "Signed lab server",
        kind: "custom",
        url: signed.testbed.url,
        credentials: { kind: "stored", accessKeyId: signed.credentials.accessKeyId },
        secretAccessKey: signed.credentials.secretAccessKey,
      });
      const { runId } = await runToEnd(
        experiment({ samples: 20, phases: ["write"] }, { endpointId: lab.id }),
      );
      const prefix = `taillab/${runId}/`;
      expect(await signed.bucket.listKeys(prefix)).toHaveLength(20);
      expect((await app.api.getRun({ runId })).meta.cleanup).toBeNull();

      const cleanup = await app.api.cleanupRun({ runId });
      expect(cleanup).toMatchObject({
        removed: { objects: 20, uploads: 0, buckets: 0 },
        objectsLeft: 0,
        errorsByCode: {},
      });
      expect(await signed.bucket.listKeys(prefix)).toEqual([]);
      expect((await app.api.getRun({ runId })).meta.cleanup).toEqual(cleanup);
    } finally {
      await signed.close();
    }
  });

  it("cleanupRun against a server that ignores the listing's prefix deletes the run's keys and no other", async () => {
    const testbed = await startTestbed({ buckets: ["loadgen"] });
    const hostile = await startHostileListingServer(testbed.url, ["ignore-prefix"]);
    const bucket = createControlPlane(bucketTarget(testbed.url));
    try {
      const lab = await app.api.addEndpoint({
        name: "Lab server that ignores prefixes",
        kind: "custom",
        url: hostile.url,
        credentials: { kind: "anonymous" },
      });
      const { runId } = await runToEnd(
        experiment({ samples: 20, phases: ["write"] }, { endpointId: lab.id }),
      );
      const foreign = [
        "precious/data1",
        "otherteam/backup.tar",
        `taillab/${runId}`,
        `taillab/${runId}x/0`,
      ];
      const transport = createTransport("fast", bucketTarget(testbed.url), () => 0);
      for (const key of foreign) {
        expect((await transport.putObject(key, Buffer.from("not the run's"))).error).toBeNull();
      }
      await transport.close();

      const cleanup = await app.api.cleanupRun({ runId });
      expect(cleanup).toMatchObject({ removed: { objects: 20 }, objectsLeft: 0, unchecked: [] });
      expect((await bucket.listKeys("")).sort()).toEqual([...foreign].sort());
    } finally {
      await bucket.close();
      await hostile.close();
      await testbed.close();
    }
  });

  it("a cleanup that fails after the run was reported finished is said on the run", async () => {
    const held = heldCleanup();
    const credentials = { accessKeyId: "TESTKEY", secretAccessKey: "test-secret" };
    const testbed = await startTestbed({
      credentials,
      buckets: ["loadgen"],
      interceptor: held.interceptor,
    });
    try {
      const lab = await app.api.addEndpoint({
        name: "Lab server whose DELETEs fail",
        kind: "custom",
        url: testbed.url,
        credentials: { kind: "stored", accessKeyId: credentials.accessKeyId },
        secretAccessKey: credentials.secretAccessKey,
      });
      const finished = app.nextEvent(isFinished);
      const { runId } = await app.api.startRun({
        experiment: experiment({ samples: 10 }, { endpointId: lab.id }),
      });
      expect(await finished).toMatchObject({ runId, status: "complete" });
      // The cleanup's outcome cannot be kept: the run's folder is gone from under it.
      await rm(join(app.resultsDir, runId), { recursive: true });
      held.release();
      // A start waits for the cleanup before it: then every notice of the first run is out.
      const next = await runToEnd(experiment({ samples: 2 }));
      expect(next.runId).not.toBe(runId);
      const notices = app.events.filter(
        (event) => event.type === "notice" && event.runId === runId,
      );
      expect(notices.map((event) => event.type === "notice" && event.message)).toContainEqual(
        expect.stringMatching(/^the cleanup after the run failed: runId: no run with id/),
      );
    } finally {
      held.release();
      await testbed.close();
    }
  });

  it("an experiment of two points and two modes whose server stops answering: its run ends after one probe with its later point not run, and the series starts no other mode and says so", async () => {
    const credentials = { accessKeyId: "SILENTKEY", secretAccessKey: "silent-secret" };
    const testbed = await startTestbed({ credentials, buckets: ["loadgen"] });
    const proxy = await startDrippingProxy({ host: "127.0.0.1", port: testbed.port });
    const bucket = createControlPlane({ ...bucketTarget(testbed.url), credentials });
    try {
      const lab = await app.api.addEndpoint({
        name: "Lab server that stops answering",
        kind: "custom",
        url: proxy.url,
        credentials: { kind: "stored", accessKeyId: credentials.accessKeyId },
        secretAccessKey: credentials.secretAccessKey,
      });
      const finished = app.nextEvent(isFinished);
      // The series' end: said on the run, or its next mode tried against the silent server.
      const seriesEnd = app.nextEvent(
        (event): event is RunEvent =>
          (event.type === "notice" &&
            ["modesNotRun", "modeCouldNotStart"].includes(event.notice?.code ?? "")) ||
          (isStarted(event) && event.series?.index === 1),
      );
      const { runId } = await app.api.startRun({
        experiment: experiment(
          { clients: [4, 2], samples: 1_000_000, requestTimeoutMs: 3_000 },
          { endpointId: lab.id, name: "Silent series", modes: ["normal", "hedged"] },
        ),
      });
      while ((await bucket.listKeys("taillab/")).length < 50) await sleep(100);
      proxy.hang();

      expect(await finished).toMatchObject({
        runId,
        status: "serverLost",
        series: { index: 0, count: 2 },
      });
      expect(await seriesEnd).toMatchObject({
        type: "notice",
        runId,
        message: "the server did not answer again: the series ends here; not run: the hedged run",
        notice: { code: "modesNotRun", params: { modes: ["hedged"] } },
      });
      const gone = app.events.find(
        (event) =>
          event.type === "notice" && event.runId === runId && event.notice?.code === "serverGone",
      );
      expect(gone).toMatchObject({ notice: { params: { phases: ["GET", "DELETE"], points: 1 } } });
      const { summary } = await app.api.getRun({ runId });
      expect(summary.status).toBe("serverLost");
      expect(summary.points).toHaveLength(1);
      expect(summary.serverGone?.notRun).toEqual([
        { pointIndex: 0, phase: "GET" },
        { pointIndex: 0, phase: "DELETE" },
        { pointIndex: 1, phase: "PUT" },
        { pointIndex: 1, phase: "GET" },
        { pointIndex: 1, phase: "DELETE" },
      ]);
      expect(await app.api.activeRun()).toBeNull();
      proxy.pass();
      expect(await app.api.cleanupRun({ runId })).toMatchObject({ objectsLeft: 0 });
    } finally {
      await bucket.close();
      await proxy.close();
      await testbed.close();
    }
  });

  it("a run of the testbed endpoint has nothing to clean up: a field error", async () => {
    const { runId } = await runToEnd(experiment({ samples: 4 }));
    const refused = await failureOf(app.api.cleanupRun({ runId }));
    expect(refused.fields).toEqual([
      {
        field: "runId",
        message: `run ${runId} ran on the embedded testbed, which kept nothing once it stopped: there is nothing to clean up`,
      },
    ]);
  });
});
