import { AppError, type RunIndexEntry } from "@taillab/api";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { installFakeTailLab } from "../../shared/test-support/fake-taillab.ts";
import { DEFAULT_SORT, NO_FILTER } from "./run-filter.ts";
import { useRunDetail } from "./run-detail-store.ts";
import { useRuns } from "./runs-store.ts";
import { indexEntry, runDetailFixture } from "./test-support/run-fixtures.ts";

const older = indexEntry({
  id: "20250301-a",
  name: "MinIO 1 KiB writes",
  tags: ["lab-2", "minio"],
  createdAt: "2025-03-01T09:00:00.000Z",
});
const newer = indexEntry({
  id: "20250302-b",
  name: "Hedged reads",
  tags: ["lab-3"],
  notes: "replica 2 stalls every 500 requests",
  createdAt: "2025-03-02T09:00:00.000Z",
  mode: "hedged",
});
const newest = indexEntry({
  id: "20250303-c",
  name: "Tied reads",
  tags: ["lab-3", "minio"],
  createdAt: "2025-03-03T09:00:00.000Z",
  status: "interrupted",
});

const withChange = (run: RunIndexEntry, change: Partial<RunIndexEntry>) => ({ ...run, ...change });

describe("runs store", () => {
  beforeEach(() => {
    useRuns.setState({ runs: [], error: null, filter: NO_FILTER, selected: [], removed: [] });
    localStorage.clear();
    useRunDetail.setState({ runId: null, detail: null, choice: null });
  });

  it("loads the library and drops ticks and a tag filter that no longer apply", async () => {
    installFakeTailLab({ listRuns: vi.fn(async () => [older, newer]) });
    useRuns.setState({
      selected: ["20250303-c", "20250301-a"],
      filter: { ...NO_FILTER, tag: "gone" },
    });
    await useRuns.getState().load();
    const state = useRuns.getState();
    expect(state.runs).toEqual([older, newer]);
    expect(state.selected).toEqual(["20250301-a"]);
    expect(state.filter.tag).toBeNull();
    expect(state.loading).toBe(false);
  });

  it("shows why the library could not be loaded", async () => {
    installFakeTailLab({
      listRuns: vi.fn(async () => {
        throw new AppError({ message: "results folder /data/runs is not readable (EACCES)" });
      }),
    });
    await useRuns.getState().load();
    expect(useRuns.getState().error).toBe("results folder /data/runs is not readable (EACCES)");
  });

  type EditMethod = "renameRun" | "tagRun" | "untagRun" | "annotateRun";
  it.each<[string, EditMethod, () => Promise<boolean>, object, Partial<RunIndexEntry>]>([
    [
      "rename",
      "renameRun",
      () => useRuns.getState().rename(newer.id, "Hedged reads, p95"),
      { runId: newer.id, name: "Hedged reads, p95" },
      { name: "Hedged reads, p95" },
    ],
    [
      "addTag",
      "tagRun",
      () => useRuns.getState().addTag(newer.id, "keep"),
      { runId: newer.id, tag: "keep" },
      { tags: ["lab-3", "keep"] },
    ],
    [
      "removeTag",
      "untagRun",
      () => useRuns.getState().removeTag(newer.id, "lab-3"),
      { runId: newer.id, tag: "lab-3" },
      { tags: [] },
    ],
    [
      "setNotes",
      "annotateRun",
      () => useRuns.getState().setNotes(newer.id, "p99 halved"),
      { runId: newer.id, notes: "p99 halved" },
      { notes: "p99 halved" },
    ],
  ])("%s calls %s and shows the answer", async (_name, method, act, input, change) => {
    const answer = withChange(newer, change);
    const api = installFakeTailLab({ [method]: vi.fn(async () => answer) });
    useRuns.setState({ runs: [older, newer] });
    expect(await act()).toBe(true);
    expect(api[method]).toHaveBeenCalledWith(input);
    expect(useRuns.getState().runs).toEqual([older, answer]);
  });

  it("shows a rename on the detail screen of the same run", async () => {
    const detail = runDetailFixture({ runId: newer.id, name: "Hedged reads" });
    useRunDetail.setState({ runId: newer.id, detail });
    installFakeTailLab({
      renameRun: vi.fn(async () => withChange(newer, { name: "Renamed", tags: ["x"] })),
    });
    await useRuns.getState().rename(newer.id, "Renamed");
    expect(useRunDetail.getState().detail?.meta).toMatchObject({ name: "Renamed", tags: ["x"] });
  });

  it("keeps the list and says why when an edit fails", async () => {
    installFakeTailLab({
      renameRun: vi.fn(async () => {
        throw new AppError({ message: "name: is required" });
      }),
    });
    useRuns.setState({ runs: [newer] });
    expect(await useRuns.getState().rename(newer.id, " ")).toBe(false);
    expect(useRuns.getState().runs).toEqual([newer]);
    expect(useRuns.getState().error).toBe("name: is required");
  });

  it("deletes a run from the list and the selection", async () => {
    const api = installFakeTailLab({ removeRun: vi.fn(async () => undefined) });
    useRuns.setState({ runs: [older, newer], selected: [newer.id, older.id] });
    expect(await useRuns.getState().remove(newer.id)).toBe(true);
    expect(api.removeRun).toHaveBeenCalledWith({ runId: newer.id });
    expect(useRuns.getState().runs).toEqual([older]);
    expect(useRuns.getState().selected).toEqual([older.id]);
  });

  it("deletes the ticked runs to the trash and brings them back on undo", async () => {
    const restoreRun = vi.fn(async ({ runId }: { runId: string }) =>
      runId === older.id ? older : newest,
    );
    installFakeTailLab({
      removeRun: vi.fn(async () => undefined),
      restoreRun,
      listRuns: vi.fn(async () => [older, newest, newer]),
    });
    useRuns.setState({ runs: [older, newest, newer], selected: [newest.id, older.id] });
    expect(await useRuns.getState().removeMany([newest.id, older.id])).toBe(true);
    expect(useRuns.getState()).toMatchObject({
      runs: [newer],
      selected: [],
      removed: [newest.id, older.id],
    });
    expect(await useRuns.getState().undoRemove()).toBe(true);
    expect(restoreRun.mock.calls).toEqual([[{ runId: newest.id }], [{ runId: older.id }]]);
    expect(useRuns.getState()).toMatchObject({ runs: [older, newest, newer], removed: [] });
  });

  it("stops a bulk delete at the first refusal, keeping the runs it did not reach", async () => {
    installFakeTailLab({
      removeRun: vi.fn(async ({ runId }: { runId: string }) => {
        if (runId === newer.id)
          throw new AppError({ message: 'run "20250302-b" is still being written' });
      }),
    });
    useRuns.setState({ runs: [older, newer, newest] });
    expect(await useRuns.getState().removeMany([older.id, newer.id, newest.id])).toBe(false);
    expect(useRuns.getState().runs).toEqual([newer, newest]);
    expect(useRuns.getState().removed).toEqual([older.id]);
    expect(useRuns.getState().error).toContain("still being written");
  });

  it("keeps the sort and compact rows across a reload (local storage)", async () => {
    useRuns.getState().setSort({ key: "p99", descending: false });
    useRuns.getState().setCompact(true);
    vi.resetModules();
    const { useRuns: reloaded } = await import("./runs-store.ts");
    expect(reloaded.getState()).toMatchObject({
      sort: { key: "p99", descending: false },
      compact: true,
    });
    localStorage.setItem("taillab.library", '{"sort":{"key":"colour"},"compact":"yes"}');
    vi.resetModules();
    const { useRuns: spoiled } = await import("./runs-store.ts");
    expect(spoiled.getState()).toMatchObject({ sort: DEFAULT_SORT, compact: false });
  });

  it("keeps the search and the filters across a reload, each bad one as no filter", async () => {
    useRuns.getState().setFilter({ query: "tied", status: "interrupted", kind: "sweep" });
    useRuns.getState().setFilter({ endpoint: "http://10.0.0.5:9000", tag: "minio" });
    vi.resetModules();
    const { useRuns: reloaded } = await import("./runs-store.ts");
    expect(reloaded.getState().filter).toEqual({
      query: "tied",
      tag: "minio",
      status: "interrupted",
      endpoint: "http://10.0.0.5:9000",
      kind: "sweep",
    });
    reloaded.getState().clearFilter();
    vi.resetModules();
    expect((await import("./runs-store.ts")).useRuns.getState().filter).toEqual(NO_FILTER);

    localStorage.setItem(
      "taillab.library",
      '{"filter":{"query":3,"tag":"lab-3","status":"lost","endpoint":null,"kind":"huge"}}',
    );
    vi.resetModules();
    const { useRuns: spoiled } = await import("./runs-store.ts");
    expect(spoiled.getState().filter).toEqual({ ...NO_FILTER, tag: "lab-3" });
  });

  it("ticks and unticks runs in the order they were ticked", () => {
    const { toggleSelected } = useRuns.getState();
    toggleSelected("b");
    toggleSelected("a");
    toggleSelected("c");
    toggleSelected("a");
    expect(useRuns.getState().selected).toEqual(["b", "c"]);
  });
});
