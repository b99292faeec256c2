import {
  AppError,
  KubernetesSettingsSchema,
  type RunDetail,
  type ShardsStatus,
} from "@taillab/api";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import i18next from "i18next";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { SettingsBar } from "../../app/settings-bar.tsx";
import { installFakeTailLab } from "../../shared/test-support/fake-taillab.ts";
import { renderUi } from "../../shared/test-support/render.tsx";
import {
  experimentToForm,
  formToDraft,
  newExperimentForm,
} from "../experiments/experiment-form.ts";
import { useLiveRun } from "../live-run/live-run-store.ts";
import { LiveRunView } from "../live-run/live-run-view.tsx";
import { RunDetailView } from "../runs/run-detail-view.tsx";
import { useRunDetail } from "../runs/run-detail-store.ts";
import { runDetailFixture } from "../runs/test-support/run-fixtures.ts";
import { useKubernetesSettings } from "./kubernetes-settings-store.ts";
import { shardStates } from "./shards-status.ts";

const status = (overrides: Partial<ShardsStatus> = {}): ShardsStatus => ({
  shardCount: 5,
  podsReady: 4,
  ready: [0, 1, 2, 3],
  running: [1, 2],
  done: [0],
  failed: [4],
  job: "running",
  message: null,
  ...overrides,
});

describe("the Kubernetes settings", () => {
  beforeEach(() => {
    useKubernetesSettings.setState({ open: false, errors: {}, error: null });
  });

  it("opens from the header on the saved settings and saves what was typed", async () => {
    const api = installFakeTailLab({
      kubernetesSettings: vi.fn(async () =>
        KubernetesSettingsSchema.parse({ kubeconfig: "/home/lab/.kube/config", context: "lab" }),
      ),
    });
    renderUi(<SettingsBar />);
    fireEvent.click(screen.getByTestId("kubernetes-settings-button"));
    const context = (await screen.findByTestId("kubernetes-context")) as HTMLInputElement;
    await waitFor(() => expect(context.value).toBe("lab"));
    fireEvent.change(screen.getByTestId("kubernetes-namespace"), { target: { value: "bench" } });
    fireEvent.change(screen.getByTestId("kubernetes-image"), {
      target: { value: "registry.lab/taillab:0.1.0" },
    });
    await act(async () => fireEvent.click(screen.getByTestId("kubernetes-settings-save")));
    expect(api.saveKubernetesSettings).toHaveBeenCalledWith(
      KubernetesSettingsSchema.parse({
        kubeconfig: "/home/lab/.kube/config",
        context: "lab",
        namespace: "bench",
        image: "registry.lab/taillab:0.1.0",
      }),
    );
    expect(screen.queryByTestId("kubernetes-settings")).toBeNull();
  });

  it("shows the backend's reason at the box it is about", async () => {
    installFakeTailLab({
      saveKubernetesSettings: vi.fn(async () => {
        throw new AppError({
          message: "bad input",
          fields: [{ field: "namespace", message: '"Bench" is not a namespace name' }],
        });
      }),
    });
    renderUi(<SettingsBar />);
    fireEvent.click(screen.getByTestId("kubernetes-settings-button"));
    await screen.findByTestId("kubernetes-namespace");
    await act(async () => fireEvent.click(screen.getByTestId("kubernetes-settings-save")));
    expect(screen.getByTestId("kubernetes-settings").textContent).toContain(
      '"Bench" is not a namespace name',
    );
  });
});

describe("load generators in the experiment builder", () => {
  it("sends N pods on Kubernetes with the draft, and reads them back", () => {
    const form = {
      ...newExperimentForm("minio"),
      loadGenerators: "kubernetes" as const,
      shards: "8",
    };
    const draft = formToDraft(form, {}, { testbed: false });
    expect(draft.loadGenerators).toEqual({ kind: "kubernetes", shards: 8 });
    expect(experimentToForm(draft)).toMatchObject({ loadGenerators: "kubernetes", shards: "8" });
    const local = formToDraft(newExperimentForm("minio"), {}, { testbed: false });
    expect(local.loadGenerators).toBeUndefined();
  });
});

