import { beforeEach, describe, expect, it, vi } from "vitest";
import { keepDraft, loadKeptDraft } from "./builder-draft-storage.ts";
import { newExperimentForm } from "./experiment-form.ts";

beforeEach(() => localStorage.clear());

describe("the builder's kept draft", () => {
  it("comes back as it was kept", () => {
    const form = { ...newExperimentForm("tb"), name: "Half done", clients: "1, 4, 8" };
    const draft = {
      open: true,
      experimentId: null,
      builtIn: false,
      form,
      baseSpec: {},
      dirty: true,
    };
    keepDraft(draft);
    expect(loadKeptDraft()).toEqual(draft);
  });

  it("is none when nothing or nonsense was kept", () => {
    expect(loadKeptDraft()).toBeNull();
    localStorage.setItem("taillab.builderDraft", "{not json");
    expect(loadKeptDraft()).toBeNull();
  });

  it("keeps each readable field of a damaged copy and defaults the others", () => {
    localStorage.setItem(
      "taillab.builderDraft",
      JSON.stringify({
        open: true,
        form: { name: "Kept", clients: 8, phases: { write: true, read: "yes" }, modes: ["tied"] },
        baseSpec: [],
      }),
    );
    const kept = loadKeptDraft();
    const defaults = newExperimentForm();
    expect(kept?.form).toEqual({ ...defaults, name: "Kept", modes: ["tied"] });
    expect(kept).toMatchObject({ open: true, experimentId: null, baseSpec: {}, dirty: false });
  });

  it("survives a reload of the page: the store starts from it", async () => {
    const { useExperimentBuilder } = await import("./experiment-builder-store.ts");
    useExperimentBuilder.setState({ open: true, dirty: true });
    useExperimentBuilder.getState().setField("name", "Before the reload");
    vi.resetModules();
    const reloaded = await import("./experiment-builder-store.ts");
    expect(reloaded.useExperimentBuilder.getState()).toMatchObject({
      open: true,
      dirty: true,
      form: expect.objectContaining({ name: "Before the reload" }),
    });
  });
});
