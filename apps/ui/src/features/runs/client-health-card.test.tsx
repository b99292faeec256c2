import {
  RunSpecSchema,
  type ExperimentDraftInput,
  type PhaseSummary,
  type RunMeta,
} from "@taillab/api";
import { act, fireEvent, screen } from "@testing-library/react";
import i18next from "i18next";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderUi } from "../../shared/test-support/render.tsx";
import { useExperimentBuilder } from "../experiments/experiment-builder-store.ts";
import { ClientHealthCard } from "./client-health-card.tsx";
import { useRunDetail } from "./run-detail-store.ts";

const initialBuilder = useExperimentBuilder.getState();
const initialDetail = useRunDetail.getState();
let drafts: ExperimentDraftInput[] = [];

beforeEach(() => {
  drafts = [];
  useExperimentBuilder.setState({
    busy: null,
    runDraft: async (draft) => {
      drafts.push(draft);
    },
  });
  useRunDetail.setState({ runId: "run-1", origin: { endpointId: "ep-1", experimentId: null } });
});
afterEach(async () => {
  useExperimentBuilder.setState(initialBuilder, true);
  useRunDetail.setState(initialDetail, true);
  await act(() => i18next.changeLanguage("en"));
});

const META = {
  id: "run-1",
  name: "GET against a frozen server",
  spec: RunSpecSchema.parse({ clients: [8], samples: [4000], objectSize: ["4KiB"] }),
} as RunMeta;

const latency = (p99: number, max: number) => ({
  min: 1,
  p25: 2,
  p50: 3,
  p75: 4,
  p90: 5,
  p99,
  p999: max,
  p9999: max,
  max,
  mean: 4,
  stdev: 2,
});

const FROZEN: PhaseSummary = {
  op: "GET",
  loop: "closed",
  requests: 4000,
  errors: 0,
  errorsByCode: {},
  bytes: 0,
  durationMs: 10_000,
  throughputMBps: 0,
  opsPerSec: 400,
  steady: null,
  latencyMs: latency(30.7, 1004),
  clientQueueMs: null,
  serviceMs: null,
  ttfbMs: null,
  transferMs: null,
  missedStarts: 0,
  tail: {
    p99: {
      fromMs: 40,
      requests: 40,
      meanMs: 300,
      clientQueueMs: 1,
      hedgeWaitMs: 0,
      serverMs: 290,
      transferMs: 9,
    },
    p999: {
      fromMs: 900,
      requests: 4,
      meanMs: 1000,
      clientQueueMs: 1,
      hedgeWaitMs: 0,
      serverMs: 990,
      transferMs: 9,
    },
  },
  completionGapMs: 980,
  client: {
    version: 1,
    verdict: { keptUp: false, reasons: ["clients-per-worker"] },
    figures: {
      cpuCores: 1,
      availableCores: 2,
      busiestWorkerCpu: 0.96,
      eventLoopDelayP99Ms: 4,
      stallShare: 0.02,
      starts: 4000,
      missedStarts: 0,
      behindMs: 0,
      shed: 0,
    },
    workers: 1,
    clientsPerWorker: 8,
    tailStallMs: { p99: 12.5, p999: 2 },
    arrivals: null,
    seconds: [],
  },
};

describe("ClientHealthCard", () => {
  it("says the client was the bottleneck and what the closed loop left out, and runs the open-loop equivalent", () => {
    renderUi(<ClientHealthCard phase={FROZEN} meta={META} />);
    expect(screen.getByTestId("client-verdict").textContent).toContain(
      "TailLab's own client was the bottleneck in this phase",
    );
    expect(screen.getByTestId("client-verdict").textContent).toContain("Try: more workers");
    expect(screen.getByTestId("client-tail-stall").textContent).toContain(
      "(290.0 ms with it), 12.5 ms was the client's own stall",
    );
    const note = screen.getByTestId("omission-note");
    expect(note.dataset.strength).toBe("strong");
    expect(note.textContent).toContain("nothing completed for 980 ms while every client waited");
    expect(note.textContent).toContain("--rate 360/s");
    fireEvent.click(screen.getByTestId("run-open-loop"));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]?.endpointId).toBe("ep-1");
    expect(drafts[0]?.spec).toMatchObject({ openLoop: { rateHz: 360 }, clients: [8] });
  });

  it("runs the open-loop equivalent on the run's replicas too", () => {
    useRunDetail.setState({
      origin: { endpointId: "ep-1", replicaEndpointIds: ["ep-2", "ep-3"], experimentId: null },
    });
    renderUi(<ClientHealthCard phase={FROZEN} meta={META} />);
    fireEvent.click(screen.getByTestId("run-open-loop"));
    expect(drafts[0]).toMatchObject({ endpointId: "ep-1", replicaEndpointIds: ["ep-2", "ep-3"] });
    expect(drafts[0]?.spec).toMatchObject({ openLoop: { rateHz: 360 } });
  });

  it.each([
    ["en", "The shards whose client was the bottleneck: 0, 2."],
    ["zh-CN", "客户端是瓶颈的分片：0, 2。"],
  ])(
    "names a distributed run's shards whose client was the bottleneck (%s)",
    async (language, text) => {
      await act(() => i18next.changeLanguage(language));
      const merged: PhaseSummary = {
        ...FROZEN,
        client: { ...FROZEN.client!, boundShards: [0, 2] },
      };
      renderUi(<ClientHealthCard phase={merged} meta={META} />);
      expect(screen.getByTestId("client-bound-shards").textContent).toBe(text);
    },
  );

  it("names no shard outside a distributed run", () => {
    renderUi(<ClientHealthCard phase={FROZEN} meta={META} />);
    expect(screen.queryByTestId("client-bound-shards")).toBeNull();
  });

  it("gives every closed loop a plain note, and says an open loop kept every arrival", () => {
    const steady = { ...FROZEN, latencyMs: latency(30, 40), completionGapMs: 20 };
    const { unmount } = renderUi(<ClientHealthCard phase={steady} meta={META} />);
    expect(screen.getByTestId("omission-note").dataset.strength).toBe("note");
    unmount();
    const open: PhaseSummary = {
      ...FROZEN,
      loop: "open",
      missedStarts: 12,
      client: { ...FROZEN.client!, verdict: { keptUp: true, reasons: [] }, arrivals: "kept" },
    };
    renderUi(<ClientHealthCard phase={open} meta={META} />);
    expect(screen.queryByTestId("omission-note")).toBeNull();
    expect(screen.getByTestId("client-health").textContent).toContain("Every arrival was kept");
  });

  it("speaks Chinese", async () => {
    await act(() => i18next.changeLanguage("zh-CN"));
    renderUi(<ClientHealthCard phase={FROZEN} meta={META} />);
    expect(screen.getByTestId("client-verdict").textContent).toContain(
      "瓶颈是 TailLab 自己的客户端",
    );
    expect(screen.getByTestId("omission-note").textContent).toContain("协调遗漏");
    expect(screen.getByTestId("run-open-loop").textContent).toContain("以 360/s 的开环运行");
  });
});
