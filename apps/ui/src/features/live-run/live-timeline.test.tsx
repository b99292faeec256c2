import type { ClientSecond, IntervalStats, RunEvent } from "@taillab/api";
import { act, fireEvent, screen } from "@testing-library/react";
import i18next from "i18next";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderUi } from "../../shared/test-support/render.tsx";
import { threeSeconds } from "../../shared/test-support/sample-data.ts";
import { useLiveRun } from "./live-run-store.ts";
import { LiveTimeline } from "./live-timeline.tsx";

const initialLive = useLiveRun.getState();

beforeEach(() => {
  useLiveRun.setState(initialLive, true);
});
afterEach(async () => {
  await act(() => i18next.changeLanguage("en"));
});

function second(startS: number, keptUp: boolean): ClientSecond {
  return {
    startMs: startS * 1000,
    cpuCores: keptUp ? 0.3 : 1.9,
    availableCores: 2,
    busiestWorkerCpu: 0.3,
    eventLoopDelayP99Ms: 1,
    stallShare: 0,
    starts: 400,
    missedStarts: 0,
    behindMs: 0,
    shed: 0,
    verdict: { keptUp, reasons: keptUp ? [] : ["cpu"] },
  };
}

/** Three seconds of GETs of 1 MiB: 100, 90 and 80 answered, 0, 1 and 2 refused with SlowDown. */
const SECONDS = threeSeconds({ bytes: (requests) => requests * 1024 * 1024 });

function progress(client: ClientSecond[], intervals: IntervalStats[] = []): RunEvent {
  return {
    type: "progress",
    progress: {
      runId: "r1",
      pointIndex: 0,
      pointCount: 1,
      params: { clients: 8, samples: 0, objectSizeBytes: 1024 },
      op: "GET",
      done: 100,
      total: 0,
      errors: 0,
      opsPerSec: 400,
      p50Ms: 1,
      p99Ms: 3,
      elapsedMs: 5000,
    },
    percentiles: null,
    intervals: intervals.length > 0 ? { pointIndex: 0, op: "GET", intervals } : null,
    client,
  };
}

describe("LiveTimeline", () => {
  it.each([
    [
      "en",
      "TailLab's own client was the bottleneck (the bar along the top of the chart): 1–3 s, 4–5 s.",
    ],
    ["zh-CN", "瓶颈是 TailLab 自己的客户端（图表顶部的横条）：1–3 s, 4–5 s。"],
  ])(
    "marks the seconds whose client was the bottleneck as they come (%s)",
    async (language, note) => {
      await act(() => i18next.changeLanguage(language));
      useLiveRun.getState().apply(progress([second(0, true), second(1, false)]));
      const { container } = renderUi(<LiveTimeline />);
      act(() =>
        useLiveRun
          .getState()
          .apply(progress([second(2, false), second(3, true), second(4, false)])),
      );
      const box = container.querySelector<HTMLElement>(".timeline-box");
      expect(box?.dataset.clientBound).toBe("2");
      expect(screen.getByTestId("live-client-bound").textContent).toBe(note);
    },
  );

  it("keeps the marks of a second as long as the timeline keeps the second", () => {
    useLiveRun.getState().apply(progress([second(0, true), second(1, false)]));
    for (let at = 2; at < 120; at += 1) useLiveRun.getState().apply(progress([second(at, true)]));
    const { container } = renderUi(<LiveTimeline />);
    expect(container.querySelector<HTMLElement>(".timeline-box")?.dataset.clientBound).toBe("1");
  });

  it("follows the seconds as each begins, not every event of the second still filling", () => {
    const filling = (startS: number, p99Ms: number) => [
      { ...SECONDS[0]!, startMs: startS * 1000, p99Ms },
    ];
    useLiveRun.getState().apply(progress([], filling(0, 8)));
    const { container } = renderUi(<LiveTimeline />);
    const box = () => container.querySelector<HTMLElement>(".timeline-box")?.dataset;
    expect(box()).toMatchObject({ intervals: "1", lastP99Ms: "8" });

    // The client's health of that second comes too: it waits for the next second as well.
    act(() => useLiveRun.getState().apply(progress([second(0, false)], filling(0, 9))));
    expect(box()).toMatchObject({ intervals: "1", lastP99Ms: "8", clientBound: "0" });
    // The second closed with 10 ms and the next began: both are drawn.
    act(() => useLiveRun.getState().apply(progress([], [...filling(0, 10), ...filling(1, 4)])));
    expect(box()).toMatchObject({ intervals: "2", lastP99Ms: "4", clientBound: "1" });
    expect(useLiveRun.getState().overTime?.intervals[0]?.p99Ms).toBe(10);

    // The run's end draws its last second's last figures.
    act(() => useLiveRun.getState().apply(progress([], filling(1, 5))));
    expect(box()?.lastP99Ms).toBe("4");
    act(() =>
      useLiveRun.getState().apply({
        type: "finished",
        runId: "r1",
        status: "complete",
        error: null,
        series: { index: 0, count: 1, mode: "normal" },
        seriesRunIds: ["r1"],
      }),
    );
    expect(box()?.lastP99Ms).toBe("5");
  });

  it("marks nothing while the client keeps up", () => {
    useLiveRun.getState().apply(progress([second(0, true), second(1, true)]));
    renderUi(<LiveTimeline />);
    expect(screen.queryByTestId("live-client-bound")).toBeNull();
  });

  it.each([
    ["en", "What the chart shows", "LatencyThroughputData rateErrors", "Throughput over time"],
    ["zh-CN", "图表显示的内容", "延迟吞吐量数据速率错误", "吞吐量随时间的变化"],
  ])(
    "switches its one chart between the seconds' latency, throughput, MiB/s and errors (%s)",
    async (language, switchName, views, throughputTitle) => {
      await act(() => i18next.changeLanguage(language));
      useLiveRun.getState().apply(progress([], SECONDS));
      renderUi(<LiveTimeline />);
      expect(screen.getByRole("group", { name: switchName }).textContent).toBe(views);
      const chart = () => screen.getByTestId("live-timeline");
      expect(chart().dataset.chart).toBe("latency");
      expect(screen.getByTestId("live-log-scale")).toBeTruthy();

      fireEvent.click(screen.getByTestId("live-chart-throughput"));
      expect(screen.getByTestId("live-chart-throughput").getAttribute("aria-pressed")).toBe("true");
      expect(screen.getByRole("heading", { name: throughputTitle })).toBeTruthy();
      expect(chart().dataset).toMatchObject({ chart: "throughput", seconds: "3", total: "270" });
      // The log switch is the latency axis'.
      expect(screen.queryByTestId("live-log-scale")).toBeNull();

      fireEvent.click(screen.getByTestId("live-chart-data"));
      expect(chart().dataset).toMatchObject({ chart: "data", seconds: "3", total: "270" });
      fireEvent.click(screen.getByTestId("live-chart-errors"));
      expect(chart().dataset).toMatchObject({ chart: "errors", seconds: "3", total: "3" });
      // The choice is the store's: it stays when the lab's layout gives way to the run's.
      expect(useLiveRun.getState().chart).toBe("errors");
    },
  );
});
