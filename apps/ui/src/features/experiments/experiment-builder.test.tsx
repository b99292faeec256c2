import { coded, fieldError, type ExperimentPreview } from "@taillab/api";
import { act, fireEvent, screen, within } from "@testing-library/react";
import i18next from "i18next";
import { describe, expect, it, vi } from "vitest";
import { installFakeTailLab } from "../../shared/test-support/fake-taillab.ts";
import { renderUi } from "../../shared/test-support/render.tsx";
import { experiment } from "../../shared/test-support/sample-data.ts";
import { formatMs } from "@taillab/report";
import { useNavigation } from "../../app/navigation-store.ts";
import { useLiveRun } from "../live-run/live-run-store.ts";
import { runDetailFixture } from "../runs/test-support/run-fixtures.ts";
import { PREVIEW_DEBOUNCE_MS, useExperimentBuilder } from "./experiment-builder-store.ts";
import { ExperimentsView } from "./experiments-view.tsx";
import { freshBuilderEachTest } from "./test-support/fresh-builder.ts";

freshBuilderEachTest({ shouldAdvanceTime: true });

const PREVIEW: ExperimentPreview = {
  ok: true,
  points: Array.from({ length: 15 }, (_, index) => ({
    clients: index + 1,
    samples: 256,
    objectSizeBytes: 32768,
  })),
  requestCount: 11520,
  durationMs: 95_000,
};

const settle = () => act(() => vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS));

