import type { RunDetail } from "@taillab/api";
import { formatMs, formatPointS3bench } from "@taillab/report";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import i18next from "i18next";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useNavigation } from "../../app/navigation-store.ts";
import { installFakeTailLab } from "../../shared/test-support/fake-taillab.ts";
import { experiment } from "../../shared/test-support/sample-data.ts";
import { renderUi } from "../../shared/test-support/render.tsx";
import { ExperimentBuilder } from "../experiments/experiment-builder.tsx";
import { useExperimentBuilder } from "../experiments/experiment-builder-store.ts";
import { RunDetailView } from "./run-detail-view.tsx";
import { useRunDetail } from "./run-detail-store.ts";
import { runDetailFixture } from "./test-support/run-fixtures.ts";

function show(detail: RunDetail) {
  const api = installFakeTailLab({ getRun: vi.fn(async () => detail) });
  renderUi(<RunDetailView runId={detail.meta.id} />);
  return api;
}

async function resultRows(): Promise<HTMLElement[]> {
  await screen.findByTestId("results-table");
  return screen.getAllByTestId("result-row");
}

describe("RunDetailView", () => {
  beforeEach(() => {
    useRunDetail.setState({
      runId: null,
      detail: null,
      choice: null,
      error: null,
      leftovers: { removing: false, result: null, error: null },
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("shows s3bench's figures of every phase, as text and as data", async () => {
    const detail = runDetailFixture();
    const api = show(detail);
    const rows = await resultRows();
    expect(api.getRun).toHaveBeenCalledWith({ runId: detail.meta.id });
    const phases = detail.summary.points[0]!.phases;
    expect(rows.map((row) => row.dataset.op)).toEqual(["PUT", "GET", "DELETE"]);
    rows.forEach((row, index) => {
      const phase = phases[index]!;
      expect(Number(row.dataset.p50Ms)).toBe(phase.latencyMs!.p50);
      expect(Number(row.dataset.p99Ms)).toBe(phase.latencyMs!.p99);
      expect(Number(row.dataset.p999Ms)).toBe(phase.latencyMs!.p999);
      expect(Number(row.dataset.opsPerSec)).toBe(phase.opsPerSec);
      expect(Number(row.dataset.errors)).toBe(phase.errors);
      expect(row.querySelector("[data-testid=result-p999-figure]")?.textContent).toBe(
        `${formatMs(phase.latencyMs!.p999)}*`,
      );
    });
    // Two one-second stalls in 256 requests: p99.9 is a stall.
    expect(rows[0]!.querySelector("[data-testid=result-p999-figure]")?.textContent).toMatch(
      /^1,0\d\d\.\d\*$/,
    );
    const view = screen.getByTestId("run-detail");
    expect(view.dataset).toMatchObject({
      runId: detail.meta.id,
      status: "complete",
      mode: "normal",
    });
    expect(screen.getByTestId("run-name").textContent).toBe("Lab 3 tail");
    expect(screen.queryByTestId("hedge-cost")).toBeNull();
    expect(screen.queryByTestId("interrupted-banner")).toBeNull();
  });

  it("shows missed starts only for an open loop, which has a schedule to miss", async () => {
    const closed = runDetailFixture();
    show(closed);
    await resultRows();
    expect(screen.queryByRole("columnheader", { name: /missed starts/i })).toBeNull();
  });

  it("opens on the first phase that is not the cleanup, with all its charts", async () => {
    const detail = runDetailFixture();
    show(detail);
    await resultRows();
    expect(screen.getByTestId("phase-charts").dataset.op).toBe("PUT");
    const timeline = screen.getByTestId("timeline-chart");
    expect(Number(timeline.dataset.requests)).toBe(256);
    expect(Number(timeline.dataset.p99Ms)).toBe(
      detail.summary.points[0]!.phases[0]!.latencyMs!.p99,
    );
    expect(timeline.dataset.logScale).toBe("true");
    expect(screen.getByTestId("timeline-chart-reset-zoom")).toBeTruthy();
    expect(Number(screen.getByTestId("histogram-chart").dataset.total)).toBe(256);
    const cdf = screen.getByTestId("cdf-chart");
    expect(["exponential", "lognormal"]).toContain(cdf.dataset.fitModel);
    expect(Number(cdf.dataset.ksDistance)).toBeGreaterThan(0);
    expect(screen.getByTestId("fit-verdict").textContent).toMatch(/KS distance 0\.\d{3}/);
    // The ladder draws the write and the read, not the cleanup.
    expect(screen.getByTestId("ladder-chart").dataset.lines).toBe("2");

    fireEvent.click(screen.getAllByTestId("result-row")[1]!);
    expect(screen.getByTestId("phase-charts").dataset.op).toBe("GET");
    const tab = screen.getAllByTestId("phase-tab").find((element) => element.dataset.op === "GET");
    expect(tab?.getAttribute("aria-selected")).toBe("true");
  });

  it("marks an interrupted run whose summary was rebuilt from its records", async () => {
    show(runDetailFixture({ status: "interrupted" }));
    expect((await screen.findByTestId("interrupted-banner")).textContent).toContain(
      "rebuilt from the records",
    );
    expect(screen.getByTestId("run-status").textContent).toBe("⚠ interrupted");
  });

  it("says what an interrupted run may have left on its server, and removes it with a button", async () => {
    const endpoints = [{ url: "http://10.0.0.5:9000" }];
    const interrupted = runDetailFixture({ status: "interrupted", spec: { endpoints } });
    const cleanup = {
      at: "2025-03-01T11:00:00.000Z",
      removed: { objects: 1_200, uploads: 1, buckets: 2 },
      objectsLeft: 0,
      uploadsLeft: 0,
      bucketsLeft: [],
      unchecked: [],
      errorsByCode: {},
    };
    const cleaned = { ...interrupted, meta: { ...interrupted.meta, cleanup } };
    const api = installFakeTailLab({
      getRun: vi.fn().mockResolvedValueOnce(interrupted).mockResolvedValue(cleaned),
      cleanupRun: vi.fn(async () => cleanup),
    });
    renderUi(<RunDetailView runId={interrupted.meta.id} />);
    const banner = await screen.findByTestId("leftovers-banner");
    expect(banner.dataset.kind).toBe("possible");
    expect(banner.textContent).toContain(
      `It ended before its cleanup: objects under ${interrupted.meta.keyPrefix} in bucket loadgen at http://10.0.0.5:9000`,
    );
    fireEvent.click(screen.getByTestId("remove-leftovers"));
    expect((await screen.findByTestId("leftovers-removed")).textContent).toBe(
      "Removed what this run left: objects (1,200), open uploads (1), buckets (2); nothing of it is left on the server.",
    );
    expect(api.cleanupRun).toHaveBeenCalledWith({ runId: interrupted.meta.id });
    expect(screen.queryByTestId("leftovers-banner")).toBeNull();
  });

  it("says what a run's cleanup could not remove, and why", async () => {
    const detail = runDetailFixture({ spec: { endpoints: [{ url: "http://10.0.0.5:9000" }] } });
    const cleanup = {
      at: "2025-03-01T11:00:00.000Z",
      removed: { objects: 0, uploads: 0, buckets: 0 },
      objectsLeft: 6_000,
      uploadsLeft: 0,
      bucketsLeft: [],
      unchecked: [],
      errorsByCode: { ECONNREFUSED: 6_000 },
    };
    show({ ...detail, meta: { ...detail.meta, cleanup } });
    const banner = await screen.findByTestId("leftovers-banner");
    expect(banner.dataset.kind).toBe("left");
    expect(banner.textContent).toContain(
      `Its cleanup could not remove what it left on the server (ECONNREFUSED): objects under ${detail.meta.keyPrefix} in bucket loadgen (6,000), open uploads (0), buckets (0).`,
    );
  });

  it("says the button's cleanup found the run's bucket gone, instead of what it removed", async () => {
    const endpoints = [{ url: "http://10.0.0.5:9000" }];
    const interrupted = runDetailFixture({ status: "interrupted", spec: { endpoints } });
    const cleanup = {
      at: "2025-03-01T11:00:00.000Z",
      removed: { objects: 0, uploads: 0, buckets: 0 },
      objectsLeft: 0,
      uploadsLeft: 0,
      bucketsLeft: [],
      unchecked: [],
      errorsByCode: {},
      bucketGone: true,
    };
    const cleaned = { ...interrupted, meta: { ...interrupted.meta, cleanup } };
    installFakeTailLab({
      getRun: vi.fn().mockResolvedValueOnce(interrupted).mockResolvedValue(cleaned),
      cleanupRun: vi.fn(async () => cleanup),
    });
    renderUi(<RunDetailView runId={interrupted.meta.id} />);
    await screen.findByTestId("leftovers-banner");
    fireEvent.click(screen.getByTestId("remove-leftovers"));
    const gone = "Bucket loadgen no longer exists, so nothing of this run is left in it.";
    expect((await screen.findByTestId("leftovers-bucket-gone")).textContent).toBe(gone);
    expect(screen.queryByTestId("leftovers-removed")).toBeNull();
    expect(screen.queryByTestId("leftovers-banner")).toBeNull();
  });

  it("says so of a stored cleanup that found the run's bucket gone", async () => {
    const detail = runDetailFixture({ spec: { endpoints: [{ url: "http://10.0.0.5:9000" }] } });
    const cleanup = {
      at: "2025-03-01T11:00:00.000Z",
      removed: { objects: 0, uploads: 0, buckets: 0 },
      objectsLeft: 0,
      uploadsLeft: 0,
      bucketsLeft: [],
      unchecked: [],
      errorsByCode: {},
      bucketGone: true,
    };
    show({ ...detail, meta: { ...detail.meta, cleanup } });
    expect((await screen.findByTestId("leftovers-bucket-gone")).textContent).toBe(
      "Bucket loadgen no longer exists, so nothing of this run is left in it.",
    );
  });

  it("offers no cleanup for a run of the embedded testbed, which keeps nothing", async () => {
    show(runDetailFixture({ status: "interrupted" }));
    await screen.findByTestId("interrupted-banner");
    expect(screen.queryByTestId("leftovers-banner")).toBeNull();
  });

  it("says a damaged run's figures cover what could be read, with each problem", async () => {
    const problems = [
      "records.log: the 812 bytes after record 300 could not be read (cut short or damaged); the records in them are lost",
    ];
    show({
      ...runDetailFixture({}),
      damage: { problems, skippedLogBytes: 812, lostRecords: null },
    });
    const banner = await screen.findByTestId("damaged-banner");
    expect(banner.textContent).toContain("The figures cover what could be read:");
    expect(banner.querySelectorAll("li")[0]?.textContent).toBe(problems[0]);
  });

  it("shows what hedged requests cost", async () => {
    const detail = runDetailFixture({ mode: "hedged" });
    show(detail);
    const rows = await resultRows();
    const hedge = detail.summary.points[0]!.phases[0]!.hedge!;
    const card = screen.getByTestId("hedge-cost");
    expect(card.dataset).toMatchObject({
      op: "PUT",
      extraPercent: String(hedge.extraPct),
      wastedBytes: String(hedge.wastedBytes),
      cancelled: String(hedge.cancelled),
      budgetPercent: "10",
    });
    expect(Number(rows[0]!.dataset.extraPercent)).toBe(hedge.extraPct);
    expect(within(screen.getByTestId("results-table")).getAllByText("Backups (%)")).toHaveLength(1);
    // DELETE is never hedged: its card says so.
    fireEvent.click(rows[2]!);
    expect(screen.getByTestId("hedge-none").textContent).toContain("never sent twice");
  });

  it("picks points of a sweep and draws the sweep charts", async () => {
    const detail = runDetailFixture({
      spec: { clients: [1, 8], objectSize: ["4KiB", "64KiB"], samples: [64] },
    });
    show(detail);
    const rows = await resultRows();
    expect(rows).toHaveLength(4 * 3);
    const picker = screen.getByTestId("point-picker") as HTMLSelectElement;
    fireEvent.change(picker, { target: { value: "3" } });
    expect(screen.getByTestId("phase-charts").textContent).toContain("#4: 8 clients · 64 × 64 KiB");
    expect(
      screen
        .getAllByTestId("result-row")
        .find((row) => row.getAttribute("aria-selected") === "true")?.dataset,
    ).toMatchObject({ pointIndex: "3", op: "PUT" });
    const sweep = screen.getByTestId("sweep-charts");
    expect(sweep.dataset.axes).toBe("objectSize,concurrency");
    expect(screen.getByTestId("sweep-charts-size-mbps").dataset.lines).toBe("4");
    expect(screen.getByTestId("sweep-charts-concurrency-latency-GET")).toBeTruthy();
  });

  it("marks a p99.9 that is only the slowest request, and says why", async () => {
    show(runDetailFixture());
    await resultRows();
    const cells = screen.getAllByTestId("result-p999");
    expect(cells.every((cell) => cell.dataset.isMax === "true")).toBe(true);
    expect(within(cells[0]!).getByTestId("result-p999-figure").textContent).toMatch(/\*$/);
    expect(screen.getByTestId("p999-note").textContent).toContain("p99.9 needs ≥ 1,000 requests");
  });

  it("puts each percentile's 95 % interval under it and names the figures that rest on few", async () => {
    const detail = runDetailFixture();
    show(detail);
    const [put] = await resultRows();
    const intervals = detail.summary.points[0]!.phases[0]!.latencyMs!.intervals!;
    const shown = within(put!).getAllByTestId("interval");
    expect(shown.map((cell) => cell.dataset.level)).toEqual(["p50", "p90", "p99", "p999"]);
    const p50 = intervals.byLevel.p50;
    expect(shown[0]!.textContent).toBe(`[${formatMs(p50.lo!)}, ${formatMs(p50.hi!)}]`);
    // 256 requests: nothing bounds p99.9 above.
    expect(shown[3]!.textContent).toMatch(/^\[[\d,.]+, ∞\]$/);
    const note = screen.getByTestId("interval-note");
    expect(note.textContent).toContain("95 % confidence interval from order statistics");
    expect(note.textContent).toContain("±0.1 %");
    expect(note.textContent).toContain("p99.9 from 256 requests rests on 0");
  });

  it("says what the intervals are in Chinese, without an English word", async () => {
    await act(() => i18next.changeLanguage("zh-CN"));
    try {
      show(runDetailFixture());
      await resultRows();
      const note = screen.getByTestId("interval-note").textContent ?? "";
      expect(note).toContain("95 % 置信区间");
      expect(note).toContain("p99.9 来自 256 个请求，仅由其中最慢的 0 个决定");
      // Percentiles and S3's operation names are written as they are in both languages.
      expect(note.replace(/p\d+(\.\d+)?|PUT|GET|DELETE/g, "")).not.toMatch(/[A-Za-z]{2,}/);
    } finally {
      await act(() => i18next.changeLanguage("en"));
    }
  });

  /** What an element says in the UI's language: without what it shows verbatim (translate="no"). */
  function translatedText(element: HTMLElement): string {
    const copy = element.cloneNode(true) as HTMLElement;
    for (const verbatim of copy.querySelectorAll('[translate="no"]')) verbatim.remove();
    return (copy.textContent ?? "").trim();
  }

  /** A run read from s3bench's output: its PUT has only the figures s3bench printed. */
  function importedDetail(): RunDetail {
    const detail = runDetailFixture();
    const [point] = detail.summary.points;
    const [put, ...others] = point!.phases;
    return {
      ...detail,
      meta: {
        ...detail.meta,
        imported: {
          tool: "s3bench",
          file: "s3bench-output.txt",
          importedAt: "2025-03-02T10:00:00.000Z",
          notCarried: ["per-request data", "the machine s3bench ran on"],
        },
      },
      summary: {
        ...detail.summary,
        points: [
          {
            ...point!,
            phases: [
              { ...put!, latencyMs: null, toolLatencyMs: { p50: 7, p99: 21, max: 21 } },
              ...others,
            ],
          },
        ],
      },
    };
  }

  it("marks an imported run with its tool and shows the figures the tool printed", async () => {
    show(importedDetail());
    const [put] = await resultRows();
    expect(screen.getByTestId("run-imported").textContent).toBe("imported from s3bench");
    expect(screen.getByTestId("run-imported-file").textContent).toBe("s3bench-output.txt");
    expect(screen.getByTestId("run-not-in-file").textContent).toContain(
      "the machine s3bench ran on",
    );
    expect(put!.dataset.p99Ms).toBe("21");
    expect(put!.dataset.p90Ms).toBeUndefined();
    expect(screen.getByTestId("tool-latency-note")).toBeTruthy();
    expect(screen.queryByTestId("no-latency-note")).toBeNull();
    expect(screen.queryByTestId("run-again")).toBeNull();
  });

  it("says an imported run's origin in Chinese, without an English word", async () => {
    await act(() => i18next.changeLanguage("zh-CN"));
    try {
      show(importedDetail());
      await resultRows();
      const shown = [
        screen.getByTestId("run-imported"),
        screen.getByTestId("run-not-in-file"),
        screen.getByTestId("tool-latency-note"),
      ].map(translatedText);
      expect(shown[0]).toBe("导入自");
      expect(shown[1]).toBe("文件未包含的 2 项数据留空，不做推测。");
      for (const text of shown) expect(text).not.toMatch(/[A-Za-z]{2,}/);
    } finally {
      await act(() => i18next.changeLanguage("en"));
    }
  });

  it("leaves p99.9 unmarked from 1 000 requests on", async () => {
    show(runDetailFixture({ spec: { samples: [2000] } }));
    await resultRows();
    expect(screen.getAllByTestId("result-p999").some((cell) => cell.dataset.isMax)).toBe(false);
    expect(screen.queryByTestId("p999-note")).toBeNull();
  });

  it("gives every chart its tools: downloads, a log switch, percentiles and the tail view", async () => {
    show(runDetailFixture());
    await resultRows();
    for (const chart of ["timeline-chart", "histogram-chart", "cdf-chart", "ladder-chart"]) {
      expect(screen.getByTestId(`${chart}-png`)).toBeTruthy();
      expect(screen.getByTestId(`${chart}-svg`)).toBeTruthy();
      expect(screen.getByTestId(`${chart}-log`)).toBeTruthy();
    }
    const timeline = screen.getByTestId("timeline-chart");
    fireEvent.click(screen.getByTestId("timeline-chart-log"));
    expect(timeline.dataset.log).toBe("false");
    const p999 = screen.getByTestId("timeline-chart-percentile-p999");
    expect(p999.getAttribute("aria-pressed")).toBe("false");
    fireEvent.click(p999);
    expect(p999.getAttribute("aria-pressed")).toBe("true");
    // The last percentile shown cannot be turned off.
    fireEvent.click(screen.getByTestId("timeline-chart-percentile-p99"));
    expect(
      (screen.getByTestId("timeline-chart-percentile-p999") as HTMLButtonElement).disabled,
    ).toBe(true);
    const cdf = screen.getByTestId("cdf-chart");
    expect(cdf.dataset.view).toBe("cdf");
    fireEvent.click(screen.getByTestId("cdf-chart-view-ccdf"));
    expect(cdf.dataset.view).toBe("ccdf");
  });

  it("runs the same spec again on its endpoint, and links to its experiment", async () => {
    const detail = runDetailFixture();
    const api = installFakeTailLab({
      getRun: vi.fn(async () => detail),
      runOrigin: vi.fn(async () => ({ endpointId: "tb", experimentId: "x1" })),
      listExperiments: vi.fn(async () => [experiment({ id: "x1", name: "S3Mock lab" })]),
      startRun: vi.fn(async () => ({ runId: "again" })),
    });
    renderUi(<RunDetailView runId={detail.meta.id} />);
    const link = await screen.findByTestId("run-experiment");
    expect(link.textContent).toBe("Experiment: S3Mock lab");
    fireEvent.click(screen.getByTestId("run-again"));
    await waitFor(() => expect(api.startRun).toHaveBeenCalledTimes(1));
    const { experiment: draft } = vi.mocked(api.startRun).mock.calls[0]![0];
    expect(draft).toMatchObject({ name: detail.meta.name, endpointId: "tb" });
    expect(draft.spec).not.toHaveProperty("endpoints");
    expect(draft.spec).toMatchObject({ clients: [detail.meta.spec.clients[0]] });
    await waitFor(() => expect(useNavigation.getState().route).toEqual({ view: "live" }));
  });

  it("opens a run (one the CLI made too) in the builder to edit before running, replicas and settings without a box kept", async () => {
    const detail = runDetailFixture({
      spec: { clients: [4], workers: 2, hedge: { minSamples: 50 } },
    });
    const api = installFakeTailLab({
      getRun: vi.fn(async () => detail),
      runOrigin: vi.fn(async () => ({
        endpointId: "lab",
        replicaEndpointIds: ["lab-2"],
        experimentId: null,
      })),
    });
    renderUi(<RunDetailView runId={detail.meta.id} />);
    await waitFor(() =>
      expect((screen.getByTestId("run-edit") as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByTestId("run-edit"));
    await waitFor(() => expect(useNavigation.getState().route).toEqual({ view: "experiments" }));
    const builder = useExperimentBuilder.getState();
    expect(builder).toMatchObject({ open: true, experimentId: null, dirty: true });
    expect(builder.form).toMatchObject({
      name: detail.meta.name,
      endpointId: "lab",
      replicaEndpointIds: ["lab-2"],
      clients: "4",
    });
    expect(api.startRun).not.toHaveBeenCalled();

    renderUi(<ExperimentBuilder />);
    const kept = screen.getByTestId("experiment-kept-settings");
    expect([...kept.querySelectorAll("code")].map((code) => code.textContent)).toEqual([
      "workers = 2",
      "hedge.minSamples = 50",
    ]);
    useExperimentBuilder.getState().setField("clients", "8");
    await act(() => useExperimentBuilder.getState().run());
    const { experiment: draft } = vi.mocked(api.startRun).mock.calls[0]![0];
    expect(draft).toMatchObject({ endpointId: "lab", replicaEndpointIds: ["lab-2"] });
    expect(draft.spec).toMatchObject({ clients: [8], workers: 2, hedge: { minSamples: 50 } });
    expect(draft.spec).not.toHaveProperty("endpoints");
  });

  it("cannot run again once its endpoint is gone", async () => {
    const detail = runDetailFixture();
    installFakeTailLab({
      getRun: vi.fn(async () => detail),
      runOrigin: vi.fn(async () => ({ endpointId: null, experimentId: null })),
    });
    renderUi(<RunDetailView runId={detail.meta.id} />);
    await waitFor(() =>
      expect(screen.getByTestId("run-again").getAttribute("title")).toMatch(/no longer saved/),
    );
    expect((screen.getByTestId("run-again") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByTestId("run-experiment")).toBeNull();
  });

  it("draws a size sweep at a fixed total as one line per operation", async () => {
    const detail = runDetailFixture({
      spec: {
        points: [8, 64, 512].map((sizeKiB) => ({
          clients: 1,
          samples: 4096 / sizeKiB,
          objectSize: `${sizeKiB}KiB`,
        })),
      },
    });
    show(detail);
    await resultRows();
    expect(screen.getByTestId("sweep-charts").dataset.axes).toBe("objectSize");
    expect(screen.getByTestId("sweep-charts-size-mbps").dataset.lines).toBe("2");
    expect(screen.getByTestId("sweep-charts-size-latency-PUT").dataset.lines).toBe("3");
  });

  it("shows repetitions and what each testbed replica saw", async () => {
    const detail = runDetailFixture();
    const point = detail.summary.points[0]!;
    const stats = (value: number) => ({
      runs: 5,
      method: "trimmed-mean" as const,
      value,
      kept: [value - 1, value, value + 1],
      dropped: [value - 10, value + 10],
      min: value - 1,
      max: value + 1,
      stdev: 1,
      note: null,
    });
    point.repetitionStats = [
      { op: "PUT", opsPerSec: stats(800), throughputMBps: stats(25), errors: stats(0) },
    ];
    detail.summary.testbed = [
      { url: "http://127.0.0.1:1/", received: 300, completed: 280, aborted: 20 },
      { url: "http://127.0.0.1:2/", received: 290, completed: 285, aborted: 5 },
    ];
    show(detail);
    const repetition = await screen.findByTestId("repetition-row");
    expect(repetition.dataset).toMatchObject({
      op: "PUT",
      opsPerSec: "800",
      method: "trimmed-mean",
    });
    expect(repetition.textContent).toContain("790.0, 810.0");
    const replicas = screen.getAllByTestId("replica-row");
    expect(replicas.map((row) => row.dataset.aborted)).toEqual(["20", "5"]);
  });

  it("copies the table as s3bench text", async () => {
    const detail = runDetailFixture();
    show(detail);
    await resultRows();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    fireEvent.click(screen.getByTestId("copy-table"));
    await waitFor(() => expect(screen.getByTestId("copy-table").dataset.copied).toBe("true"));
    expect(writeText).toHaveBeenCalledWith(formatPointS3bench(detail.summary.points[0]!));
    expect(screen.getByTestId("copy-table").textContent).toBe(" Copied");
    expect(screen.getByTestId("copy-table").querySelector("svg.icon")).toBeTruthy();
  });

  it("says why a run could not be opened", async () => {
    installFakeTailLab({
      getRun: vi.fn(async () => {
        throw new Error('run "nope" does not exist');
      }),
    });
    renderUi(<RunDetailView runId="nope" />);
    expect((await screen.findByTestId("run-detail-error")).textContent).toContain(
      'run "nope" does not exist',
    );
  });
});
