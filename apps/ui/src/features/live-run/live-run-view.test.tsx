import { coded, fieldError, type RequestMode, type RunEvent } from "@taillab/api";
import { act, fireEvent, screen } from "@testing-library/react";
import i18next from "i18next";
import { beforeEach, describe, expect, it } from "vitest";
import { useNavigation } from "../../app/navigation-store.ts";
import { installFakeTailLab, type FakeTailLab } from "../../shared/test-support/fake-taillab.ts";
import { renderUi } from "../../shared/test-support/render.tsx";
import { useLiveRun } from "./live-run-store.ts";
import { LiveRunView } from "./live-run-view.tsx";

const initialLive = useLiveRun.getState();

beforeEach(() => {
  useLiveRun.setState(initialLive, true);
});

const POINT = { clients: 8, samples: 256, objectSizeBytes: 32768 };

function started(
  runId: string,
  index = 0,
  count = 1,
  mode: RequestMode = "normal",
  name = "Lab 3",
): RunEvent {
  return {
    type: "started",
    runId,
    name,
    points: [POINT],
    requestCount: 512,
    series: { index, count, mode },
  };
}

function progress(runId: string, done: number): Extract<RunEvent, { type: "progress" }> {
  return {
    type: "progress",
    progress: {
      runId,
      pointIndex: 0,
      pointCount: 1,
      params: POINT,
      op: "PUT",
      done,
      total: 256,
      errors: 2,
      opsPerSec: 812.4,
      p50Ms: 4,
      p99Ms: 31,
      elapsedMs: 2000,
    },
    percentiles: { p50Ms: 4.2, p90Ms: 9.5, p99Ms: 31.25, p999Ms: 120, maxMs: 1012, count: done },
    intervals: {
      pointIndex: 0,
      op: "PUT",
      intervals: [
        {
          startMs: 0,
          lengthMs: 1000,
          requests: done,
          errors: 2,
          p50Ms: 4,
          p99Ms: 31,
          p999Ms: 120,
          maxMs: 1012,
        },
      ],
    },
  };
}

function connect(): FakeTailLab {
  const fake = installFakeTailLab();
  useLiveRun.getState().connect();
  return fake;
}

