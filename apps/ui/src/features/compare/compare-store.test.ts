import type { RunDetail } from "@taillab/api";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { installFakeTailLab } from "../../shared/test-support/fake-taillab.ts";
import { runDetailFixture } from "../runs/test-support/run-fixtures.ts";
import { useCompare } from "./compare-store.ts";

const runs: Record<string, RunDetail> = {
  tied: runDetailFixture({ runId: "tied", mode: "tied" }),
  normal: runDetailFixture({ runId: "normal" }),
  hedged: runDetailFixture({ runId: "hedged", mode: "hedged" }),
};

function install() {
  return installFakeTailLab({
    getRun: vi.fn(async ({ runId }: { runId: string }) => {
      const detail = runs[runId];
      if (!detail) throw new Error(`run "${runId}" does not exist`);
      return detail;
    }),
  });
}

describe("compare store", () => {
  beforeEach(() => {
    useCompare.setState({ runIds: [], details: {}, errors: {}, baselineId: null, rowKey: null });
  });

  it("loads N runs and takes the normal one as the baseline", async () => {
    const api = install();
    await useCompare.getState().load(["tied", "normal", "hedged"]);
    const state = useCompare.getState();
    expect(api.getRun).toHaveBeenCalledTimes(3);
    expect(Object.keys(state.details).sort()).toEqual(["hedged", "normal", "tied"]);
    expect(state.baselineId).toBe("normal");
    expect(state.loading).toBe(false);
  });

  it("keeps a chosen baseline while it is compared, and replaces it once it is not", async () => {
    install();
    await useCompare.getState().load(["tied", "hedged"]);
    expect(useCompare.getState().baselineId).toBe("tied");
    useCompare.getState().setBaseline("hedged");
    await useCompare.getState().load(["tied", "hedged", "normal"]);
    expect(useCompare.getState().baselineId).toBe("hedged");
    await useCompare.getState().load(["tied", "normal"]);
    expect(useCompare.getState().baselineId).toBe("normal");
  });

  it("says which runs could not be loaded", async () => {
    install();
    await useCompare.getState().load(["normal", "gone"]);
    const state = useCompare.getState();
    expect(Object.keys(state.details)).toEqual(["normal"]);
    expect(state.errors).toEqual({ gone: 'run "gone" does not exist' });
  });

  it("lets the latest request win when the runs change while loading", async () => {
    install();
    const first = useCompare.getState().load(["tied", "hedged"]);
    const second = useCompare.getState().load(["normal", "hedged"]);
    await Promise.all([first, second]);
    expect(Object.keys(useCompare.getState().details).sort()).toEqual(["hedged", "normal"]);
  });

  it("remembers the compared phase", () => {
    useCompare.getState().setRowKey("8-256-32768-PUT");
    expect(useCompare.getState().rowKey).toBe("8-256-32768-PUT");
  });
});
