import type { RunDetail } from "@taillab/api";
import { formatFixed, formatMs, formatSigned } from "@taillab/report";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useNavigation } from "../../app/navigation-store.ts";
import { installFakeTailLab } from "../../shared/test-support/fake-taillab.ts";
import { renderUi } from "../../shared/test-support/render.tsx";
import { useRuns } from "../runs/runs-store.ts";
import { indexEntryOf, runDetailFixture } from "../runs/test-support/run-fixtures.ts";
import { CompareView } from "./compare-view.tsx";
import { useCompare } from "./compare-store.ts";

const normal = runDetailFixture({ runId: "normal", name: "Normal", medianUs: 6000 });
const hedged = runDetailFixture({
  runId: "hedged",
  name: "Hedged",
  mode: "hedged",
  medianUs: 4000,
});
const tied = runDetailFixture({ runId: "tied", name: "Tied", mode: "tied", medianUs: 5000 });
const byId: Record<string, RunDetail> = { normal, hedged, tied };

function install() {
  return installFakeTailLab({
    listRuns: vi.fn(async () => [normal, hedged, tied].map(indexEntryOf)),
    getRun: vi.fn(async ({ runId }: { runId: string }) => byId[runId] as RunDetail),
  });
}

const getPhase = (detail: RunDetail) =>
  detail.summary.points[0]!.phases.find((phase) => phase.op === "GET")!;

