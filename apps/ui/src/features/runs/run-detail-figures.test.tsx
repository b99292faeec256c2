import type { RunDetail } from "@taillab/api";
import { formatMs } from "@taillab/report";
import { act, screen, within } from "@testing-library/react";
import i18next from "i18next";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { installFakeTailLab } from "../../shared/test-support/fake-taillab.ts";
import { renderUi } from "../../shared/test-support/render.tsx";
import { LIVE_TUNING } from "../../shared/test-support/sample-data.ts";
import { RunDetailView } from "./run-detail-view.tsx";
import { useRunDetail } from "./run-detail-store.ts";
import { runDetailFixture } from "./test-support/run-fixtures.ts";

/** The run detail's figures beyond s3bench's: timings, the tail, seconds, errors, stops. */

function show(detail: RunDetail) {
  installFakeTailLab({ getRun: vi.fn(async () => detail) });
  renderUi(<RunDetailView runId={detail.meta.id} />);
}

beforeEach(() => {
  useRunDetail.setState({ runId: null, detail: null, choice: null, error: null });
});

const TUNING = LIVE_TUNING;

describe("the run detail's figures", () => {
  it("shows where each phase's time went: client queue, service, TTFB, transfer and steady throughput", async () => {
    const detail = runDetailFixture();
    show(detail);
    const rows = await screen.findAllByTestId("timing-row");
    const phases = detail.summary.points[0]!.phases;
    expect(rows.map((row) => row.dataset.op)).toEqual(phases.map((phase) => phase.op));
    rows.forEach((row, index) => {
      const phase = phases[index]!;
      expect(Number(row.dataset.clientQueueP99Ms)).toBe(phase.clientQueueMs!.p99);
      expect(Number(row.dataset.serviceP99Ms)).toBe(phase.serviceMs!.p99);
      expect(Number(row.dataset.ttfbP99Ms)).toBe(phase.ttfbMs!.p99);
      expect(Number(row.dataset.transferP99Ms)).toBe(phase.transferMs!.p99);
    });
    expect(within(rows[0]!).getByText(formatMs(phases[0]!.ttfbMs!.p50))).toBeTruthy();
  });

  it("shows the connect and the upload apart, and says a run recorded before them has none", async () => {
    const detail = runDetailFixture();
    const [put, get] = detail.summary.points[0]!.phases;
    delete get!.connectMs;
    delete get!.uploadMs;
    show(detail);
    const [putRow, getRow] = await screen.findAllByTestId("timing-row");
    expect(Number(putRow!.dataset.connectP99Ms)).toBe(put!.connectMs!.p99);
    expect(Number(putRow!.dataset.uploadP99Ms)).toBe(put!.uploadMs!.p99);
    expect(within(putRow!).getByText(formatMs(put!.uploadMs!.p50))).toBeTruthy();
    expect(getRow!.querySelector('[data-part="uploadMs"]')?.textContent).toBe("not recorded");
    expect(getRow!.querySelector('[data-part="connectMs"]')?.textContent).toBe("not recorded");
  });

  it("shows where the tail went, as bars and as a table, and the percentiles over time", async () => {
    const detail = runDetailFixture();
    show(detail);
    const card = await screen.findByTestId("tail-breakdown");
    const tail = detail.summary.points[0]!.phases[0]!.tail!;
    expect(card.dataset.op).toBe("PUT");
    expect(Number(card.dataset.p99ServerMs)).toBe(tail.p99.serverMs);
    const rows = within(card).getAllByTestId("tail-row");
    expect(rows.map((row) => row.querySelector("th")?.textContent)).toEqual([
      "slowest 1 %",
      "slowest 0.1 %",
    ]);
    expect(rows[1]!.querySelector('[data-part="server"]')?.textContent).toContain(
      formatMs(tail.p999.serverMs),
    );
    expect(screen.getByTestId("tail-breakdown-chart-png")).toBeTruthy();
    const overTime = screen.getByTestId("over-time-chart");
    const seconds = detail.intervals.find((entry) => entry.op === "PUT")!.intervals.length;
    expect(overTime.dataset.seconds).toBe(String(seconds));
    expect(screen.getByTestId("over-time-chart-log")).toBeTruthy();
    expect(screen.getByTestId("over-time-percentile-p999")).toBeTruthy();
  });

  it("lists each phase's errors by code in the table itself", async () => {
    const detail = runDetailFixture();
    const put = detail.summary.points[0]!.phases[0]!;
    put.errors = 3;
    put.errorsByCode = { NoSuchKey: 1, SlowDown: 2 };
    show(detail);
    const [putRow] = await screen.findAllByTestId("result-row");
    const codes = within(putRow!).getByTestId("error-codes");
    expect([...codes.querySelectorAll("li")].map((item) => item.textContent)).toEqual([
      "SlowDown 2",
      "NoSuchKey 1",
    ]);
  });

  it("shows a server's code with a bidi override or an escape as it is, escaped", async () => {
    const detail = runDetailFixture();
    const put = detail.summary.points[0]!.phases[0]!;
    put.errors = 2;
    // Left raw, the override shows the app's own "HTTP 500" after it as "005 PTTH".
    put.errorsByCode = { "Slow\u202E": 1, "x\u001b[2J": 1 };
    show(detail);
    const [putRow] = await screen.findAllByTestId("result-row");
    const codes = within(putRow!).getByTestId("error-codes");
    expect([...codes.querySelectorAll("li")].map((item) => item.textContent)).toEqual([
      "Slow\\u202E 1",
      "x\\u001B[2J 1",
    ]);
  });

  it("says so where no request of a phase succeeded", async () => {
    const detail = runDetailFixture();
    const put = detail.summary.points[0]!.phases[0]!;
    Object.assign(put, {
      errors: put.requests,
      errorsByCode: { AccessDenied: put.requests },
      latencyMs: null,
      clientQueueMs: null,
      serviceMs: null,
      ttfbMs: null,
      transferMs: null,
      tail: null,
    });
    show(detail);
    const note = await screen.findByTestId("no-latency-note");
    expect(note.textContent).toContain(
      `PUT (write): none of its ${put.requests} requests succeeded`,
    );
    expect(screen.getByTestId("phase-no-latency").textContent).toContain(
      "No request of PUT (write) succeeded",
    );
    expect(screen.queryByTestId("tail-breakdown")).toBeNull();
  });

  it("says a sweep stopped in its second point finished 1 of its 6 points", async () => {
    const detail = runDetailFixture({
      status: "stopped",
      spec: {
        points: [1, 2, 3, 4, 5, 6].map((clients) => ({ clients, samples: 64, objectSize: "4KiB" })),
      },
    });
    detail.summary.status = "stopped";
    detail.summary.points = detail.summary.points.slice(0, 2);
    detail.summary.points[1]!.finished = false;
    detail.summary.points[1]!.phases[0]!.cutOff = 16;
    show(detail);
    const banner = await screen.findByTestId("stopped-banner");
    expect(banner.textContent).toContain("Stopped in point 2 of 6: 1 of 6 points ran to the end");
    expect(banner.textContent).toContain(
      "Requests cut off in flight by the stop: 16 (recorded, not in the figures: they may have reached the server).",
    );
    expect(screen.getByTestId("run-status").dataset.status).toBe("stopped");
    expect(screen.getByTestId("run-status").textContent).toBe("⚠ stopped");
  });

  it("says when the server stopped answering and which phases were not run, never as measured phases", async () => {
    const detail = runDetailFixture({ status: "serverLost", ops: ["PUT"] });
    const at = "2025-03-01T10:15:32.400Z";
    detail.summary.status = "serverLost";
    detail.summary.serverLosses = [
      {
        pointIndex: 0,
        phase: "PUT",
        at,
        sinceMs: 32_400,
        silentMs: 3_000,
        failures: 8,
        lastError: "ClientTimeout",
      },
    ];
    detail.summary.serverGone = {
      at,
      sinceMs: 32_400,
      probeError: "ClientTimeout",
      notRun: [
        { pointIndex: 0, phase: "GET" },
        { pointIndex: 0, phase: "DELETE" },
      ],
    };
    show(detail);
    const banner = await screen.findByTestId("server-lost-banner");
    expect(banner.dataset.notRun).toBe("2");
    expect(banner.textContent).toMatch(
      /^The server stopped answering\. At .+ \(32 s into the run\) the server stopped answering: the PUT ended early\. It did not answer again \(ClientTimeout\), so the run ended there\. Not run: GET, DELETE\.$/,
    );
    expect(screen.getByTestId("run-status").textContent).toBe("⚠ server stopped answering");
    // The phases not run have no figures: the timings list the PUT alone.
    const rows = await screen.findAllByTestId("timing-row");
    expect(rows.map((row) => row.dataset.op)).toEqual(["PUT"]);
    await act(() => i18next.changeLanguage("zh-CN"));
    try {
      expect(screen.getByTestId("server-lost-banner").textContent).toMatch(
        /^服务器不再应答。 服务器自 .+（运行开始后 32 s）起不再应答：PUT 提前结束。 之后仍未应答（ClientTimeout），运行到此结束。未运行：GET, DELETE。$/,
      );
    } finally {
      await act(() => i18next.changeLanguage("en"));
    }
  });

  it("marks a live session's knob changes on its seconds, and lists them", async () => {
    const detail = runDetailFixture();
    detail.summary.markers = [
      { atMs: 0, tuning: TUNING, changed: [] },
      { atMs: 1500, tuning: { ...TUNING, mode: "hedged" }, changed: ["mode"] },
      {
        atMs: 3200,
        tuning: { ...TUNING, mode: "hedged", stallProbability: 0.05 },
        changed: ["stallProbability"],
      },
    ];
    show(detail);
    const list = await screen.findByTestId("run-markers");
    expect([...list.querySelectorAll("li")].map((item) => item.textContent)).toEqual([
      "1.5 s mode hedged",
      "3.2 s stalls 5 %",
    ]);
    expect(screen.getByTestId("over-time-chart").dataset.markers).toBe("2");
    expect(screen.getAllByTestId("run-mode").map((badge) => badge.dataset.mode)).toEqual([
      "normal",
      "hedged",
    ]);
    // Every setting it had, the start's included, with the requests answered under each.
    const spans = screen.getAllByTestId("knob-span");
    expect(spans.map((span) => [span.dataset.mode, span.textContent?.startsWith("start")])).toEqual(
      [
        ["normal", true],
        ["hedged", false],
        ["hedged", false],
      ],
    );
    const shown = detail.intervals.find(
      (entry) =>
        entry.pointIndex === 0 && entry.op === screen.getByTestId("phase-charts").dataset.op,
    )!;
    const total = spans.reduce((sum, span) => sum + Number(span.dataset.requests), 0);
    expect(total).toBe(shown.intervals.reduce((sum, interval) => sum + interval.requests, 0));
  });

  it("shows what each testbed replica served and the tied twins it dropped", async () => {
    const detail = runDetailFixture({ mode: "tied-server" });
    detail.summary.testbed = [
      {
        url: "http://127.0.0.1:1",
        received: 300,
        completed: 150,
        aborted: 0,
        served: 160,
        tiesDropped: 140,
      },
      {
        url: "http://127.0.0.1:2",
        received: 300,
        completed: 160,
        aborted: 0,
        served: 150,
        tiesDropped: 150,
      },
    ];
    show(detail);
    const rows = await screen.findAllByTestId("replica-row");
    expect(rows.map((row) => [row.dataset.served, row.dataset.tiesDropped])).toEqual([
      ["160", "140"],
      ["150", "150"],
    ]);
    expect(screen.getByText("Tied twins dropped")).toBeTruthy();
    expect(screen.getAllByText("tied (server cancel)").length).toBeGreaterThan(0);
  });
});