describe("experiments screen", () => {
  it("lists built-in labs apart from saved experiments", async () => {
    installFakeTailLab({
      listExperiments: vi.fn(async () => [
        experiment({ id: "lab", name: "Lab 2", builtIn: true }),
        experiment({
          id: "mine",
          name: "Mine",
          spec: { clients: [1, 4, 8], samples: 3000, objectSize: "4KiB", mode: "hedged" },
        }),
      ]),
    });
    renderUi(<ExperimentsView />);
    const rows = await screen.findAllByTestId("experiment-row");
    expect(rows.map((row) => [row.dataset.name, row.dataset.builtIn])).toEqual([
      ["Lab 2", "true"],
      ["Mine", "false"],
    ]);
    expect(rows[1]?.textContent).toContain("1, 4, 8 clients · 3,000 requests per phase · 4 KiB");
    expect(rows[1]?.textContent).toContain("Hedged");
    const headers = screen.getAllByRole("columnheader").map((header) => header.textContent);
    expect(headers.slice(0, 3)).toEqual(["Experiment", "Sweep", "Modes"]);
  });

  it("names the built-in labs in the UI's language, by their id", async () => {
    installFakeTailLab({
      listExperiments: vi.fn(async () => [
        experiment({
          id: "builtin-tail-modes",
          name: "Tail latency: normal vs hedged vs tied",
          description: "Two testbed replicas…",
          builtIn: true,
        }),
        experiment({ id: "builtin-new", name: "A lab this UI has no text for", builtIn: true }),
      ]),
    });
    await act(() => i18next.changeLanguage("zh-CN"));
    try {
      renderUi(<ExperimentsView />);
      const rows = await screen.findAllByTestId("experiment-row");
      expect(rows[0]?.dataset.name).toBe("Tail latency: normal vs hedged vs tied");
      expect(rows[0]?.textContent).toContain("尾延迟：普通、对冲与绑定");
      expect(rows[0]?.textContent).toContain("两个测试床副本");
      expect(rows[1]?.textContent).toContain("A lab this UI has no text for");
    } finally {
      await act(() => i18next.changeLanguage("en"));
    }
  });

  it("builds a new experiment and shows what it would run", async () => {
    installFakeTailLab({ previewExperiment: vi.fn(async () => PREVIEW) });
    renderUi(<ExperimentsView />);
    fireEvent.click(screen.getByTestId("experiment-new"));
    fireEvent.change(screen.getByTestId("experiment-clients"), { target: { value: "1, 2, 3" } });
    await settle();
    const preview = screen.getByTestId("sweep-preview");
    expect(preview.dataset).toMatchObject({ state: "ok", points: "15", requests: "11520" });
    expect(preview.textContent).toContain("11,520");
    expect(preview.textContent).toContain("about 1 min 35 s");
    expect(preview.querySelectorAll("tbody tr")).toHaveLength(12);
    expect(preview.textContent).toContain("and 3 more");
  });

  it("fills in a size sweep at a fixed total, and shows each point's bytes", async () => {
    const fake = installFakeTailLab({
      previewExperiment: vi.fn(async () => ({
        ok: true as const,
        points: [
          { clients: 1, samples: 512, objectSizeBytes: 8192 },
          { clients: 1, samples: 2, objectSizeBytes: 2 * 1024 * 1024 },
        ],
        requestCount: 1542,
        durationMs: null,
      })),
    });
    renderUi(<ExperimentsView />);
    fireEvent.click(screen.getByTestId("experiment-new"));
    fireEvent.change(screen.getByTestId("fixed-total-sizes"), { target: { value: "8KiB, 2MiB" } });
    fireEvent.click(screen.getByTestId("fixed-total-fill"));
    expect((screen.getByTestId("experiment-points") as HTMLTextAreaElement).value).toBe(
      "1 × 512 × 8KiB\n1 × 2 × 2MiB",
    );
    await settle();
    expect(vi.mocked(fake.previewExperiment).mock.lastCall?.[0].spec.points).toEqual([
      { clients: 1, samples: 512, objectSize: "8KiB" },
      { clients: 1, samples: 2, objectSize: "2MiB" },
    ]);
    expect(screen.getAllByTestId("sweep-preview-bytes").map((cell) => cell.textContent)).toEqual([
      "4 MiB",
      "4 MiB",
    ]);
    fireEvent.change(screen.getByTestId("fixed-total-bytes"), { target: { value: "lots" } });
    fireEvent.click(screen.getByTestId("fixed-total-fill"));
    expect(screen.getByTestId("fixed-total").textContent).toMatch(/"lots" is not a size/);
  });

  it("walks through the tail-latency lab, runs it, and concludes from the class's own runs", async () => {
    const lab = experiment({ id: "builtin-tail-modes", name: "Tail lab", builtIn: true });
    const runs = {
      n: runDetailFixture({ runId: "n", name: "Tail lab (normal)", medianUs: 6000 }),
      h: runDetailFixture({
        runId: "h",
        name: "Tail lab (hedged)",
        mode: "hedged",
        medianUs: 3000,
      }),
      t: runDetailFixture({ runId: "t", name: "Tail lab (tied)", mode: "tied", medianUs: 2000 }),
    };
    const fake = installFakeTailLab({
      listExperiments: vi.fn(async () => [lab]),
      startRun: vi.fn(async () => ({ runId: "n" })),
      getRun: vi.fn(async ({ runId }: { runId: string }) => runs[runId as keyof typeof runs]),
    });
    renderUi(<ExperimentsView />);
    await screen.findAllByTestId("experiment-row");
    fireEvent.click(screen.getByTestId("tail-guide-open"));
    const guide = () => screen.getByTestId("tail-guide");
    expect(guide().dataset.step).toBe("why");
    expect(guide().textContent).toContain("step 1 of 8");
    // The lab's stalls are 1 % of requests: at the edge of p99, all of p99.9.
    expect(guide().textContent).toContain("all of the p99.9");
    fireEvent.click(screen.getByTestId("tail-guide-next"));
    fireEvent.click(screen.getByTestId("tail-guide-next"));
    expect(guide().dataset.step).toBe("run");
    fireEvent.click(screen.getByTestId("tail-guide-run"));
    await vi.waitFor(() => expect(useNavigation.getState().route).toEqual({ view: "live" }));
    expect(fake.startRun).toHaveBeenCalledWith({
      experiment: expect.objectContaining({ name: "Tail lab", endpointId: lab.endpointId }),
    });
    // The builder stays closed (no lab settings to come back to); the guide stays at its step.
    expect(useExperimentBuilder.getState().open).toBe(false);
    expect(guide().dataset.step).toBe("run");
    fireEvent.click(screen.getByTestId("tail-guide-next"));
    expect(guide().dataset.step).toBe("compare");
    expect(screen.queryByTestId("tail-guide-compare")).toBeNull();

    // The series ends on the live screen: the guide compares and concludes on its runs.
    act(() =>
      useLiveRun.setState({
        runId: "t",
        status: "finished",
        finished: {
          status: "complete",
          error: null,
          series: { index: 2, count: 3, mode: "tied" },
          seriesRunIds: ["n", "h", "t"],
        },
      }),
    );
    fireEvent.click(screen.getByTestId("tail-guide-compare"));
    expect(useNavigation.getState().route).toEqual({ view: "compare", runIds: ["n", "h", "t"] });
    while (guide().dataset.step !== "conclusion") {
      fireEvent.click(screen.getByTestId("tail-guide-next"));
    }
    const conclusion = await screen.findByTestId("tail-guide-conclusion");
    const normalP999 = runs.n.summary.points[0]!.phases.find((phase) => phase.op === "GET")!
      .latencyMs!.p999;
    expect(conclusion.textContent).toContain(`p99.9 ${formatMs(normalP999)} ms`);
    const verdicts = within(conclusion).getAllByTestId("mode-verdict");
    expect(verdicts.map((verdict) => verdict.dataset.mode)).toEqual(["hedged", "tied"]);
    expect(conclusion.dataset.hedgingCut).toBe(
      String(Number(verdicts[0]!.dataset.p999ChangePct) < 0),
    );
    // A reload keeps the step and the lab's runs.
    expect(JSON.parse(sessionStorage.getItem("taillab.guide") ?? "{}")).toMatchObject({
      open: true,
      step: 6,
      labRunIds: ["n", "h", "t"],
    });
  });

  it.each([
    [
      "en",
      [
        "Cancelled by the client, both copies run until one answers",
        "Cancelled by the servers, as in The Tail at Scale",
        "“Tied requests: client vs server cancellation”",
        "“Live tail lab”",
      ],
      "Run “Tied requests: client vs server cancellation”",
    ],
    [
      "zh-CN",
      [
        "由客户端取消时，两份都会运行到其中一份应答",
        "按《The Tail at Scale》的做法由服务端取消时",
        "“绑定请求：客户端取消与服务端取消”",
        "“实时尾延迟实验”",
      ],
      "运行“绑定请求：客户端取消与服务端取消”",
    ],
  ])(
    "says when tied wins in %s: client and server cancellation, and the two labs to run",
    async (language, sentences, button) => {
      const labs = ["builtin-tail-modes", "builtin-tied-cancel", "builtin-live-tail"].map((id) =>
        experiment({ id, name: id, builtIn: true }),
      );
      const fake = installFakeTailLab({
        listExperiments: vi.fn(async () => labs),
        startRun: vi.fn(async () => ({ runId: "tied" })),
      });
      await act(() => i18next.changeLanguage(language));
      try {
        renderUi(<ExperimentsView />);
        await screen.findAllByTestId("experiment-row");
        fireEvent.click(screen.getByTestId("tail-guide-open"));
        const guide = screen.getByTestId("tail-guide");
        while (guide.dataset.step !== "tied")
          fireEvent.click(screen.getByTestId("tail-guide-next"));
        for (const sentence of sentences) expect(guide.textContent).toContain(sentence);
        const run = screen.getByTestId("tail-guide-run-builtin-tied-cancel");
        expect(run.textContent).toBe(button);
        expect(screen.getByTestId("tail-guide-run-builtin-live-tail")).toBeTruthy();
        fireEvent.click(run);
        await vi.waitFor(() =>
          expect(fake.startRun).toHaveBeenCalledWith({
            experiment: expect.objectContaining({ name: "builtin-tied-cancel" }),
          }),
        );
      } finally {
        await act(() => i18next.changeLanguage("en"));
      }
    },
  );

  it("keeps a draft and its fixed-total boxes when the builder is left, and asks before New discards it", async () => {
    installFakeTailLab();
    renderUi(<ExperimentsView />);
    fireEvent.click(screen.getByTestId("experiment-new"));
    fireEvent.change(screen.getByTestId("experiment-name"), { target: { value: "Sizes" } });
    fireEvent.change(screen.getByTestId("fixed-total-sizes"), { target: { value: "8KiB, 2MiB" } });
    fireEvent.click(screen.getByTestId("experiment-back"));
    // New experiment with an unsaved draft: it asks, and the draft stays until told.
    fireEvent.click(screen.getByTestId("experiment-new"));
    const banner = screen.getByTestId("experiment-draft");
    expect(banner.dataset.askingNew).toBe("true");
    expect(banner.textContent).toContain(
      "“Sizes” is not saved: a new experiment would discard it.",
    );
    fireEvent.click(screen.getByTestId("experiment-draft-continue"));
    expect((screen.getByTestId("experiment-name") as HTMLInputElement).value).toBe("Sizes");
    expect((screen.getByTestId("fixed-total-sizes") as HTMLInputElement).value).toBe("8KiB, 2MiB");
    fireEvent.click(screen.getByTestId("experiment-back"));
    fireEvent.click(screen.getByTestId("experiment-new"));
    fireEvent.click(screen.getByTestId("experiment-draft-discard"));
    expect((screen.getByTestId("experiment-name") as HTMLInputElement).value).toBe("");
  });

  it("shows the preview's errors at their fields", async () => {
    installFakeTailLab({
      previewExperiment: vi.fn(async () => ({
        ok: false as const,
        errors: [{ field: "spec.clients[1]", message: "expected a whole number of clients" }],
      })),
    });
    renderUi(<ExperimentsView />);
    fireEvent.click(screen.getByTestId("experiment-new"));
    fireEvent.change(screen.getByTestId("experiment-clients"), { target: { value: "1, x" } });
    await settle();
    expect(screen.getByText("“x”: expected a whole number of clients")).toBeTruthy();
    expect(screen.getByTestId("sweep-preview").dataset.state).toBe("invalid");
    expect((screen.getByTestId("experiment-clients") as HTMLInputElement).value).toBe("1, x");
  });

  it("warns at the clients field about counts this machine cannot hold, before Run", async () => {
    const limit =
      "100000 clients need 200000 open files (a connection per client and replica); this machine allows 65536";
    const fake = installFakeTailLab({
      previewExperiment: vi.fn(async (draft) =>
        (draft.spec as { clients?: number[] }).clients?.[0] === 100_000
          ? { ok: false as const, errors: [{ field: "spec.clients", message: limit }] }
          : PREVIEW,
      ),
    });
    renderUi(<ExperimentsView />);
    fireEvent.click(screen.getByTestId("experiment-new"));
    fireEvent.change(screen.getByTestId("experiment-clients"), { target: { value: "100000" } });
    await settle();
    const field = screen.getByTestId("experiment-clients").closest(".field") as HTMLElement;
    expect(field.dataset.invalid).toBe("true");
    expect(within(field).getByRole("alert").textContent).toBe(limit);
    expect(fake.startRun).not.toHaveBeenCalled();
    // Back within the machine's means, the warning goes.
    fireEvent.change(screen.getByTestId("experiment-clients"), { target: { value: "1000" } });
    await settle();
    expect(field.dataset.invalid).toBeUndefined();
  });

  it("says the backend's field errors in Chinese on a Chinese screen, the machine's limit too", async () => {
    const ports = coded("clientsNeedPorts", {
      clients: 100_000,
      connections: 100_000,
      ports: 28_232,
      most: 28_232,
    });
    installFakeTailLab({
      previewExperiment: vi.fn(async () => ({
        ok: false as const,
        errors: [
          fieldError("spec.clients", ports),
          fieldError("spec.samples[1]", coded("countNotWhole", { units: coded("unitSamples") })),
        ],
      })),
    });
    await act(() => i18next.changeLanguage("zh-CN"));
    try {
      renderUi(<ExperimentsView />);
      fireEvent.click(screen.getByTestId("experiment-new"));
      fireEvent.change(screen.getByTestId("experiment-samples"), { target: { value: "10, x" } });
      await settle();
      const alertAt = (testId: string) =>
        within(screen.getByTestId(testId).closest(".field") as HTMLElement).getByRole("alert")
          .textContent;
      expect(alertAt("experiment-clients")).toBe(
        "100000 个客户端需要到每台服务器 100000 条连接，但本机只有 28232 个本地端口可用（net.ipv4.ip_local_port_range）；请每台服务器最多使用 28232 个客户端，或增加副本",
      );
      expect(alertAt("experiment-samples")).toBe("“x”：请求数应为整数");
    } finally {
      await act(() => i18next.changeLanguage("en"));
    }
  });

  it("previews an open loop until stopped as going on until stopped", async () => {
    installFakeTailLab({
      previewExperiment: vi.fn(async () => ({
        ok: true as const,
        points: [{ clients: 16, samples: 0, objectSizeBytes: 4096 }],
        requestCount: 0,
        durationMs: null,
      })),
    });
    renderUi(<ExperimentsView />);
    fireEvent.click(screen.getByTestId("experiment-new"));
    await settle();
    expect(screen.getByTestId("sweep-preview-requests").textContent).toBe("∞");
    expect(screen.getByTestId("sweep-preview").textContent).toContain("runs until you stop it");
  });

  it("shows the testbed section and the hedge options when they apply", async () => {
    installFakeTailLab();
    renderUi(<ExperimentsView />);
    fireEvent.click(screen.getByTestId("experiment-new"));
    expect(screen.getByTestId("experiment-testbed")).toBeTruthy();
    expect(screen.queryByTestId("experiment-hedge-percentile")).toBeNull();
    fireEvent.change(screen.getByTestId("experiment-mode"), { target: { value: "hedged" } });
    expect(screen.getByTestId("experiment-hedge-percentile")).toBeTruthy();
    fireEvent.change(screen.getByTestId("experiment-endpoint"), { target: { value: "e1" } });
    expect(screen.queryByTestId("experiment-testbed")).toBeNull();
    await settle();
  });

  it("keeps an unsaved draft when leaving the builder", async () => {
    installFakeTailLab();
    renderUi(<ExperimentsView />);
    fireEvent.click(screen.getByTestId("experiment-new"));
    fireEvent.change(screen.getByTestId("experiment-name"), { target: { value: "Half done" } });
    fireEvent.click(screen.getByTestId("experiment-back"));
    expect(screen.getByTestId("experiment-draft").textContent).toContain("Half done");
    fireEvent.click(screen.getByTestId("experiment-draft-continue"));
    expect((screen.getByTestId("experiment-name") as HTMLInputElement).value).toBe("Half done");
    await settle();
  });
});