describe("a distributed run's shards", () => {
  const initialLive = useLiveRun.getState();
  beforeEach(() => {
    useLiveRun.setState(initialLive, true);
  });

  it("tells each shard's state, failed first", () => {
    expect(shardStates(status())).toEqual(["done", "running", "running", "ready", "failed"]);
  });

  it("shows on the live screen as the shards event says", () => {
    const api = installFakeTailLab();
    useLiveRun.getState().connect();
    renderUi(<LiveRunView />);
    act(() => {
      api.emit({
        type: "started",
        runId: "d1",
        name: "On the cluster",
        points: [{ clients: 8, samples: 800, objectSizeBytes: 4096 }],
        requestCount: 2400,
        series: { index: 0, count: 1, mode: "normal" },
      });
      api.emit({ type: "shards", runId: "d1", status: status() });
    });
    const cells = screen.getAllByTestId("live-shard");
    expect(cells.map((cell) => cell.dataset.state)).toEqual([
      "done",
      "running",
      "running",
      "ready",
      "failed",
    ]);
    expect(screen.getByTestId("live-shards-summary").textContent).toBe(
      "4 of 5 pods ready · 4 at the start barrier · 2 running · 1 done · 1 failed",
    );
  });

  it("shows each shard's figures beside the merged ones in the run detail, and why one is missing", async () => {
    useRunDetail.setState({ runId: null, detail: null, choice: null, error: null });
    const fixture = runDetailFixture();
    const phases = fixture.summary.points[0]!.phases;
    const detail: RunDetail = {
      ...fixture,
      summary: {
        ...fixture.summary,
        distributed: {
          shardCount: 2,
          t0: "2026-11-25T06:00:00.000Z",
          startSpreadMs: 1.25,
          clockSkewMs: 12,
          clockSkewBoundMs: 1000,
          merged: [0],
          shards: [
            {
              index: 0,
              status: "complete",
              problem: null,
              startOffsetMs: 0.5,
              clock: { offsetMs: 3, boundMs: 500 },
              points: [{ params: { clients: 4, samples: 128, objectSizeBytes: 32768 }, phases }],
            },
            {
              index: 1,
              status: "missing",
              problem: "started but left no result: killed or cut off mid-run",
              startOffsetMs: null,
              clock: null,
              points: [],
            },
          ],
        },
      },
    };
    installFakeTailLab({ getRun: vi.fn(async () => detail) });
    renderUi(<RunDetailView runId={detail.meta.id} />);
    await screen.findByTestId("shard-breakdown");
    const rows = screen.getAllByTestId("shard-row");
    expect(
      rows.map((row) => [
        row.dataset.shard,
        row.dataset.status,
        row.dataset.op,
        row.dataset.requests,
      ]),
    ).toEqual([
      ...phases.map((phase) => ["0", "complete", phase.op, String(phase.requests)]),
      ["1", "missing", undefined, undefined],
    ]);
    expect(rows.at(-1)?.textContent).toContain("killed or cut off mid-run");
    const headings = within(screen.getByTestId("shard-breakdown")).getAllByRole("columnheader");
    expect(headings.map((cell) => cell.textContent)).toContain("Requests");
    expect(screen.getByTestId("shard-breakdown-header").textContent).toBe(
      "1 of 2 shards merged · start spread 1.250 ms · clock skew 12 ± 1,000 ms",
    );
  });
  it.each(["en", "zh-CN"])(
    "says in %s why a shard's clock kept the run from starting, why clocks far apart give no spread, and what a killed shard left",
    async (language) => {
      await act(() => i18next.changeLanguage(language));
      try {
        useRunDetail.setState({ runId: null, detail: null, choice: null, error: null });
        const fixture = runDetailFixture();
        const shard = { startOffsetMs: null, points: [] };
        const detail: RunDetail = {
          ...fixture,
          meta: { ...fixture.meta, cleanup: null },
          summary: {
            ...fixture.summary,
            distributed: {
              shardCount: 3,
              t0: null,
              startSpreadMs: null,
              clockSkewMs: 3100,
              clockSkewBoundMs: 540,
              clocksApart: { shards: [0, 1], apartMs: 3100, boundMs: 540 },
              merged: [1],
              shards: [
                { ...shard, index: 0, status: "missing", problem: "did not start", clock: null },
                {
                  ...shard,
                  index: 1,
                  status: "failed",
                  problem: "shard 1: this machine's clock is about 3.0 s ahead (…)",
                  clock: { offsetMs: -3000, boundMs: 40 },
                },
                {
                  ...shard,
                  index: 2,
                  status: "missing",
                  problem: "killed",
                  clock: null,
                  objectsLeft: 504,
                },
              ],
            },
          },
        };
        installFakeTailLab({ getRun: vi.fn(async () => detail) });
        renderUi(<RunDetailView runId={detail.meta.id} />);
        await screen.findByTestId("shard-breakdown");
        // The row's last cell: why.
        const refused = screen.getAllByTestId("shard-row")[1]?.lastElementChild?.textContent ?? "";
        const apart = screen.getByTestId("shard-clocks-apart").textContent ?? "";
        const banner = screen.getByTestId("leftovers-banner");
        const left = banner.textContent ?? "";
        expect(banner.dataset.kind).toBe("killed-shards");
        if (language === "en") {
          expect(refused).toContain(
            "Its clock was 3.0 s ahead of the storage server's, more than the 1 s a distributed run allows",
          );
          expect(apart).toBe(
            "The clocks of shards 0 and 1 were 3.1 s apart (± 0.54 s): each placed what it measured by its own clock, so no start spread nor window where every shard was busy is known.",
          );
          expect(left).toContain(
            `Shard 2 was killed mid-run, before its cleanup: 504 objects it wrote are still under ${fixture.summary.spec.keyPrefix}/${fixture.meta.id}-2/`,
          );
        } else {
          expect(refused).toContain("它的时钟比存储服务器快 3.0 秒");
          expect(apart).toContain("分片 0 与 1 的时钟相差 3.1 秒");
          expect(left).toContain("分片 2 在运行中、清理之前被终止");
          // The prefix, bucket and numbers are written as they are in both languages.
          for (const text of [refused, apart]) {
            expect(text).not.toMatch(/[A-Za-z]{2,}/);
          }
        }
      } finally {
        await act(() => i18next.changeLanguage("en"));
      }
    },
  );
});
