import { AppError, type ExperimentPreview } from "@taillab/api";
import { describe, expect, it, vi } from "vitest";
import { useNavigation } from "../../app/navigation-store.ts";
import { installFakeTailLab } from "../../shared/test-support/fake-taillab.ts";
// Sets up the app's texts: an untitled draft takes the name the box's placeholder shows.
import "../../shared/test-support/render.tsx";
import { experiment } from "../../shared/test-support/sample-data.ts";
import { useLiveRun } from "../live-run/live-run-store.ts";
import { PREVIEW_DEBOUNCE_MS, useExperimentBuilder } from "./experiment-builder-store.ts";
import { useExperiments } from "./experiments-store.ts";
import { freshBuilderEachTest } from "./test-support/fresh-builder.ts";

freshBuilderEachTest();

const OK_PREVIEW: ExperimentPreview = {
  ok: true,
  points: [
    { clients: 1, samples: 256, objectSizeBytes: 4096 },
    { clients: 4, samples: 256, objectSizeBytes: 4096 },
  ],
  requestCount: 1536,
  durationMs: null,
};

const builder = () => useExperimentBuilder.getState();

describe("experiment builder store", () => {
  it("starts a new experiment on the testbed, if there is one", () => {
    installFakeTailLab();
    builder().newExperiment();
    expect(builder()).toMatchObject({ open: true, experimentId: null, dirty: false });
    expect(builder().form.endpointId).toBe("tb");
  });

  it("previews once typing pauses, and only the latest answer counts", async () => {
    const fake = installFakeTailLab({ previewExperiment: vi.fn(async () => OK_PREVIEW) });
    builder().newExperiment();
    builder().setField("clients", "1");
    builder().setField("clients", "1, 4");
    expect(fake.previewExperiment).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS);
    expect(fake.previewExperiment).toHaveBeenCalledTimes(1);
    const input = vi.mocked(fake.previewExperiment).mock.calls[0]?.[0];
    expect(input?.spec.clients).toEqual([1, 4]);
    // An untitled draft still previews, under the placeholder's name.
    expect(input?.name).toBe("Untitled experiment");
    expect(builder().preview).toMatchObject({ status: "ok", requestCount: 1536 });
    expect(builder().preview.points).toHaveLength(2);
  });

  it("shows a preview's errors at their fields and keeps the typed text", async () => {
    installFakeTailLab({
      previewExperiment: vi.fn(async () => ({
        ok: false as const,
        errors: [{ field: "spec.objectSize[1]", message: '"4XB" has an unknown unit "XB"' }],
      })),
    });
    builder().newExperiment();
    builder().setField("sizes", "4KiB, 4XB");
    await vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS);
    expect(builder().preview.status).toBe("invalid");
    expect(builder().fieldErrors.sizes).toBe('"4XB" has an unknown unit "XB"');
    expect(builder().form.sizes).toBe("4KiB, 4XB");
  });

  it("saves a new experiment, then updates the same one", async () => {
    const fake = installFakeTailLab({
      saveExperiment: vi.fn(async ({ draft }) =>
        experiment({ id: "x9", name: draft.name, spec: draft.spec }),
      ),
    });
    builder().newExperiment();
    builder().setField("name", "Mine");
    await builder().save();
    expect(fake.saveExperiment).toHaveBeenLastCalledWith({
      draft: expect.objectContaining({ name: "Mine" }),
    });
    expect(builder()).toMatchObject({ experimentId: "x9", dirty: false, saved: true });
    expect(useExperiments.getState().experiments.map((known) => known.id)).toEqual(["x9"]);
    builder().setField("clients", "2");
    await builder().save();
    expect(fake.saveExperiment).toHaveBeenLastCalledWith({
      experimentId: "x9",
      draft: expect.anything(),
    });
  });

  it("saves a built-in as a copy", async () => {
    const fake = installFakeTailLab({
      saveExperiment: vi.fn(async () => experiment({ id: "copy" })),
    });
    builder().edit(experiment({ id: "lab-1", builtIn: true, name: "Lab 1" }));
    await builder().save();
    expect(vi.mocked(fake.saveExperiment).mock.calls[0]?.[0]).not.toHaveProperty("experimentId");
    expect(builder()).toMatchObject({ experimentId: "copy", builtIn: false });
  });

  it("keeps the draft and marks the fields when saving fails", async () => {
    installFakeTailLab({
      saveExperiment: vi.fn(async () => {
        throw new AppError({
          message: "draft.name: is required",
          fields: [{ field: "draft.name", message: "is required" }],
        });
      }),
    });
    builder().newExperiment();
    builder().setField("clients", "16");
    await builder().save();
    expect(builder()).toMatchObject({ failedAtFields: true, error: null, dirty: true });
    expect(builder().fieldErrors.name).toBe("is required");
    expect(builder().form.clients).toBe("16");
  });

  it("runs: starts the run, shows it as starting and opens the live screen", async () => {
    const fake = installFakeTailLab({ startRun: vi.fn(async () => ({ runId: "r7" })) });
    builder().edit(experiment());
    await builder().run();
    expect(fake.startRun).toHaveBeenCalledWith({
      experiment: expect.objectContaining({ name: "S3Mock lab" }),
    });
    expect(useLiveRun.getState()).toMatchObject({
      status: "starting",
      runId: "r7",
      name: "S3Mock lab",
    });
    expect(useNavigation.getState().route).toEqual({ view: "live" });
  });

  it("stays on the builder with the errors when the run cannot start", async () => {
    useNavigation.setState({ route: { view: "experiments" } });
    installFakeTailLab({
      startRun: vi.fn(async () => {
        throw new AppError({
          message: "bad",
          fields: [{ field: "experiment.spec.clients[0]", message: "expected at least 1 client" }],
        });
      }),
    });
    builder().edit(experiment());
    builder().setField("clients", "0");
    await builder().run();
    expect(builder().fieldErrors.clients).toBe("“0”: expected at least 1 client");
    expect(useNavigation.getState().route).toEqual({ view: "experiments" });
  });

  it("runs an untitled draft as the placeholder names it", async () => {
    const fake = installFakeTailLab({ startRun: vi.fn(async () => ({ runId: "r8" })) });
    builder().newExperiment();
    builder().setField("name", "  ");
    await builder().run();
    expect(fake.startRun).toHaveBeenCalledWith({
      experiment: expect.objectContaining({ name: "Untitled experiment" }),
    });
  });

  it("keeps the preview's marks when a run fails at another field", async () => {
    installFakeTailLab({
      previewExperiment: vi.fn(async () => ({
        ok: false as const,
        errors: [{ field: "spec.objectSize", message: "bad size" }],
      })),
      startRun: vi.fn(async () => {
        throw new AppError({
          message: "bad",
          fields: [{ field: "experiment.spec.clients[0]", message: "expected at least 1 client" }],
        });
      }),
    });
    builder().newExperiment();
    builder().setField("sizes", "4XB");
    builder().setField("clients", "0");
    await vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS);
    expect(Object.keys(builder().fieldErrors)).toEqual(["sizes"]);
    await builder().run();
    expect(builder().fieldErrors).toMatchObject({
      clients: "“0”: expected at least 1 client",
      sizes: "bad size",
    });
    expect(builder().failedAtFields).toBe(true);
  });

  it("stops saying 'fix the marked fields' once none is marked", async () => {
    installFakeTailLab({
      startRun: vi.fn(async () => {
        throw new AppError({
          message: "bad",
          fields: [
            { field: "experiment.spec.clients[0]", message: "expected at least 1 client" },
            { field: "experiment.spec.samples", message: "is required" },
          ],
        });
      }),
    });
    builder().newExperiment();
    await builder().run();
    expect(builder().failedAtFields).toBe(true);
    builder().setField("clients", "4");
    expect(builder().failedAtFields).toBe(true);
    builder().setField("samples", "256");
    expect(builder()).toMatchObject({ failedAtFields: false, fieldErrors: {} });
  });

  it("deletes a saved experiment", async () => {
    const fake = installFakeTailLab();
    useExperiments.setState({ experiments: [experiment()] });
    builder().edit(experiment());
    await builder().remove();
    expect(fake.removeExperiment).toHaveBeenCalledWith({ experimentId: "x1" });
    expect(useExperiments.getState().experiments).toEqual([]);
    expect(builder().open).toBe(false);
  });
});
