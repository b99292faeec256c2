import type { ClientSecond, IntervalStats } from "@taillab/api";
import { act, screen } from "@testing-library/react";
import i18next from "i18next";
import { afterEach, describe, expect, it } from "vitest";
import { renderUi } from "../../shared/test-support/render.tsx";
import { OverTimeChart } from "./over-time-chart.tsx";

afterEach(async () => {
  await act(() => i18next.changeLanguage("en"));
});

const INTERVALS: IntervalStats[] = [0, 1, 2, 3].map((index) => ({
  startMs: index * 1000,
  lengthMs: 1000,
  requests: 100,
  errors: 0,
  p50Ms: 2,
  p99Ms: index === 2 ? 300 : 8,
  p999Ms: index === 2 ? 900 : 12,
  maxMs: index === 2 ? 950 : 15,
}));

function second(startS: number, keptUp: boolean): ClientSecond {
  return {
    startMs: startS * 1000,
    cpuCores: 0.4,
    availableCores: 2,
    busiestWorkerCpu: keptUp ? 0.4 : 0.97,
    eventLoopDelayP99Ms: 1,
    stallShare: 0,
    starts: 100,
    missedStarts: 0,
    behindMs: 0,
    shed: 0,
    verdict: { keptUp, reasons: keptUp ? [] : ["clients-per-worker"] },
  };
}

const chart = () => screen.getByTestId("over-time-chart").closest<HTMLElement>("[data-seconds]");

describe("OverTimeChart", () => {
  it.each([
    ["en", "TailLab's own client was the bottleneck (the bar along the top of the chart): 1–3 s."],
    ["zh-CN", "瓶颈是 TailLab 自己的客户端（图表顶部的横条）：1–3 s。"],
  ])("marks the stored seconds whose client was the bottleneck (%s)", async (language, note) => {
    await act(() => i18next.changeLanguage(language));
    renderUi(
      <OverTimeChart
        intervals={INTERVALS}
        markers={[]}
        cost={false}
        clientSeconds={[0, 1, 2, 3].map((at) => second(at, at === 0 || at === 3))}
      />,
    );
    expect(chart()?.dataset.clientBound).toBe("1");
    expect(screen.getByTestId("run-client-bound").textContent).toBe(note);
  });

  it.each([
    [
      "en",
      "p99.9 rests on fewer than 10 slower requests in 4 of 4 seconds.",
      "p99 rests on fewer than 10 slower requests",
    ],
    ["zh-CN", "4 秒中有 4 秒的 p99.9 仅由不到 10 个更慢的请求决定。", "的 p99 仅由"],
  ])(
    "says what the interval bands are and which tails rest on few (%s)",
    async (language, few, notP99) => {
      await act(() => i18next.changeLanguage(language));
      const bounded = INTERVALS.map((interval) => ({
        ...interval,
        requests: 2000,
        percentileIntervals: {
          p50: { lo: 1.9, hi: 2.1 },
          p99: { lo: 7, hi: 9 },
          p999: { lo: 11, hi: null },
        },
      }));
      renderUi(<OverTimeChart intervals={bounded} markers={[]} cost={false} clientSeconds={[]} />);
      const notes = screen
        .getAllByTestId("over-time-interval-note")
        .map((note) => note.textContent);
      expect(notes).toHaveLength(2);
      expect(notes[1]).toBe(few);
      expect(notes.join(" ")).not.toContain(notP99);
    },
  );

  it("says nothing of intervals in a run recorded before they were kept", () => {
    renderUi(<OverTimeChart intervals={INTERVALS} markers={[]} cost={false} clientSeconds={[]} />);
    expect(screen.queryByTestId("over-time-interval-note")).toBeNull();
  });

  it("marks nothing in a run recorded before the client's health was kept", () => {
    renderUi(<OverTimeChart intervals={INTERVALS} markers={[]} cost={false} clientSeconds={[]} />);
    expect(chart()?.dataset.clientBound).toBe("0");
    expect(screen.queryByTestId("run-client-bound")).toBeNull();
  });
});
