import { KUBERNETES_CONTEXT, TAILLAB_TEST_IMAGE } from "@taillab/test-support";
import { dirname, join } from "node:path";
import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { EndpointsPage } from "../pages/endpoints-page.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";
import { KubernetesSettingsPage } from "../pages/kubernetes-settings-page.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";
import { RunDetailPage } from "../pages/run-detail-page.ts";
import { RunsPage } from "../pages/runs-page.ts";

const SHARDS = 3;
const CLIENTS = 3;
/**
 * Per phase. With the steady profile's 5 ms per request, each shard measures for seconds
 * whatever the machine's speed: longer than the shards' one-second progress, so the live screen
 * sees it running.
 */
const SAMPLES = 900;
const EXPERIMENT = "Three pods";
const SERVER = "Lab server";

// A server with a service time: the run lasts by the server's clock, not the machine's.
test.use({ testbedProfile: "steady" });

test.describe("Distributed runs on Kubernetes", () => {
  test("an experiment on 3 pods: settings checked, shards watched live, each shard beside the merged figures", async ({
    app,
    testbed,
    kubernetes,
  }) => {
    // Pods are processes of their own, started by the node agent one by one on a shared machine.
    test.slow();
    const endpoints = new EndpointsPage(app);
    await endpoints.open();
    await endpoints.startAdd();
    await endpoints.fill({
      kind: "custom",
      name: SERVER,
      url: testbed.urls[0],
      bucket: testbed.bucket,
      accessKeyId: testbed.accessKeyId,
      secret: testbed.secretAccessKey,
    });
    await endpoints.save();

    // Where the pods go: the local control plane's kubeconfig, typed wrong first.
    const settings = new KubernetesSettingsPage(app);
    await settings.open();
    const missing = join(dirname(kubernetes.kubeconfig), "no-such-kubeconfig");
    const typed = {
      kubeconfig: missing,
      context: KUBERNETES_CONTEXT,
      namespace: "default",
      image: TAILLAB_TEST_IMAGE,
    };
    await settings.fill(typed);
    await settings.pressSave();
    await expect(settings.fieldError("kubeconfig")).toHaveText(`no file at ${missing}`);
    for (const [field, value] of Object.entries(typed)) {
      await expect(settings.input(field as keyof typeof typed)).toHaveValue(value);
    }
    await keepScreenshot(app, "kubernetes-settings-refused");
    await settings.fill({ kubeconfig: kubernetes.kubeconfig });
    await expect(settings.fieldError("kubeconfig")).toHaveCount(0);
    await settings.save();
    await settings.open();
    await expect(settings.input("kubeconfig")).toHaveValue(kubernetes.kubeconfig);
    await expect(settings.input("context")).toHaveValue(KUBERNETES_CONTEXT);
    await settings.close();

    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await experiments.newExperiment();
    await experiments.fill({
      name: EXPERIMENT,
      clients: String(CLIENTS),
      samples: String(SAMPLES),
      sizes: "4KiB",
    });
    await experiments.chooseEndpoint(SERVER);
    await experiments.useKubernetesPods(SHARDS);
    expect((await experiments.previewFigures()).points).toBe(1);

    const live = new LiveRunPage(app);
    await live.recordShardStates();
    await experiments.run();
    await expect(live.view).toBeVisible();
    await expect(live.shards.getByTestId("live-shard")).toHaveCount(SHARDS);
    // Merged progress arrives once the pods have started and the shards measure.
    await live.waitForProgressBeyond(0, 240_000);
    if ((await live.currentStatus()) === "running") {
      await live.expectPercentilesShown();
      await keepScreenshot(app, "kubernetes-live-shards-running");
    }
    await expect(live.shards).toHaveAttribute("data-job", "Complete", { timeout: 240_000 });
    await live.waitForStatus("complete");
    // Every shard was seen at the barrier, then measuring, then done, in that order.
    for (const states of await live.shardStatesSeen()) {
      expect(states.filter((state) => state !== "waiting")).toEqual(["ready", "running", "done"]);
    }
    await expect(live.shards.getByTestId("live-shards-summary")).toContainText(
      `${SHARDS} done · 0 failed`,
    );
    const end = await live.progressFigures();
    expect(end.done).toBe(end.total);
    await live.expectPercentilesShown();
    // The last phase's figures are the merged run's: every shard's requests, finished or not.
    expect(await live.percentilesRequests()).toBe(SAMPLES);
    // The shards' seconds were merged live: the percentiles over time are drawn.
    await expect(live.timeline).toBeVisible();
    expect(await live.timelineSeconds()).toBeGreaterThan(0);
    await expect(app.getByTestId("live-timeline-empty")).toHaveCount(0);
    await keepScreenshot(app, "kubernetes-live-shards-done");

    // In the library like any run, tagged as distributed.
    const runs = new RunsPage(app);
    await runs.open();
    const row = runs.rowNamed(EXPERIMENT);
    await expect(row).toHaveAttribute("data-status", "complete");
    const runId = (await row.getAttribute("data-run-id")) ?? "";
    expect(await runs.tags(runId)).toEqual(expect.arrayContaining(["distributed", "kubernetes"]));

    await runs.openRun(runId);
    const detail = new RunDetailPage(app);
    await detail.waitLoaded(runId);
    const merged = await detail.requestsByOp();
    const shardRows = await detail.shardRows();
    expect(Object.keys(merged).length).toBeGreaterThan(0);
    for (const [op, requests] of Object.entries(merged)) {
      const perShard = shardRows.filter((shardRow) => shardRow.op === op);
      expect(perShard.map((shardRow) => [shardRow.shard, shardRow.status])).toEqual(
        Array.from({ length: SHARDS }, (_, index) => [index, "complete"]),
      );
      expect(requests).toBe(SAMPLES);
      expect(perShard.reduce((sum, shardRow) => sum + shardRow.requests, 0)).toBe(requests);
    }
    await expect(detail.shardBreakdown.getByTestId("shard-breakdown-header")).toContainText(
      `${SHARDS} of ${SHARDS} shards merged`,
    );
    await keepScreenshot(app, "kubernetes-run-detail-shards");
  });
});