describe("CompareView", () => {
  beforeEach(() => {
    useCompare.setState({ runIds: [], details: {}, errors: {}, baselineId: null, rowKey: null });
    useRuns.setState({ runs: [], selected: [] });
  });

  it("explains how to pick runs, and picks them from the library", async () => {
    install();
    renderUi(<CompareView runIds={[]} />);
    expect(screen.getByTestId("compare-empty").textContent).toContain("Pick at least two runs");
    const picks = await screen.findAllByTestId("compare-pick");
    expect(picks.map((pick) => pick.dataset.runId)).toEqual(["normal", "hedged", "tied"]);
    fireEvent.click(within(picks[1]!).getByTestId("compare-pick-box"));
    expect(useNavigation.getState().route).toEqual({ view: "compare", runIds: ["hedged"] });
  });

  it("compares N runs against the normal one, with ratios and the p99.9 of each", async () => {
    install();
    renderUi(<CompareView runIds={["hedged", "normal", "tied"]} />);
    const table = await screen.findByTestId("compare-table");
    expect(table.dataset).toMatchObject({ op: "GET", baselineId: "normal" });
    const rows = within(table).getAllByTestId("compare-row");
    expect(rows.map((row) => [row.dataset.runId, row.dataset.baseline])).toEqual([
      ["hedged", "false"],
      ["normal", "true"],
      ["tied", "false"],
    ]);
    rows.forEach((row) => {
      const detail = byId[row.dataset.runId as string] as RunDetail;
      expect(Number(row.dataset.p999Ms)).toBe(getPhase(detail).latencyMs!.p999);
      expect(Number(row.dataset.p99Ms)).toBe(getPhase(detail).latencyMs!.p99);
    });
    // Hedged reads are faster than the baseline's: a green ratio below 1.
    const p50Ratio = rows[0]!.querySelectorAll<HTMLElement>(".ratio")[0]!;
    expect(p50Ratio.dataset.verdict).toBe("better");
    expect(p50Ratio.textContent).toMatch(/^×0\.\d\d$/);
    expect(rows[1]!.querySelector(".ratio")).toBeNull();
    // Each percentile's change is judged from the runs' intervals; the baseline's is not.
    const judged = rows[0]!.querySelector<HTMLElement>("[data-significant]")!;
    expect(judged.textContent).toBe(judged.dataset.significant === "true" ? "significant" : "n.s.");
    expect(rows[1]!.querySelector("[data-significant]")).toBeNull();
    expect(screen.getByTestId("compare-ladder-chart").dataset.lines).toBe("3");
    // The same point in every run: nothing paired, no parameter to point out.
    expect(screen.queryByTestId("compare-paired-note")).toBeNull();
    expect(screen.queryAllByTestId("compare-point")).toHaveLength(0);
  });

  it("compares the modes when the runs differ by mode", async () => {
    install();
    renderUi(<CompareView runIds={["tied", "hedged", "normal"]} />);
    const card = await screen.findByTestId("mode-comparison");
    const rows = within(card).getAllByTestId("mode-row");
    expect(rows.map((row) => row.dataset.mode)).toEqual(["normal", "hedged", "tied"]);
    expect(Number(rows[0]!.dataset.extraPercent)).toBe(0);
    expect(Number(rows[1]!.dataset.extraPercent)).toBe(getPhase(hedged).hedge!.extraPct);
    expect(Number(rows[2]!.dataset.p999Ms)).toBe(getPhase(tied).latencyMs!.p999);
    expect(screen.getByTestId("mode-cost-chart")).toBeTruthy();
    // One line per mode against normal: its p99.9's change and its cost.
    const verdicts = within(card).getAllByTestId("mode-verdict");
    expect(verdicts.map((verdict) => verdict.dataset.mode)).toEqual(["hedged", "tied"]);
    const change = (run: RunDetail) =>
      (getPhase(run).latencyMs!.p999 / getPhase(normal).latencyMs!.p999 - 1) * 100;
    const signed = (percent: number) => formatSigned(formatFixed(percent, 0), percent);
    expect(verdicts[0]!.textContent).toContain(
      `hedged: p99.9 ${signed(change(hedged))} % for +${formatFixed(getPhase(hedged).hedge!.extraPct, 1)} % requests`,
    );
    // A mode that made the tail worse says so with its sign.
    expect(change(tied)).toBeGreaterThan(0);
    expect(verdicts[1]!.textContent).toContain(
      `tied (client cancel): p99.9 +${formatFixed(change(tied), 0)} %`,
    );
    // The tail chart draws the percentiles chosen, p50, p99 and p99.9 to begin with.
    const tail = screen.getByTestId("mode-tail-chart");
    expect(tail.dataset.percentiles).toBe("p50 p99 p999");
    fireEvent.click(screen.getByTestId("mode-tail-percentile-p99"));
    expect(tail.dataset.percentiles).toBe("p50 p999");
    fireEvent.click(screen.getByTestId("mode-tail-percentile-p99"));
    expect(tail.dataset.percentiles).toBe("p50 p99 p999");
  });

  it("changes the baseline and the compared phase", async () => {
    install();
    renderUi(<CompareView runIds={["normal", "hedged"]} />);
    await screen.findByTestId("compare-table");
    fireEvent.change(screen.getByTestId("compare-baseline"), { target: { value: "hedged" } });
    expect(screen.getByTestId("compare-table").dataset.baselineId).toBe("hedged");
    const put = [...(screen.getByTestId("compare-phase") as HTMLSelectElement).options].find(
      (option) => option.value.endsWith("PUT"),
    )!;
    fireEvent.change(screen.getByTestId("compare-phase"), { target: { value: put.value } });
    expect(screen.getByTestId("compare-table").dataset.op).toBe("PUT");
    expect(screen.getByTestId("compare-export-html")).toBeTruthy();
    expect(screen.getByTestId("compare-export-csv")).toBeTruthy();
  });

  it("leaves out the mode comparison when every run has the same mode", async () => {
    const again = runDetailFixture({ runId: "again", name: "Normal again", seed: 2 });
    installFakeTailLab({
      listRuns: vi.fn(async () => []),
      getRun: vi.fn(async ({ runId }: { runId: string }) => (runId === "again" ? again : normal)),
    });
    renderUi(<CompareView runIds={["normal", "again"]} />);
    await screen.findByTestId("compare-table");
    expect(screen.queryByTestId("mode-comparison")).toBeNull();
  });

  it("compares runs at different client counts point by point, saying they differ", async () => {
    const two = runDetailFixture({ runId: "two", name: "Two", spec: { clients: [2] } });
    const eight = runDetailFixture({ runId: "eight", name: "Eight", spec: { clients: [8] } });
    installFakeTailLab({
      listRuns: vi.fn(async () => []),
      getRun: vi.fn(async ({ runId }: { runId: string }) => (runId === "two" ? two : eight)),
    });
    renderUi(<CompareView runIds={["two", "eight"]} />);
    const table = await screen.findByTestId("compare-table");
    expect(screen.getByTestId("compare-paired-note").textContent).toContain("differ in clients");
    const rows = within(table).getAllByTestId("compare-row");
    expect(rows.map((row) => [row.dataset.present, row.dataset.differs])).toEqual([
      ["true", ""],
      ["true", "clients"],
    ]);
    expect(Number(rows[1]!.dataset.p999Ms)).toBe(getPhase(eight).latencyMs!.p999);
    expect(
      within(table)
        .getAllByTestId("compare-point")
        .map((cell) => cell.textContent),
    ).toEqual([" · 2 clients", " · 8 clients"]);
    expect(screen.getByTestId("compare-ladder-chart").dataset.lines).toBe("2");
  });

  it("draws sweep charts when runs are sweeps", async () => {
    const spec = { clients: [1, 4], samples: [32] };
    const sweepA = runDetailFixture({ runId: "sa", name: "A", spec });
    const sweepB = runDetailFixture({ runId: "sb", name: "B", spec, mode: "hedged" });
    installFakeTailLab({
      listRuns: vi.fn(async () => []),
      getRun: vi.fn(async ({ runId }: { runId: string }) => (runId === "sa" ? sweepA : sweepB)),
    });
    renderUi(<CompareView runIds={["sa", "sb"]} />);
    await waitFor(() =>
      expect(screen.getByTestId("compare-sweep").dataset.axes).toBe("concurrency"),
    );
    // An operation a chart, a line per run (one legend entry each), and a line per percentile
    // chosen, told apart by dash (and shade).
    const p99 = screen.getByTestId("compare-sweep-concurrency-p99-GET");
    expect(p99.dataset.lines).toBe("2");
    expect(p99.dataset.legend).toBe("2");
    expect(screen.queryByTestId("compare-sweep-concurrency-p99-GET-dashes")).toBeNull();
    for (const chip of ["p50", "p999"]) {
      fireEvent.click(screen.getByTestId(`compare-sweep-concurrency-p99-GET-percentile-${chip}`));
    }
    expect(p99.dataset.lines).toBe("6");
    expect(p99.dataset.legend).toBe("2");
    expect(screen.getByTestId("compare-sweep-concurrency-p99-GET-dashes").textContent).toBe(
      "p50: solid · p99: dashed · p99.9: dotted",
    );
    expect(screen.getByTestId("compare-sweep-concurrency-p99-PUT")).toBeTruthy();
  });

  it("lists every point and phase against the baseline, in the figure chosen", async () => {
    const spec = { clients: [1, 4], samples: [32] };
    const sweepA = runDetailFixture({ runId: "sa", name: "A", spec });
    const sweepB = runDetailFixture({ runId: "sb", name: "B", spec, seed: 9 });
    installFakeTailLab({
      listRuns: vi.fn(async () => []),
      getRun: vi.fn(async ({ runId }: { runId: string }) => (runId === "sa" ? sweepA : sweepB)),
    });
    renderUi(<CompareView runIds={["sa", "sb"]} />);
    const table = await screen.findByTestId("compare-all-points");
    // 2 points × PUT, GET, DELETE.
    expect(table.dataset.rows).toBe("6");
    const rows = within(table).getAllByTestId("compare-all-points-row");
    expect(rows[0]!.textContent).toMatch(/^1 client · 32 × /);
    const figure = (row: HTMLElement) => row.querySelectorAll("td.number")[1]!.textContent;
    const p999 = sweepB.summary.points[0]!.phases[0]!.latencyMs!.p999;
    expect(figure(rows[0]!)).toContain(formatMs(p999));
    fireEvent.change(screen.getByTestId("compare-all-points-metric"), {
      target: { value: "opsPerSec" },
    });
    const opsPerSec = sweepB.summary.points[0]!.phases[0]!.opsPerSec;
    expect(figure(within(table).getAllByTestId("compare-all-points-row")[0]!)).toContain(
      formatFixed(opsPerSec, 1),
    );
    fireEvent.click(rows[4]!);
    expect(screen.getByTestId("compare-table").dataset.point).toBe(rows[4]!.dataset.key);
  });
});
