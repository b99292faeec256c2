import { UNTIL_STOPPED_SAMPLES, type Experiment, type ExperimentDraftInput } from "@taillab/api";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILT_IN_EXPERIMENTS, LIVE_TAIL_EXPERIMENT_ID } from "./built-in-experiments.ts";
import { draftOf, failureOf, startAppClient, type AppClient } from "./test-support/app-client.ts";

let app: AppClient;
beforeEach(async () => {
  app = await startAppClient();
});
afterEach(async () => {
  await app.close();
});

const sweep = (spec: Record<string, unknown> = {}): ExperimentDraftInput => ({
  name: "2 × 2 sweep",
  endpointId: "testbed",
  spec: { clients: [1, 4], samples: 100, objectSize: ["1KiB", "64KiB"], ...spec },
});

describe("experiments", () => {
  it("lists the built-ins first, all on the testbed, and keeps them fixed", async () => {
    const builtIns = await app.api.listExperiments();
    // The tail-latency lab first: its Run button is the list's first, a few Tabs away.
    expect(builtIns.map((experiment) => experiment.name)).toEqual([
      "Tail latency: normal vs hedged vs tied",
      "Object size sweep at fixed total",
      "Concurrency sweep",
      "Parameter grid",
      "Tied requests: client vs server cancellation",
      "Live tail lab",
    ]);
    expect(builtIns.every((experiment) => experiment.builtIn)).toBe(true);
    expect(builtIns.every((experiment) => experiment.endpointId === "testbed")).toBe(true);

    const [first] = builtIns;
    const change = await failureOf(
      app.api.saveExperiment({ experimentId: first?.id, draft: sweep() }),
    );
    expect(change.fields).toMatchObject([
      {
        field: "experimentId",
        code: "builtInIsFixed",
        message: expect.stringMatching(/built-in experiments cannot be changed/),
      },
    ]);
    const removal = await failureOf(app.api.removeExperiment({ experimentId: first?.id ?? "" }));
    expect(removal.message).toMatch(/cannot be changed/);
  });

  it("saves, updates and removes experiments after the built-ins, mistakes and all", async () => {
    const saved = await app.api.saveExperiment({ draft: sweep({ clients: 0 }) });
    expect(saved).toMatchObject({ builtIn: false, name: "2 × 2 sweep", description: "" });
    const updated = await app.api.saveExperiment({
      experimentId: saved.id,
      draft: { ...sweep(), name: "Fixed", modes: ["normal", "hedged"] },
    });
    expect(updated).toMatchObject({ id: saved.id, name: "Fixed", modes: ["normal", "hedged"] });
    const listed = await app.api.listExperiments();
    expect(listed.at(-1)).toEqual(updated);
    expect(listed).toHaveLength(BUILT_IN_EXPERIMENTS.length + 1);
    const file = JSON.parse(await readFile(join(app.dataDir, "experiments.json"), "utf8"));
    expect(file).toMatchObject({
      schemaVersion: 1,
      experiments: [{ id: saved.id, name: "Fixed" }],
    });

    await app.api.removeExperiment({ experimentId: saved.id });
    expect(await app.api.listExperiments()).toHaveLength(BUILT_IN_EXPERIMENTS.length);
    const gone = await failureOf(app.api.removeExperiment({ experimentId: saved.id }));
    expect(gone.fields[0]?.message).toMatch(/no saved experiment/);
  });
});

