import { act, fireEvent, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useExperimentBuilder } from "../features/experiments/experiment-builder-store.ts";
import { useLiveRun } from "../features/live-run/live-run-store.ts";
import { installFakeTailLab } from "../shared/test-support/fake-taillab.ts";
import { renderUi } from "../shared/test-support/render.tsx";
import { App } from "./app.tsx";
import { useNavigation } from "./navigation-store.ts";
import { useSettings } from "./settings-store.ts";

const initialLive = useLiveRun.getState();
const initialBuilder = useExperimentBuilder.getState();

beforeEach(() => {
  useLiveRun.setState(initialLive, true);
  useExperimentBuilder.setState(initialBuilder, true);
  useNavigation.setState({ route: { view: "experiments" } });
  useSettings.getState().setLanguage("en");
});

const key = (init: KeyboardEventInit, target: Element = document.body) =>
  act(() => {
    fireEvent.keyDown(target, init);
  });

describe("app shell", () => {
  it("says so when the backend is missing", () => {
    renderUi(<App />);
    expect(screen.getByTestId("backend-missing").textContent).toContain("not connected");
  });

  it("switches screens with Alt+1…5 and marks the current one", async () => {
    installFakeTailLab();
    renderUi(<App />);
    await act(async () => undefined);
    expect(screen.queryByTestId("backend-missing")).toBeNull();
    key({ key: "1", code: "Digit1", altKey: true });
    expect(useNavigation.getState().route).toEqual({ view: "endpoints" });
    expect(screen.getByTestId("nav-endpoints").getAttribute("aria-current")).toBe("page");
    key({ key: "3", code: "Digit3", altKey: true });
    expect(screen.getByTestId("live-empty")).toBeTruthy();
  });

  it("opens the shortcuts help with ? and closes it with Escape", () => {
    installFakeTailLab();
    renderUi(<App />);
    key({ key: "?" });
    const dialog = screen.getByTestId("shortcuts-help");
    expect(dialog.textContent).toContain("Stop the running run");
    key({ key: "Escape" }, dialog);
    expect(screen.queryByTestId("shortcuts-help")).toBeNull();
  });

  it("runs the experiment on the builder with Ctrl+Enter", async () => {
    const fake = installFakeTailLab({ startRun: vi.fn(async () => ({ runId: "r1" })) });
    renderUi(<App />);
    act(() => useExperimentBuilder.getState().newExperiment());
    await act(async () => {
      fireEvent.keyDown(screen.getByTestId("experiment-clients"), { key: "Enter", ctrlKey: true });
    });
    expect(fake.startRun).toHaveBeenCalledTimes(1);
    expect(useNavigation.getState().route).toEqual({ view: "live" });
  });

  it("stops the run with Escape on the live screen, and with Ctrl+. anywhere", async () => {
    const fake = installFakeTailLab();
    useLiveRun.setState({ status: "running", runId: "r1", name: "Lab" });
    renderUi(<App />);
    key({ key: "Escape" });
    expect(fake.stopRun).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.keyDown(document.body, { key: ".", ctrlKey: true });
    });
    expect(fake.stopRun).toHaveBeenCalledTimes(1);

    useLiveRun.setState({ stopping: false });
    act(() => useNavigation.getState().navigate({ view: "live" }));
    await act(async () => {
      fireEvent.keyDown(document.body, { key: "Escape" });
    });
    expect(fake.stopRun).toHaveBeenCalledTimes(2);
  });

  it("switches the language at once and remembers it", () => {
    installFakeTailLab();
    renderUi(<App />);
    fireEvent.change(screen.getByTestId("language"), { target: { value: "zh-CN" } });
    expect(screen.getByTestId("nav-experiments").textContent).toBe("实验");
    expect(JSON.parse(localStorage.getItem("taillab.settings") ?? "{}")).toMatchObject({
      language: "zh-CN",
    });
  });

  it("shows a running run in the nav from any screen", () => {
    installFakeTailLab();
    renderUi(<App />);
    act(() =>
      useLiveRun.setState({ status: "running", runId: "r1", requestCount: 200, doneBefore: 50 }),
    );
    expect(screen.getByTestId("nav-live-running").textContent).toBe("25%");
  });

  it("shows how long a run with no end has run, on the run's clock, not 0 %", () => {
    installFakeTailLab();
    renderUi(<App />);
    const progress = {
      runId: "r1",
      pointIndex: 0,
      pointCount: 1,
      params: { clients: 16, samples: 0, objectSizeBytes: 4096 },
      op: "GET" as const,
      done: 5000,
      total: 0,
      errors: 0,
      opsPerSec: 400,
      p50Ms: 5,
      p99Ms: 30,
      elapsedMs: 65_000,
      runElapsedMs: 72_000,
    };
    act(() => useLiveRun.setState({ status: "running", runId: "r1", requestCount: 0, progress }));
    const shown = screen.getByTestId("nav-live-running");
    expect(shown.dataset.endless).toBe("true");
    expect(shown.textContent).toBe("1 min 12 s");
    expect(document.title).toBe("1 min 12 s · TailLab");
  });
});
