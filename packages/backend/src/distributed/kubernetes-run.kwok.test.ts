import type { ShardsStatus } from "@taillab/api";
import { openResultsStore } from "@taillab/store";
import { startKwokCluster, type KwokCluster } from "@taillab/test-support";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { planKubernetesRun, runOnKubernetes } from "./kubernetes-run.ts";
import { DEFAULT_POD_SETTINGS, DEFAULT_TTL_AFTER_FINISHED_SECONDS } from "./kubernetes-defaults.ts";

/**
 * A distributed run at scale without processes: kwok's fake nodes take the 500 pods of the Job
 * `taillab k8s run` generates through Running to Succeeded. The run follows them as it would
 * real ones, and finds that no shard left a result in the bucket (fake pods measure nothing).
 */

const credentials = { accessKeyId: "KWOKKEY", secretAccessKey: "kwok-secret" };
const secrets = {
  env: {
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  },
};
let kwok: KwokCluster;
let testbed: Testbed;

beforeAll(async () => {
  [kwok, testbed] = await Promise.all([
    startKwokCluster({ nodes: 4 }),
    startTestbed({ credentials, buckets: ["loadgen"] }),
  ]);
});
afterAll(async () => {
  await kwok?.stop();
  await testbed?.close();
});

it("generates a 500-shard Job that the apiserver accepts, and follows its pods to the end", async () => {
  const shards = 500;
  const plan = await planKubernetesRun(
    {
      spec: {
        endpoints: [{ url: testbed.url }],
        clients: shards,
        samples: 100 * shards,
        objectSize: "4KiB",
      },
      shards,
      namespace: "default",
      image: "registry.test/taillab:0.1.0",
      barrierTimeoutMs: 60_000,
      activeDeadlineSeconds: 600,
      ttlSecondsAfterFinished: DEFAULT_TTL_AFTER_FINISHED_SECONDS,
      pod: DEFAULT_POD_SETTINGS,
      uploadRecords: false,
    },
    secrets,
  );
  const container = plan.manifests.job.spec?.template.spec?.containers[0];
  expect(container?.args?.slice(0, 2)).toEqual(["run", "--spec-json"]);
  expect(container?.args?.slice(-6)).toEqual([
    "--shard",
    `$(JOB_COMPLETION_INDEX)/${shards}`,
    "--start-at",
    "$(TAILLAB_START_AT)",
    "--results",
    `s3://loadgen/taillab/${plan.runId}/`,
  ]);

  const statuses: ShardsStatus[] = [];
  const store = await openResultsStore(await mkdtemp(join(tmpdir(), "taillab-kwok-")));
  const refused = await runOnKubernetes(plan, {
    cluster: { kubeconfig: kwok.kubeconfig },
    secrets,
    store,
    hooks: { onShards: (status) => statuses.push(status) },
  }).then(
    () => null,
    (error: unknown) => error as Error,
  );
  expect(refused?.message).toMatch(/no shard left a result \(none reached the start barrier\)/);
  const last = statuses.at(-1);
  expect(last).toMatchObject({ shardCount: shards, job: "Complete", failed: [] });
  // Followed on the way: pods became ready before the Job completed.
  expect(statuses.some((status) => status.podsReady > 0 && status.job === "running")).toBe(true);
});
