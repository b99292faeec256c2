import type { ClientSecond, RunEvent } from "@taillab/api";
import { act, screen } from "@testing-library/react";
import i18next from "i18next";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderUi } from "../../shared/test-support/render.tsx";
import { ClientBanner } from "./client-banner.tsx";
import { useLiveRun } from "./live-run-store.ts";

const initialLive = useLiveRun.getState();

beforeEach(() => {
  useLiveRun.setState(initialLive, true);
});
afterEach(async () => {
  await act(() => i18next.changeLanguage("en"));
});

function second(startS: number, change: Partial<ClientSecond> = {}): ClientSecond {
  return {
    startMs: startS * 1000,
    cpuCores: 0.3,
    availableCores: 2,
    busiestWorkerCpu: 0.3,
    eventLoopDelayP99Ms: 1,
    stallShare: 0,
    starts: 400,
    missedStarts: 0,
    behindMs: 0,
    shed: 0,
    verdict: { keptUp: true, reasons: [] },
    ...change,
  };
}

function progress(client: ClientSecond[]): RunEvent {
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
      elapsedMs: 3000,
    },
    percentiles: null,
    intervals: null,
    client,
  };
}

const BEHIND = second(2, {
  missedStarts: 240,
  behindMs: 12_400,
  stallShare: 0.35,
  verdict: { keptUp: false, reasons: ["event-loop-delay", "schedule-behind"] },
});

describe("ClientBanner", () => {
  it("says nothing while the client keeps up", () => {
    useLiveRun.getState().apply(progress([second(0), second(1)]));
    renderUi(<ClientBanner />);
    expect(screen.queryByTestId("client-banner")).toBeNull();
  });

  it("says the moment the client becomes the bottleneck, why, what to do and how far behind it is", () => {
    useLiveRun.getState().apply(progress([second(0), second(1)]));
    renderUi(<ClientBanner />);
    act(() => useLiveRun.getState().apply(progress([BEHIND])));
    const banner = screen.getByTestId("client-banner");
    expect(banner.textContent).toContain("TailLab's own client is the bottleneck, not the server");
    expect(banner.textContent).toContain("could not run for 35 % of the latency measured");
    expect(banner.textContent).toContain("run the server on another machine");
    expect(screen.getByTestId("client-behind").textContent).toContain(
      "TailLab is 12.4 s behind its schedule: 240 of 400 starts were late",
    );
  });

  it("counts the arrivals a live lab shed", () => {
    useLiveRun.getState().apply(progress([second(0, { shed: 30 }), second(1, { shed: 12 })]));
    renderUi(<ClientBanner />);
    expect(screen.getByTestId("client-shed").textContent).toContain("42 arrivals shed");
  });

  it("speaks Chinese", async () => {
    await act(() => i18next.changeLanguage("zh-CN"));
    useLiveRun.getState().apply(progress([second(0, { shed: 5 }), BEHIND]));
    renderUi(<ClientBanner />);
    const banner = screen.getByTestId("client-banner");
    expect(banner.textContent).toContain("瓶颈是 TailLab 自己的客户端");
    expect(banner.textContent).toContain("把服务器放到另一台机器上运行");
    expect(screen.getByTestId("client-behind").textContent).toContain("TailLab 落后调度 12.4 秒");
    expect(screen.getByTestId("client-shed").textContent).toContain("已丢弃 5 个到达请求");
  });
});
