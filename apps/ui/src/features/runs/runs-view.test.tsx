import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useNavigation } from "../../app/navigation-store.ts";
import { installFakeTailLab } from "../../shared/test-support/fake-taillab.ts";
import { renderUi } from "../../shared/test-support/render.tsx";
import { NO_FILTER } from "./run-filter.ts";
import { useRuns } from "./runs-store.ts";
import { RunsView } from "./runs-view.tsx";
import { indexEntry } from "./test-support/run-fixtures.ts";

const complete = indexEntry({
  id: "run-a",
  name: "Normal reads",
  tags: ["lab-3"],
  createdAt: "2025-03-01T10:00:00.000Z",
});
const interrupted = indexEntry({
  id: "run-b",
  name: "Hedged reads",
  mode: "hedged",
  status: "interrupted",
  createdAt: "2025-03-02T10:00:00.000Z",
});
const failed = indexEntry({
  id: "run-c",
  name: "Tied reads",
  mode: "tied",
  status: "failed",
  createdAt: "2025-03-03T10:00:00.000Z",
  headline: [],
});

function rowOf(runId: string): HTMLElement {
  const row = screen.getAllByTestId("run-row").find((element) => element.dataset.runId === runId);
  if (!row) throw new Error(`no row for ${runId}`);
  return row;
}

