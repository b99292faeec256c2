import { CoreV1Api, PatchStrategy, setHeaderOptions, type V1Pod } from "@kubernetes/client-node";
import { KWOK_HOLD_RUNNING, startKwokCluster, type KwokCluster } from "@taillab/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDistributedRunClient, loadKubeConfig } from "./distributed-run-client.ts";
import type { JobProgress } from "./job-status.ts";
import { validatedManifests } from "./manifest-checks.ts";
import { TEST_POD_SETTINGS } from "./test-support/test-pod-settings.ts";

/**
 * Scale without processes: kwok's fake nodes take a 500-shard run's pods through Running to
 * Succeeded, and the run is followed to Complete as a real one would be.
 */

let kwok: KwokCluster;

beforeAll(async () => {
  kwok = await startKwokCluster({ nodes: 4 });
});
afterAll(async () => {
  await kwok?.stop();
});

it("generates, accepts and follows a 500-shard run to Complete", async () => {
  const shards = 500;
  const manifests = validatedManifests({
    name: "taillab-scale",
    namespace: "default",
    shards,
    image: "registry.test/taillab:0.1.0",
    runArgs: ["run"],
    resultsUri: "s3://loadgen/taillab/runs/scale/",
    startAt: new Date().toISOString(),
    activeDeadlineSeconds: 600,
    ttlSecondsAfterFinished: 600,
    credentials: { kind: "create", accessKeyId: "AKID", secretAccessKey: "secret" },
    pod: TEST_POD_SETTINGS,
  });
  const client = createDistributedRunClient(loadKubeConfig({ kubeconfig: kwok.kubeconfig }));
  await client.dryRun(manifests);
  const run = await client.submit(manifests);

  const seen: JobProgress[] = [];
  const done = await client.follow(run, { onProgress: (progress) => seen.push(progress) });
  expect(done.finished).toBe("Complete");
  expect(done.completedIndexes).toEqual(Array.from({ length: shards }, (_, index) => index));
  expect(done.failedIndexes).toEqual([]);
  // Followed on the way, not only at the end: indexes completed in more than one step.
  const partly = seen.filter(
    (progress) => progress.completedIndexes.length > 0 && progress.completedIndexes.length < shards,
  );
  expect(partly.length).toBeGreaterThan(0);
  expect(seen.some((progress) => progress.ready > 0)).toBe(true);
  await client.remove(run);
});

it.each(["prefer", "require"] as const)(
  "puts 4 shards on 4 nodes, one each, when the spread is %s",
  async (spread) => {
    const manifests = validatedManifests({
      name: `taillab-spread-${spread}`,
      namespace: "default",
      shards: 4,
      image: "registry.test/taillab:0.1.0",
      runArgs: ["run"],
      resultsUri: "s3://loadgen/taillab/runs/spread/",
      startAt: new Date().toISOString(),
      activeDeadlineSeconds: 600,
      ttlSecondsAfterFinished: 600,
      credentials: { kind: "create", accessKeyId: "AKID", secretAccessKey: "secret" },
      pod: { ...TEST_POD_SETTINGS, spread },
    });
    // Real shards run side by side for the whole run. kwok's would finish at once, and the
    // scheduler does not count a finished pod: a shard placed after another had finished could
    // share its node.
    const podAnnotations = manifests.job.spec?.template.metadata?.annotations;
    if (podAnnotations === undefined) throw new Error("the Job's pod template has no annotations");
    podAnnotations[KWOK_HOLD_RUNNING] = "true";
    const config = loadKubeConfig({ kubeconfig: kwok.kubeconfig });
    const client = createDistributedRunClient(config);
    const core = config.makeApiClient(CoreV1Api);
    const run = await client.submit(manifests);

    const pods = await allRunning(core, run.jobName, 4);
    const nodes = new Set(pods.map((pod) => pod.spec?.nodeName));
    expect(nodes.size).toBe(4);

    for (const pod of pods) {
      await core.patchNamespacedPod(
        {
          name: pod.metadata?.name ?? "",
          namespace: "default",
          body: { metadata: { annotations: { [KWOK_HOLD_RUNNING]: null } } },
        },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      );
    }
    expect((await client.follow(run)).finished).toBe("Complete");
    await client.remove(run);
  },
);

/** The Job's pods once `count` of them are Running (polled: kwok moves them within moments). */
async function allRunning(core: CoreV1Api, jobName: string, count: number): Promise<V1Pod[]> {
  for (;;) {
    const { items } = await core.listNamespacedPod({
      namespace: "default",
      labelSelector: `job-name=${jobName}`,
    });
    const phases = items.map((pod) => `${pod.metadata?.name} ${pod.status?.phase}`);
    if (phases.some((phase) => / (Succeeded|Failed)$/.test(phase))) {
      throw new Error(`a held pod finished: ${phases.join(", ")}`);
    }
    if (items.filter((pod) => pod.status?.phase === "Running").length === count) return items;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
