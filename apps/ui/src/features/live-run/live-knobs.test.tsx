import type { LiveTuning, RunEvent, RunMarker } from "@taillab/api";
import { act, fireEvent, screen, within } from "@testing-library/react";
import i18next from "i18next";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { installFakeTailLab, type FakeTailLab } from "../../shared/test-support/fake-taillab.ts";
import { renderUi } from "../../shared/test-support/render.tsx";
import { LIVE_TUNING } from "../../shared/test-support/sample-data.ts";
import { useLiveRun } from "./live-run-store.ts";
import { LiveRunView } from "./live-run-view.tsx";

const initialLive = useLiveRun.getState();
const POINT = { clients: 16, samples: 0, objectSizeBytes: 4096 };
const TUNING = LIVE_TUNING;

beforeEach(() => {
  useLiveRun.setState(initialLive, true);
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

const started: RunEvent = {
  type: "started",
  runId: "live",
  name: "Live tail lab",
  points: [POINT],
  requestCount: 0,
  series: { index: 0, count: 1, mode: "normal" },
  tuning: TUNING,
};

/** Two whole seconds and one filling, the second with backups. */
function progress(done: number): RunEvent {
  const second = (startMs: number, p99Ms: number, backups: number) => ({
    startMs,
    lengthMs: 1000,
    requests: 400,
    errors: 0,
    p50Ms: 5,
    p99Ms,
    p999Ms: 500,
    maxMs: 510,
    backups,
  });
  return {
    type: "progress",
    progress: {
      runId: "live",
      pointIndex: 0,
      pointCount: 1,
      params: POINT,
      op: "GET",
      done,
      total: 0,
      errors: 0,
      opsPerSec: 400,
      p50Ms: 5,
      p99Ms: 30,
      elapsedMs: 3000,
      // The phase began after the objects were prepared: the run's clock is ahead of it.
      runElapsedMs: 9000,
    },
    // The whole session, a stall of seconds in it; its newest seconds are quick again.
    percentiles: { p50Ms: 5, p90Ms: 8, p99Ms: 4714, p999Ms: 5000, maxMs: 5010, count: done },
    recentPercentiles: { p50Ms: 5, p90Ms: 8, p99Ms: 32, p999Ms: 480, maxMs: 510, count: 2000 },
    intervals: {
      pointIndex: 0,
      op: "GET",
      intervals: [second(0, 480, 0), second(1000, 12, 40), second(2000, 11, 3)],
    },
  };
}

function liveSession(overrides: Partial<FakeTailLab> = {}): FakeTailLab {
  const fake = installFakeTailLab(overrides);
  useLiveRun.getState().connect();
  renderUi(<LiveRunView />);
  act(() => fake.emit(started));
  return fake;
}

const marker = (atMs: number, tuning: Partial<LiveTuning>, changed: RunMarker["changed"]) => ({
  atMs,
  tuning: { ...TUNING, ...tuning },
  changed,
});

describe("the live tail lab's knobs", () => {
  it("shows the knobs of a live session, its requests without a total, and stops to save", () => {
    const fake = liveSession();
    act(() => fake.emit(progress(1200)));
    const knobs = screen.getByTestId("live-knobs");
    expect(knobs.dataset.mode).toBe("normal");
    expect(screen.getByTestId("knob-mode-normal").getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("knob-stallProbability-value").textContent).toBe("1 %");
    expect(screen.getByTestId("knob-replicas-2").getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("live-run-progress").textContent).toContain("1,200 requests");
    expect(screen.getByTestId("live-run-progress").textContent).toContain("runs until you stop it");
    expect(screen.getByTestId("live-stop").textContent).toContain("Stop and save");
    // The last whole second, not the one still filling: its extra requests are the cost now.
    const now = screen.getByTestId("live-now");
    expect(now.dataset.atMs).toBe("1000");
    expect(now.dataset.extraPercent).toBe("10");
  });

  it("shows the newest seconds' percentiles, said so, and the run's clock as elapsed", () => {
    const fake = liveSession();
    act(() => fake.emit(progress(1200)));
    const tiles = screen.getByTestId("live-percentiles");
    expect(tiles.dataset.window).toBe("recent");
    expect(tiles.textContent).toContain("Latency now: the last 5 s");
    expect(screen.getByTestId("live-p99").textContent).toContain("32");
    expect(screen.getByTestId("live-p99").textContent).not.toContain("4,714");
    expect(screen.getByTestId("live-percentiles-count").dataset.requests).toBe("2000");
    // The timeline's seconds count from the run's start: so does the elapsed time.
    expect(screen.getByTestId("live-run-progress").textContent).toContain("9 s elapsed");
  });

  it("moves the mode at once and marks the change on the timeline", async () => {
    const answer = marker(4200, { mode: "tied-server" }, ["mode"]);
    const fake = liveSession({ retuneRun: vi.fn(async () => answer) });
    fireEvent.click(screen.getByTestId("knob-mode-tied-server"));
    expect(screen.getByTestId("knob-mode-tied-server").getAttribute("aria-pressed")).toBe("true");
    expect(fake.retuneRun).toHaveBeenCalledWith({ runId: "live", tuning: { mode: "tied-server" } });
    const list = await screen.findByTestId("live-markers");
    expect(within(list).getByText(/mode tied \(server cancel\)/)).toBeTruthy();
    expect(screen.getByTestId("live-markers").querySelector("li")?.dataset.atMs).toBe("4200");
    // The same marker coming as an event (to every window) is shown once.
    act(() => fake.emit({ type: "retuned", runId: "live", marker: answer }));
    expect(list.querySelectorAll("li")).toHaveLength(1);
  });

  it("commits a slider once the hand rests, as one change", async () => {
    const fake = liveSession({
      retuneRun: vi.fn(async () => marker(5000, { stallProbability: 0.05 }, ["stallProbability"])),
    });
    const slider = screen.getByTestId("knob-stallProbability");
    fireEvent.change(slider, { target: { value: "2" } });
    fireEvent.change(slider, { target: { value: "5" } });
    expect(screen.getByTestId("knob-stallProbability-value").textContent).toBe("5 %");
    expect(fake.retuneRun).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(fake.retuneRun).toHaveBeenCalledTimes(1);
    expect(fake.retuneRun).toHaveBeenCalledWith({
      runId: "live",
      tuning: { stallProbability: 0.05 },
    });
  });

  it("commits a slider at once when its key or the pointer is let go", async () => {
    const fake = liveSession({
      retuneRun: vi.fn(async () => marker(5000, { stallProbability: 0.1 }, ["stallProbability"])),
    });
    const slider = screen.getByTestId("knob-stallProbability");
    fireEvent.change(slider, { target: { value: "10" } });
    fireEvent.keyUp(slider, { key: "End" });
    expect(fake.retuneRun).toHaveBeenCalledWith({
      runId: "live",
      tuning: { stallProbability: 0.1 },
    });
    // The rest's timer was cleared: still one change.
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(fake.retuneRun).toHaveBeenCalledTimes(1);
    fireEvent.change(slider, { target: { value: "4" } });
    fireEvent.pointerUp(slider);
    expect(fake.retuneRun).toHaveBeenCalledTimes(2);
  });

  it("follows knob changes made in another window", () => {
    const fake = liveSession();
    act(() =>
      fake.emit({
        type: "retuned",
        runId: "live",
        marker: marker(3000, { replicas: 3, mode: "hedged" }, ["replicas", "mode"]),
      }),
    );
    expect(screen.getByTestId("knob-replicas-3").getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("live-knobs").dataset.mode).toBe("hedged");
    expect(screen.getByTestId("live-markers").textContent).toContain("replicas 3 · mode hedged");
  });

  it("says a refused change as a notice and shows the knobs as they were", async () => {
    liveSession({
      retuneRun: vi.fn(async () => {
        throw new Error("run live is not a live session running now");
      }),
    });
    fireEvent.click(screen.getByTestId("knob-replicas-4"));
    expect(await screen.findByText(/is not a live session running now/)).toBeTruthy();
    expect(screen.getByTestId("knob-replicas-2").getAttribute("aria-pressed")).toBe("true");
  });

  it("speaks Chinese too", async () => {
    await act(() => i18next.changeLanguage("zh-CN"));
    liveSession();
    expect(screen.getByTestId("knob-mode-tied-server").textContent).toBe("绑定（服务端取消）");
    expect(screen.getByTestId("live-stop").textContent).toContain("停止并保存");
    await act(() => i18next.changeLanguage("en"));
  });

  it("shows no knobs for a run that has none", () => {
    const fake = installFakeTailLab();
    useLiveRun.getState().connect();
    renderUi(<LiveRunView />);
    act(() => fake.emit({ ...started, tuning: undefined }));
    expect(screen.queryByTestId("live-knobs")).toBeNull();
  });
});