describe("live run screen", () => {
  it("points to Experiments when nothing runs", () => {
    renderUi(<LiveRunView />);
    expect(screen.getByTestId("live-empty")).toBeTruthy();
    expect(screen.getByTestId("live-status").dataset.status).toBe("idle");
  });

  it("says the backend's notices in the UI's language, and free-form ones as they came", async () => {
    const fake = connect();
    renderUi(<LiveRunView />);
    act(() => {
      fake.emit(started("r1"));
      fake.emit({
        type: "notice",
        runId: "r1",
        message: "deleting the 12 objects the run wrote and did not delete",
        notice: { code: "cleanupLeftovers", params: { objects: 12 } },
      });
      fake.emit({ type: "notice", runId: "r1", message: "replica 2 answers slowly" });
      fake.emit({
        type: "notice",
        runId: "r1",
        message: "embedded testbed listening on http://127.0.0.1:9000 (profile custom, seed 1)",
        notice: {
          code: "testbedStarted",
          params: { urls: ["http://127.0.0.1:9000"], profile: "custom", seed: 1 },
        },
      });
    });
    const items = () => [...screen.getByTestId("live-notices").querySelectorAll("li")];
    expect(items().map((item) => item.textContent)).toEqual([
      "Deleting the 12 objects the run wrote and did not delete",
      "replica 2 answers slowly",
      "Embedded testbed listening on http://127.0.0.1:9000 (profile custom, seed 1)",
    ]);
    await act(() => i18next.changeLanguage("zh-CN"));
    try {
      expect(items()[0]?.textContent).toBe("正在删除本次运行写入但未删除的 12 个对象");
      expect(items()[0]?.dataset.code).toBe("cleanupLeftovers");
      expect(items()[2]?.textContent).toBe(
        "内置测试床正在监听 http://127.0.0.1:9000（延迟配置 自定义，随机种子 1）",
      );
    } finally {
      await act(() => i18next.changeLanguage("en"));
    }
  });

  it("says why the next mode could not start, a distributed run's notice and a failed run's reason, in Chinese", async () => {
    const fake = connect();
    renderUi(<LiveRunView />);
    const missing = fieldError(
      "bucket",
      coded("atEndpoint", {
        url: "http://127.0.0.1:9000",
        problem: coded("bucketMissing", { bucket: "loadgen", code: "NoSuchBucket" }),
      }),
    );
    await act(() => i18next.changeLanguage("zh-CN"));
    try {
      act(() => {
        fake.emit(started("r1", 0, 2, "normal"));
        fake.emit({
          type: "notice",
          runId: "r1",
          message: "the hedged run could not start: …",
          notice: {
            code: "modeCouldNotStart",
            params: { mode: "hedged", reason: { message: "bucket: …", fields: [missing] } },
          },
        });
        fake.emit({
          type: "notice",
          runId: "r1",
          message: "the Job could not be deleted: forbidden",
          notice: { code: "jobNotDeleted", params: { error: "forbidden" } },
        });
        fake.emit({
          type: "finished",
          runId: "r1",
          status: "failed",
          error: { message: "bucket: …", fields: [missing] },
          series: { index: 0, count: 1, mode: "normal" },
          seriesRunIds: ["r1"],
        });
      });
      const items = [...screen.getByTestId("live-notices").querySelectorAll("li")];
      const reason =
        "bucket: 端点 http://127.0.0.1:9000：存储桶“loadgen”不存在（NoSuchBucket）；请创建它或使用 --create-bucket";
      expect(items.map((item) => item.textContent)).toEqual([
        `对冲运行未能启动：${reason}`,
        "无法删除 Job：forbidden",
      ]);
      expect(screen.getByTestId("live-finished").textContent).toContain(`运行失败：${reason}`);
    } finally {
      await act(() => i18next.changeLanguage("en"));
    }
  });

  it("says since when the server stopped answering, in the UI's language", async () => {
    const fake = connect();
    renderUi(<LiveRunView />);
    const params = {
      runStartEpochMs: Date.UTC(2026, 0, 2, 6, 12, 0),
      sinceMs: 32_400,
      silentMs: 5_200,
      failures: 40,
      lastError: "ECONNREFUSED",
      phase: "PUT",
    };
    act(() => {
      fake.emit(started("r1"));
      fake.emit({
        type: "notice",
        runId: "r1",
        message: "the server stopped answering at 06:12:32 UTC …",
        notice: { code: "serverLost", params },
      });
      // A lone client's silence: one request that got no answer in a whole timeout.
      fake.emit({
        type: "notice",
        runId: "r1",
        message: "the server stopped answering at 06:12:32 UTC …",
        notice: {
          code: "serverLost",
          params: { ...params, failures: 1, silentMs: 60_000, lastError: "ClientTimeout" },
        },
      });
    });
    const items = () => [...screen.getByTestId("live-notices").querySelectorAll("li")];
    const texts = () => items().map((item) => item.textContent);
    expect(texts()[0]).toMatch(
      /^The server stopped answering at .+ \(32 s into the run\): 40 requests in a row got no answer over 5 s, the last ECONNREFUSED; the PUT phase ended early$/,
    );
    expect(texts()[1]).toMatch(
      /^The server stopped answering at .+ \(32 s into the run\): a request got no answer over 1 min 00 s \(ClientTimeout\); the PUT phase ended early$/,
    );
    await act(() => i18next.changeLanguage("zh-CN"));
    try {
      expect(texts()[0]).toMatch(
        /连续 40 个请求在 5 s 内没有应答，最后一个为 ECONNREFUSED；PUT 阶段提前结束$/,
      );
      expect(texts()[1]).toMatch(/：一个请求在 .+ 内没有应答（ClientTimeout）；PUT 阶段提前结束$/);
    } finally {
      await act(() => i18next.changeLanguage("en"));
    }
  });

  it("counts down to the end of a run whose server is silent while its probe waits, and says what was not run", async () => {
    const fake = connect();
    renderUi(<LiveRunView />);
    const runStartEpochMs = Date.now() - 10_000;
    act(() => {
      fake.emit(started("r1"));
      fake.emit({
        type: "notice",
        runId: "r1",
        message: "asking the server once whether it answers again …",
        notice: { code: "serverProbe", params: { runStartEpochMs, deadlineMs: 10_000 + 4_500 } },
      });
    });
    const countdown = screen.getByTestId("probe-countdown");
    expect(countdown.dataset["seconds"]).toBe("5");
    expect(countdown.textContent).toBe(" (5 s left)");
    act(() => {
      fake.emit({
        type: "notice",
        runId: "r1",
        message: "the server did not answer again …",
        notice: {
          code: "serverGone",
          params: { probeError: "ClientTimeout", phases: ["GET", "DELETE"], points: 2 },
        },
      });
    });
    expect(screen.queryByTestId("probe-countdown")).toBeNull();
    // A series' later modes are not run against the gone server either.
    act(() => {
      fake.emit({
        type: "notice",
        runId: "r1",
        message: "the server did not answer again: the series ends here …",
        notice: { code: "modesNotRun", params: { modes: ["hedged", "tied"] } },
      });
    });
    const texts = () =>
      [...screen.getByTestId("live-notices").querySelectorAll("li")].map(
        (item) => item.textContent,
      );
    expect(texts().slice(-2)).toEqual([
      "The server did not answer again (ClientTimeout): the run ends here; not run: the GET, DELETE phases and 2 more points",
      "The server did not answer again: the series ends here; not run: the hedged, tied (client cancel) runs",
    ]);
    await act(() => i18next.changeLanguage("zh-CN"));
    try {
      expect(texts().at(-1)).toBe(
        "服务器仍未应答，本系列到此结束；未运行：对冲, 绑定（客户端取消）运行",
      );
    } finally {
      await act(() => i18next.changeLanguage("en"));
    }
  });

  it("says every request failed, not 'waiting', after an all-error run", () => {
    const fake = connect();
    renderUi(<LiveRunView />);
    act(() => {
      fake.emit(started("r1"));
    });
    expect(screen.getByTestId("live-timeline-empty").textContent).toBe(
      "Waiting for the first requests…",
    );
    const failed = progress("r1", 256);
    act(() => {
      fake.emit({
        ...failed,
        progress: { ...failed.progress, errors: 256, p50Ms: null, p99Ms: null },
        percentiles: null,
        intervals: null,
      });
      fake.emit({
        type: "finished",
        runId: "r1",
        status: "complete",
        error: null,
        series: { index: 0, count: 1, mode: "normal" },
        seriesRunIds: ["r1"],
      });
    });
    expect(screen.getByTestId("live-timeline-empty").dataset.reason).toBe("failed");
    expect(screen.getByTestId("live-timeline-empty").textContent).toMatch(/^Every request/);
    expect(screen.getByTestId("live-percentiles-empty").dataset.reason).toBe("failed");
  });

  it("shows progress, live percentiles and the stop button while running", async () => {
    const fake = connect();
    renderUi(<LiveRunView />);
    act(() => {
      fake.emit(started("r1"));
      fake.emit(progress("r1", 128));
    });
    expect(screen.getByTestId("live-status").dataset.status).toBe("running");
    const bar = screen.getByTestId("live-progress");
    expect(bar.dataset).toMatchObject({ done: "128", total: "512" });
    expect(bar.textContent).toContain("Point 1 of 1");
    expect(bar.textContent).toContain("8 clients · 256 requests · 32KiB");
    expect(bar.textContent).toContain("812 ops/s");
    expect(screen.getByTestId("live-p999-is-max").textContent).toBe("= max until 1,000 requests");
    expect(screen.getByTestId("live-p99").textContent).toContain("31.250 ms");
    expect(screen.getByTestId("live-max").textContent).toContain("1,012.0 ms");
    expect(screen.getByTestId("live-timeline")).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByTestId("live-stop")));
    expect(fake.stopRun).toHaveBeenCalledWith({ runId: "r1" });
    expect(screen.getByTestId("live-stop").textContent).toContain("Stopping");
  });

  it("draws the phase's percentiles per second and switches them to a log scale", () => {
    const fake = connect();
    renderUi(<LiveRunView />);
    act(() => {
      fake.emit(started("r1"));
      fake.emit(progress("r1", 128));
    });
    const chart = screen.getByTestId("live-timeline");
    expect(chart.closest<HTMLElement>(".timeline-box")?.dataset.intervals).toBe("1");
    expect(chart.dataset.logScale).toBe("false");
    fireEvent.click(screen.getByTestId("live-log-scale"));
    expect(useLiveRun.getState().logScale).toBe(true);
    expect(screen.getByTestId("live-timeline").dataset.logScale).toBe("true");
  });

  it("says how a run ended and opens its result", () => {
    const fake = connect();
    renderUi(<LiveRunView />);
    act(() => {
      fake.emit(started("r1"));
      fake.emit(progress("r1", 256));
      fake.emit({
        type: "finished",
        runId: "r1",
        status: "stopped",
        error: null,
        series: { index: 0, count: 1, mode: "normal" },
        seriesRunIds: ["r1"],
      });
    });
    expect(screen.getByTestId("live-status").dataset.status).toBe("stopped");
    expect(screen.getByTestId("live-finished").textContent).toContain("Stopped.");
    expect(screen.queryByTestId("live-stop")).toBeNull();
    expect(screen.queryByTestId("compare-modes")).toBeNull();
    fireEvent.click(screen.getByTestId("open-result"));
    expect(useNavigation.getState().route).toEqual({ view: "run", runId: "r1" });
  });

  it("shows a failed run's reason", () => {
    const fake = connect();
    renderUi(<LiveRunView />);
    act(() => {
      fake.emit(started("r1"));
      fake.emit({
        type: "finished",
        runId: "r1",
        status: "failed",
        error: { message: "endpoint http://127.0.0.1:9000 refused the connection" },
        series: { index: 0, count: 1, mode: "normal" },
        seriesRunIds: ["r1"],
      });
    });
    expect(screen.getByTestId("live-status").dataset.status).toBe("failed");
    expect(screen.getByTestId("live-finished").textContent).toContain("refused the connection");
  });

  it("offers to compare the modes when a series finished its last run", () => {
    const fake = connect();
    renderUi(<LiveRunView />);
    act(() => fake.emit(started("r3", 2, 3, "tied")));
    expect(screen.getByTestId("live-series").textContent).toBe("tied (client cancel) — 3 of 3");
    act(() =>
      fake.emit({
        type: "finished",
        runId: "r3",
        status: "complete",
        error: null,
        series: { index: 2, count: 3, mode: "tied" },
        seriesRunIds: ["r1", "r2", "r3"],
      }),
    );
    expect(screen.getByTestId("live-status").dataset.status).toBe("complete");
    expect(screen.getByTestId("live-progress").dataset).toMatchObject({
      done: "512",
      total: "512",
    });
    fireEvent.click(screen.getByTestId("compare-modes"));
    expect(useNavigation.getState().route).toEqual({ view: "compare", runIds: ["r1", "r2", "r3"] });
  });

  it("says in which point a sweep was stopped and how many points ran", () => {
    const fake = connect();
    renderUi(<LiveRunView />);
    const sweepPoints = [POINT, { ...POINT, clients: 16 }, { ...POINT, clients: 32 }];
    act(() => {
      const sweep = started("r4") as Extract<RunEvent, { type: "started" }>;
      fake.emit({ ...sweep, points: sweepPoints, requestCount: 2304 });
      const second = progress("r4", 40);
      fake.emit({ ...second, progress: { ...second.progress, pointIndex: 1, pointCount: 3 } });
      fake.emit({
        type: "finished",
        runId: "r4",
        status: "stopped",
        error: null,
        series: { index: 0, count: 1, mode: "normal" },
        seriesRunIds: ["r4"],
      });
    });
    const banner = screen.getByTestId("live-finished");
    expect(banner.dataset).toMatchObject({ pointsFinished: "1", pointCount: "3" });
    expect(banner.textContent).toContain("Stopped in point 2 of 3: 1 of 3 points finished.");
  });

  it("names the mode once and shows the whole series' progress beside the run's", () => {
    const fake = connect();
    renderUi(<LiveRunView />);
    act(() => {
      fake.emit(started("r2", 1, 3, "hedged", "Lab 3 (hedged)"));
      fake.emit(progress("r2", 128));
    });
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Lab 3");
    expect(screen.getByTestId("live-series").textContent).toBe("hedged — 2 of 3");
    // Joined at the second run: the first is taken as done (512 requests).
    expect(screen.getByTestId("live-progress").dataset).toMatchObject({
      done: "128",
      total: "512",
      seriesDone: "640",
      seriesTotal: "1536",
    });
    expect(screen.getByTestId("live-series-progress").textContent).toContain(
      "Run 2 of 3 · 640 of 1,536 requests in all",
    );
    expect(screen.getByTestId("live-run-progress").textContent).toContain(
      "This run (hedged): 128 of 512 requests",
    );
  });

  it("joins the run in progress when it opens", async () => {
    installFakeTailLab({
      activeRun: async () => ({
        runId: "r5",
        name: "Already going",
        points: [POINT],
        requestCount: 512,
        startedAt: new Date().toISOString(),
        series: { index: 0, count: 1, mode: "normal" },
        lastProgress: null,
        shards: null,
      }),
    });
    await act(async () => {
      useLiveRun.getState().connect();
    });
    renderUi(<LiveRunView />);
    expect(screen.getByTestId("live-status").dataset.status).toBe("running");
    expect(screen.getByText("Already going")).toBeTruthy();
  });
});