describe("RunsView", () => {
  beforeEach(() => {
    useRuns.setState({ runs: [], filter: NO_FILTER, selected: [], removed: [], error: null });
  });

  it("lists runs newest first, with interrupted and failed runs marked", async () => {
    installFakeTailLab({ listRuns: vi.fn(async () => [complete, interrupted, failed]) });
    renderUi(<RunsView />);
    const rows = await screen.findAllByTestId("run-row");
    expect(rows.map((row) => [row.dataset.runId, row.dataset.status, row.dataset.name])).toEqual([
      ["run-c", "failed", "Tied reads"],
      ["run-b", "interrupted", "Hedged reads"],
      ["run-a", "complete", "Normal reads"],
    ]);
    const badge = within(rowOf("run-b")).getByTestId("run-status");
    expect(badge.textContent).toBe("⚠ interrupted");
    expect(badge.className).toContain("warning");
    expect(within(rowOf("run-c")).getByTestId("run-status").className).toContain("danger");
    expect(rowOf("run-b").className).toContain("flagged");
  });

  it("marks a damaged run, with what is wrong in the badge's title", async () => {
    const problems = [
      "summary.json is not valid JSON (x); the summary is rebuilt from the records",
    ];
    const damaged = indexEntry({
      id: "run-d",
      damage: { problems, skippedLogBytes: 0, lostRecords: null },
    });
    installFakeTailLab({ listRuns: vi.fn(async () => [complete, damaged]) });
    renderUi(<RunsView />);
    const badge = await waitFor(() => within(rowOf("run-d")).getByTestId("run-damaged"));
    expect(badge.textContent).toBe("✕ damaged");
    expect(badge.getAttribute("title")).toBe(problems[0]);
    expect(rowOf("run-d").className).toContain("flagged");
    expect(within(rowOf("run-a")).queryByTestId("run-damaged")).toBeNull();
  });

  it("marks a stopped sweep with a stopped badge and the points it ran", async () => {
    const points = [1, 2, 3, 4, 5, 6].map((clients) => ({
      clients,
      samples: 64,
      objectSizeBytes: 4096,
    }));
    const stopped = indexEntry({
      id: "run-s",
      status: "stopped",
      points,
      pointsFinished: 1,
      pointsRun: 2,
    });
    installFakeTailLab({ listRuns: vi.fn(async () => [complete, stopped]) });
    renderUi(<RunsView />);
    const ran = await waitFor(() => within(rowOf("run-s")).getByTestId("run-points-ran"));
    expect(ran.textContent).toBe("stopped in point 2 of 6: 1 finished");
    expect(within(rowOf("run-s")).getByTestId("run-status").textContent).toBe("⚠ stopped");
    expect(within(rowOf("run-a")).queryByTestId("run-points-ran")).toBeNull();
  });

  it("says a sweep stopped before its first request ran no point", async () => {
    const points = [1, 2].map((clients) => ({ clients, samples: 64, objectSizeBytes: 4096 }));
    const stopped = indexEntry({
      id: "run-s",
      status: "stopped",
      points,
      pointsFinished: 0,
      pointsRun: 0,
    });
    installFakeTailLab({ listRuns: vi.fn(async () => [stopped]) });
    renderUi(<RunsView />);
    const ran = await waitFor(() => within(rowOf("run-s")).getByTestId("run-points-ran"));
    expect(ran.textContent).toBe("stopped before its first request");
  });

  it("shows the headline figures of a single point, per phase, as numbers too", async () => {
    installFakeTailLab({ listRuns: vi.fn(async () => [complete]) });
    renderUi(<RunsView />);
    const row = await waitFor(() => rowOf("run-a"));
    const lines = row.querySelectorAll<HTMLElement>(".headline-line");
    // p50, p99, p99.9 and ops/s, each for PUT and GET.
    expect([...lines].map((line) => `${line.dataset.op}=${line.dataset.high}`)).toEqual([
      "PUT=5.5",
      "GET=3.5",
      "PUT=12.25",
      "GET=9.75",
      "PUT=40.125",
      "GET=30.5",
      "PUT=812.5",
      "GET=1204.25",
    ]);
    expect(row.textContent).toContain("40.125");
    expect(row.textContent).toContain("8 clients · 256 × 32 KiB");
    expect(within(row).getByTestId("run-tag").dataset.tag).toBe("lab-3");
  });

  it("searches names, tags, notes and ids", async () => {
    installFakeTailLab({ listRuns: vi.fn(async () => [complete, interrupted, failed]) });
    renderUi(<RunsView />);
    await screen.findAllByTestId("run-row");
    fireEvent.change(screen.getByTestId("runs-search"), { target: { value: "lab-3" } });
    expect(screen.getAllByTestId("run-row").map((row) => row.dataset.runId)).toEqual(["run-a"]);
    fireEvent.change(screen.getByTestId("runs-search"), { target: { value: "nothing like it" } });
    expect(screen.getByTestId("runs-no-match")).toBeTruthy();
  });

  it("renames a run in place", async () => {
    const api = installFakeTailLab({
      listRuns: vi.fn(async () => [complete]),
      renameRun: vi.fn(async () => ({ ...complete, name: "Baseline reads" })),
    });
    renderUi(<RunsView />);
    const row = await waitFor(() => rowOf("run-a"));
    fireEvent.click(within(row).getByTestId("run-rename"));
    fireEvent.change(within(row).getByTestId("run-rename-input"), {
      target: { value: "Baseline reads" },
    });
    fireEvent.click(within(row).getByTestId("run-rename-save"));
    await waitFor(() => expect(rowOf("run-a").dataset.name).toBe("Baseline reads"));
    expect(api.renameRun).toHaveBeenCalledWith({ runId: "run-a", name: "Baseline reads" });
  });

  it("adds and removes tags, and saves notes", async () => {
    const api = installFakeTailLab({
      listRuns: vi.fn(async () => [complete]),
      tagRun: vi.fn(async () => ({ ...complete, tags: ["lab-3", "slides"] })),
      untagRun: vi.fn(async () => ({ ...complete, tags: [] })),
      annotateRun: vi.fn(async () => ({ ...complete, notes: "for the lecture" })),
    });
    renderUi(<RunsView />);
    const row = await waitFor(() => rowOf("run-a"));
    fireEvent.click(within(row).getByTestId("run-tag-add"));
    fireEvent.change(within(row).getByTestId("run-tag-input"), { target: { value: "slides" } });
    fireEvent.click(within(row).getByTestId("run-tag-save"));
    await waitFor(() => expect(within(rowOf("run-a")).getAllByTestId("run-tag")).toHaveLength(2));
    expect(api.tagRun).toHaveBeenCalledWith({ runId: "run-a", tag: "slides" });

    fireEvent.click(within(rowOf("run-a")).getAllByTestId("run-tag-remove")[0] as HTMLElement);
    await waitFor(() => expect(within(rowOf("run-a")).queryAllByTestId("run-tag")).toHaveLength(0));
    expect(api.untagRun).toHaveBeenCalledWith({ runId: "run-a", tag: "lab-3" });

    fireEvent.click(within(rowOf("run-a")).getByTestId("run-notes"));
    fireEvent.change(screen.getByTestId("run-notes-input"), {
      target: { value: "for the lecture" },
    });
    fireEvent.click(screen.getByTestId("run-notes-save"));
    await waitFor(() => expect(rowOf("run-a").textContent).toContain("for the lecture"));
    expect(api.annotateRun).toHaveBeenCalledWith({ runId: "run-a", notes: "for the lecture" });
  });

  it("deletes a run only after confirming", async () => {
    const api = installFakeTailLab({
      listRuns: vi.fn(async () => [complete, interrupted]),
      removeRun: vi.fn(async () => undefined),
    });
    renderUi(<RunsView />);
    const row = await waitFor(() => rowOf("run-b"));
    fireEvent.click(within(row).getByTestId("run-delete"));
    expect(api.removeRun).not.toHaveBeenCalled();
    fireEvent.click(within(row).getByTestId("run-delete-confirm"));
    await waitFor(() => expect(screen.getAllByTestId("run-row")).toHaveLength(1));
    expect(api.removeRun).toHaveBeenCalledWith({ runId: "run-b" });
  });

  it("compares the ticked runs, in the order they were ticked", async () => {
    installFakeTailLab({ listRuns: vi.fn(async () => [complete, interrupted, failed]) });
    renderUi(<RunsView />);
    await screen.findAllByTestId("run-row");
    const compare = screen.getByTestId("compare-selected") as HTMLButtonElement;
    expect(compare.disabled).toBe(true);
    fireEvent.click(within(rowOf("run-a")).getByTestId("run-select"));
    fireEvent.click(within(rowOf("run-c")).getByTestId("run-select"));
    expect(compare.disabled).toBe(false);
    expect(screen.getByTestId("runs-selected-count").dataset.count).toBe("2");
    fireEvent.click(compare);
    expect(useNavigation.getState().route).toEqual({ view: "compare", runIds: ["run-a", "run-c"] });
  });

  it("shows a run that finishes while the library is open", async () => {
    const api = installFakeTailLab({ listRuns: vi.fn(async () => [complete]) });
    renderUi(<RunsView />);
    await screen.findAllByTestId("run-row");
    vi.mocked(api.listRuns).mockResolvedValue([complete, interrupted]);
    act(() =>
      api.emit({
        type: "finished",
        runId: "run-b",
        status: "stopped",
        error: null,
        series: { index: 0, count: 1, mode: "hedged" },
        seriesRunIds: ["run-b"],
      }),
    );
    await waitFor(() => expect(screen.getAllByTestId("run-row")).toHaveLength(2));
  });

  it("explains where runs come from when there are none", async () => {
    installFakeTailLab({ listRuns: vi.fn(async () => []) });
    renderUi(<RunsView />);
    expect(await screen.findByTestId("runs-empty")).toBeTruthy();
    expect(screen.queryByTestId("runs-table")).toBeNull();
  });
});