describe("previewExperiment", () => {
  it("counts the points and requests of a 2 × 2 sweep, over every mode", async () => {
    const preview = await app.api.previewExperiment(sweep());
    expect(preview).toEqual({
      ok: true,
      points: [
        { clients: 1, samples: 100, objectSizeBytes: 1024 },
        { clients: 1, samples: 100, objectSizeBytes: 65536 },
        { clients: 4, samples: 100, objectSizeBytes: 1024 },
        { clients: 4, samples: 100, objectSizeBytes: 65536 },
      ],
      // 4 points × 3 phases × 100 samples
      requestCount: 1200,
      durationMs: null,
    });
    const series = await app.api.previewExperiment({
      ...sweep({ repeat: 2, phases: ["write", "read"] }),
      modes: ["normal", "hedged", "tied"],
    });
    expect(series).toMatchObject({ ok: true, requestCount: 4 * 2 * 100 * 2 * 3 });
  });

  it("estimates an open loop's duration from its rate", async () => {
    const preview = await app.api.previewExperiment({
      name: "open",
      endpointId: "testbed",
      spec: { clients: 8, objectSize: "4KiB", openLoop: { rateHz: "200/s", durationMs: "2s" } },
    });
    // write and read are scheduled (400 requests each at 200/s); cleanup follows the server.
    expect(preview).toMatchObject({ ok: true, requestCount: 1200, durationMs: 4000 });
  });

  it("names every bad field by its path in the draft", async () => {
    const preview = await app.api.previewExperiment({
      ...sweep({ clients: [1, 0], objectSize: "big", endpoints: [{ url: "http://x" }] }),
      endpointId: "ep-missing",
    });
    expect(preview.ok).toBe(false);
    if (preview.ok) return;
    expect(preview.errors.map((error) => error.field)).toEqual([
      "endpointId",
      "spec.endpoints",
      "spec.clients[1]",
      "spec.objectSize",
    ]);
    const missingSamples = await app.api.previewExperiment(sweep({ samples: undefined }));
    expect(missingSamples).toEqual({
      ok: false,
      errors: [{ field: "spec.samples", message: "is required", code: "required", params: {} }],
    });
  });

  it("names each replica endpoint that cannot serve the run at its place in the list", async () => {
    const add = (name: string, bucket: string) =>
      app.api.addEndpoint({
        name,
        kind: "custom",
        url: "http://127.0.0.1:9",
        bucket,
        credentials: { kind: "anonymous" },
      });
    const lab = await add("lab", "loadgen");
    const other = await add("other", "elsewhere");
    const preview = await app.api.previewExperiment({
      ...sweep(),
      endpointId: lab.id,
      replicaEndpointIds: ["gone", "testbed", lab.id, other.id],
    });
    expect(preview.ok ? [] : preview.errors).toEqual([
      expect.objectContaining({
        field: "replicaEndpointIds[0]",
        message: 'no saved endpoint with id "gone"',
      }),
      expect.objectContaining({
        field: "replicaEndpointIds[1]",
        code: "replicaIsTestbed",
        message: expect.stringMatching(/expected an endpoint with a URL/),
      }),
      expect.objectContaining({
        field: "replicaEndpointIds[2]",
        message: 'endpoint "lab" is already one of the run\'s servers: expected each endpoint once',
      }),
      expect.objectContaining({
        field: "replicaEndpointIds[3]",
        message: expect.stringMatching(/serves bucket "elsewhere": expected "loadgen"/),
      }),
    ]);
    const onTestbed = await app.api.previewExperiment({ ...sweep(), replicaEndpointIds: [lab.id] });
    expect(onTestbed.ok ? [] : onTestbed.errors).toEqual([
      expect.objectContaining({ field: "replicaEndpointIds", code: "replicasOfTestbed" }),
    ]);
  });

  it("previews every built-in within a minute's worth of requests", async () => {
    for (const experiment of await app.api.listExperiments()) {
      const preview = await app.api.previewExperiment(draftOf(experiment));
      expect(preview.ok, experiment.name).toBe(true);
      if (preview.ok) expect(preview.requestCount).toBeLessThanOrEqual(40_000);
    }
  });

  it("previews the live tail lab as going on until stopped: no count, no duration", async () => {
    const lab = BUILT_IN_EXPERIMENTS.find(
      (experiment) => experiment.id === LIVE_TAIL_EXPERIMENT_ID,
    );
    expect(await app.api.previewExperiment(draftOf(lab as Experiment))).toEqual({
      ok: true,
      points: [{ clients: 16, samples: UNTIL_STOPPED_SAMPLES, objectSizeBytes: 4096 }],
      requestCount: 0,
      durationMs: null,
    });
  });
});
