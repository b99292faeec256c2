import {
  BatchV1Api,
  CoreV1Api,
  KubeConfig,
  loadAllYaml,
  type V1Job,
  type V1Secret,
} from "@kubernetes/client-node";
import { RunSpecSchema, RunSummarySchema } from "@taillab/api";
import { openResultsStore, openRunFolder } from "@taillab/backend";
import { parseRunFolderUri } from "@taillab/core";
import type { ControlPlane } from "@taillab/engine";
import {
  startControlPlane,
  startTaillabNodeAgent,
  TAILLAB_TEST_IMAGE,
  type KubernetesControlPlane,
  type NodeAgent,
} from "@taillab/test-support";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CLI_MAIN, outputOf, runCli, TEST_RESULTS_DIR } from "./test-support/run-cli.ts";
import { createServerBucket } from "./test-support/server-bucket.ts";

/**
 * `taillab k8s run` end to end on a real control plane (one for the file): the Job controller
 * runs the pods' exit codes through podFailurePolicy, the test node agent runs each pod as the
 * repository's CLI, and the shards measure the embedded testbed. Each run has a namespace of its
 * own, so the runs go side by side (describe.concurrent): most of a run is pods starting and
 * shards waiting at barriers.
 */

const credentials = { accessKeyId: "K8SSHARDKEY", secretAccessKey: "k8s-shard-secret" };
const env = {
  AWS_ACCESS_KEY_ID: credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
};

let cluster: KubernetesControlPlane;
let agent: NodeAgent;
let testbed: Testbed;
let bucket: ControlPlane;
let specFile: string;
/** Long enough to delete a pod while it measures. */
let longSpecFile: string;
/** One measured phase: a shard alone at the barrier goes on to the end. */
let writeSpecFile: string;
let batch: BatchV1Api;
let core: CoreV1Api;

beforeAll(async () => {
  [cluster, testbed] = await Promise.all([
    startControlPlane(),
    startTestbed({ credentials, buckets: ["loadgen"], profile: "steady" }),
  ]);
  agent = await startTaillabNodeAgent(cluster.kubeconfig);
  ({ bucket } = await createServerBucket({ url: testbed.url, ...credentials }));
  const folder = await mkdtemp(join(tmpdir(), "taillab-k8s-"));
  const writeSpec = async (name: string, workload: object) => {
    const path = join(folder, name);
    await writeFile(path, JSON.stringify({ endpoints: [{ url: testbed.url }], ...workload }));
    return path;
  };
  specFile = await writeSpec("spec.json", { clients: 4, samples: 400, objectSize: "4KiB" });
  longSpecFile = await writeSpec("long.json", { clients: 3, samples: 1500, objectSize: "1KiB" });
  writeSpecFile = await writeSpec("write.json", {
    clients: 2,
    samples: 100,
    objectSize: "1KiB",
    phases: ["write"],
  });
  const config = new KubeConfig();
  config.loadFromFile(cluster.kubeconfig);
  batch = config.makeApiClient(BatchV1Api);
  core = config.makeApiClient(CoreV1Api);
});
afterAll(async () => {
  await bucket?.close();
  await agent?.stop();
  await cluster?.stop();
  await testbed?.close();
});

let namespaces = 0;

/**
 * A namespace of this test's own, once its default ServiceAccount is there: until then the
 * apiserver refuses the Job's pods.
 */
const it = test.extend<{ namespace: string }>({
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a function asks for.
  namespace: async ({}, use) => {
    const name = `k8s-run-${(namespaces += 1)}`;
    await core.createNamespace({ body: { metadata: { name } } });
    while ((await core.listNamespacedServiceAccount({ namespace: name })).items.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await use(name);
  },
});

const k8sArgs = (spec: string, namespace: string, ...extra: string[]) => [
  "k8s",
  "run",
  spec,
  "--kubeconfig",
  cluster.kubeconfig,
  "--namespace",
  namespace,
  "--image",
  TAILLAB_TEST_IMAGE,
  "--json",
  ...extra,
];

/** What the run left on the cluster: nothing, once it has cleaned up. */
async function leftovers(namespace: string): Promise<string[]> {
  const [jobs, secrets] = await Promise.all([
    batch.listNamespacedJob({ namespace, labelSelector: "taillab.io/run" }),
    core.listNamespacedSecret({ namespace, labelSelector: "taillab.io/run" }),
  ]);
  return [...jobs.items, ...secrets.items].map((item) => item.metadata?.name ?? "");
}

describe.concurrent("taillab k8s run on the local control plane", () => {
  it("runs 4 shards to Complete, merges them into the library and cleans up", async ({
    namespace,
  }) => {
    const result = await runCli(k8sArgs(specFile, namespace, "--shards", "4"), env);
    expect(result.code, result.stderr).toBe(0);
    const summary = RunSummarySchema.parse(JSON.parse(result.stdout));
    expect(summary.status).toBe("complete");
    expect(summary.distributed?.merged).toEqual([0, 1, 2, 3]);
    expect(summary.points[0]?.phases.map((phase) => phase.requests)).toEqual([400, 400, 400]);
    expect(result.stderr).toMatch(
      new RegExp(`submitted Job taillab-\\S+ \\(4 shards\\) in namespace ${namespace}`),
    );
    expect(result.stderr).toMatch(/shards: \d\/4 pods ready, 4 at the barrier/);
    expect(result.stderr).toMatch(/\(Job Complete: /);
    const store = await openResultsStore(TEST_RESULTS_DIR);
    const stored = await store.get(summary.runId);
    expect(stored.meta.tags).toEqual(["distributed", "kubernetes"]);
    expect(await leftovers(namespace)).toEqual([]);
    // Nor in the bucket: the run's folder is in the library now.
    const folder = `taillab/${summary.runId}/`;
    expect(result.stderr).toMatch(
      new RegExp(`run folder s3://loadgen/${folder} removed \\(\\d+ objects\\)`),
    );
    expect(await bucket.listKeys(folder)).toEqual([]);
  });

  it("names the shard whose pod was deleted mid-run: its index failed, the others merged", async ({
    namespace,
  }) => {
    const run = startK8sRun(longSpecFile, namespace, "--shards", "3");
    // Once shard 1 is measuring, its pod is deleted: the kubelet stops its process.
    const pod = await whenMeasuring(run, 1);
    if (pod !== null) await core.deleteNamespacedPod({ name: pod, namespace });
    const { code, stdout, stderr } = await run.result;
    expect(code, stderr).toBe(1);
    const summary = RunSummarySchema.parse(JSON.parse(stdout));
    expect(stderr).toMatch(/1 failed \(1\)/);
    expect(summary.status).toBe("stopped");
    // SIGTERM: the shard stopped and left what it had measured.
    expect(summary.distributed?.shards.map((each) => each.status)).toEqual([
      "complete",
      "stopped",
      "complete",
    ]);
    expect(summary.distributed?.shards[1]?.problem).toMatch(/stopped before its end/);
    expect(summary.distributed?.merged).toEqual([0, 1, 2]);
    expect(await leftovers(namespace)).toEqual([]);
  });

  it("goes on without a shard whose pod was killed, told by the Job's failed index, and names it", async ({
    namespace,
  }) => {
    // The barrier timeout is the gates' wait: only the Job's word can end it within the test.
    const run = startK8sRun(longSpecFile, namespace, "--shards", "3", "--barrier-timeout", "10m");
    const survivor = await whenMeasuring(run, 0);
    const pod = await whenMeasuring(run, 1);
    // Once it has written objects of its own (beside the run's folder, `<folder>-1/`)…
    const folder = /results in s3:\/\/loadgen\/(\S+)\//.exec(run.said)?.[1] ?? "";
    while ((await bucket.listKeys(`${folder}-1/`)).length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // …SIGKILL, as the OOM killer ends it: no done marker, no result, its objects left.
    if (pod !== null) agent.kill(pod);
    const { code, stdout, stderr } = await run.result;
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/2 done, 1 failed \(1\)/);
    const summary = RunSummarySchema.parse(JSON.parse(stdout));
    expect(summary.distributed?.merged).toEqual([0, 2]);
    expect(summary.distributed?.shards[1]).toMatchObject({
      status: "missing",
      problem: expect.stringMatching(/started but left no result: killed or cut off mid-run/),
    });
    // The others went on at the next gate as soon as the Job said, naming it.
    expect(agent.output(survivor ?? "")).toMatch(
      /shard 1 ended without its result \(its pod failed\); phase \d+ starts without it/,
    );
    // The killed shard's objects stay beside the run's folder until `taillab cleanup RUN`,
    // which removes every shard's; the run says so.
    const runId = summary.runId;
    const killedKeys = await bucket.listKeys(`taillab/${runId}-1/`);
    expect(killedKeys).not.toEqual([]);
    expect(summary.distributed?.shards[1]?.objectsLeft).toBe(killedKeys.length);
    expect(stderr).toMatch(
      new RegExp(
        `left on the server: \\d+ objects? of shard 1 \\(killed mid-run, before its cleanup\\) under taillab/${runId}-1/ in bucket loadgen; taillab cleanup ${runId} removes them`,
      ),
    );
    const cleanup = await runCli(["cleanup", runId], env);
    expect(cleanup.code, cleanup.stderr).toBe(0);
    for (const space of [`${runId}-0`, `${runId}-1`, `${runId}-2`]) {
      expect(await bucket.listKeys(`taillab/${space}/`)).toEqual([]);
    }
    expect(await leftovers(namespace)).toEqual([]);
  });

  it.for([
    {
      why: "no node matches their node selector",
      flags: ["--node-selector", "pool=nowhere"],
      quota: false,
      reason:
        /pods not scheduled: 0\/1 nodes are available: .*node affinity\/selector.* \(Unschedulable\)/,
    },
    {
      why: "their namespace's ResourceQuota refuses them",
      flags: ["--requests", "cpu=4,memory=1Gi", "--limits", "cpu=4,memory=1Gi"],
      quota: true,
      reason: /pods refused: .*exceeded quota: bench.* \(FailedCreate\)/,
    },
  ])(
    "ends a run whose pods cannot start ($why) at the barrier's deadline, with the cluster's reason",
    async ({ flags, quota, reason }, { namespace }) => {
      if (quota) {
        await core.createNamespacedResourceQuota({
          namespace,
          body: { metadata: { name: "bench" }, spec: { hard: { "limits.cpu": "2" } } },
        });
      }
      const { code, stderr } = await runCli(
        k8sArgs(writeSpecFile, namespace, "--shards", "2", "--barrier-timeout", "4s", ...flags),
        env,
      );
      expect(code, stderr).toBe(3);
      expect(stderr).toMatch(/not every pod has started: /);
      const last = stderr.trim().split("\n").at(-1) ?? "";
      expect(last).toMatch(
        /not every pod had started by the barrier's deadline .*, so no shard could: /,
      );
      expect(last).toMatch(reason);
      expect(await leftovers(namespace)).toEqual([]);
    },
  );

  it("stops on Ctrl-C: the stop marker written, the Job deleted, what was measured merged", async ({
    namespace,
  }) => {
    const run = startK8sRun(longSpecFile, namespace, "--shards", "2", "--keep-run-folder");
    await whenMeasuring(run, 0);
    run.child.kill("SIGINT");
    const { code, stdout, stderr } = await run.result;
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/stopping: the run's stop marker is written and its Job deleted/);
    const summary = RunSummarySchema.parse(JSON.parse(stdout));
    expect(summary.status).toBe("stopped");
    expect(summary.distributed?.shards.map((shard) => shard.status)).toEqual([
      "stopped",
      "stopped",
    ]);
    expect(summary.points[0]?.phases[0]?.requests).toBeGreaterThan(0);
    const folder = /results in s3:\/\/loadgen\/(\S+)/.exec(stderr)?.[1];
    expect(stderr).toContain(`run folder s3://loadgen/${folder} kept (--keep-run-folder)`);
    expect(await bucket.listKeys(`${folder}abort/stop`)).toHaveLength(1);
    expect(await leftovers(namespace)).toEqual([]);
  });
});

describe.concurrent("taillab k8s manifest", () => {
  const manifest = (...extra: string[]) =>
    runCli([
      ...["k8s", "manifest", writeSpecFile, "--shards", "2", "--kubeconfig", cluster.kubeconfig],
      ...["--image", TAILLAB_TEST_IMAGE, ...extra],
    ]);

  it("says by when the printed manifests must be applied, and how to give a later start", async () => {
    const { code, stderr } = await manifest("--barrier-timeout", "5m");
    expect(code, stderr).toBe(0);
    const [, applyBy, startAt] =
      /apply before (\S+): .*start together at (\S+) at the earliest/.exec(stderr) ?? [];
    expect(Date.parse(applyBy ?? "") - Date.parse(startAt ?? "")).toBe(300_000);
    expect(stderr).toMatch(/print them again with --start-at/);
    const refused = await manifest("--start-at", "tomorrow");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/start-at.*expected an ISO 8601 time/);
  });

  it("prints manifests that run when applied well after their start-at; a shard whose index was claimed exits 3, and its index fails", async () => {
    // Applied 10 minutes after its start-at: the old manifests' deadline (printing + 5 min) was
    // long past; this one's is the start-at plus the 20 minutes asked.
    const startAtMs = Date.now() - 600_000;
    const printed = await manifest(
      ...["--start-at", new Date(startAtMs).toISOString(), "--barrier-timeout", "20m"],
    );
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stderr).toContain(
      `apply before ${new Date(startAtMs + 1_200_000).toISOString()}`,
    );
    expect(printed.stderr).not.toMatch(/print them again/);
    const folderUri = /taillab merge (s3:\/\/\S+) --endpoint/.exec(printed.stderr)?.[1] ?? "";
    const [secret, job] = loadAllYaml(printed.stdout) as [V1Secret, V1Job];
    expect(job.spec?.template.metadata?.annotations?.["taillab.io/start-at"]).toBe(
      new Date(startAtMs).toISOString(),
    );
    // Another shard 1 got there first: this run's shard 1 finds its index taken.
    const runFolder = parseRunFolderUri(folderUri);
    if ("problem" in runFolder) throw new Error(runFolder.problem);
    const spec = RunSpecSchema.parse(JSON.parse(await readFile(writeSpecFile, "utf8")));
    const folder = await openRunFolder(spec, { env }, runFolder);
    await folder.markers.create(
      "ready/1",
      JSON.stringify({ index: 1, shards: 2, claim: "another" }),
    );
    await folder.markers.put(`ready-at/1@${Date.now()}`, "");
    await folder.close();

    // Applied as kubectl apply would, the Secret's values filled in.
    await core.createNamespacedSecret({
      namespace: "default",
      body: { ...secret, stringData: env },
    });
    await batch.createNamespacedJob({ namespace: "default", body: job });
    const jobName = job.metadata?.name ?? "";
    const done = await jobEnd(jobName);
    expect(done).toMatchObject({
      conditions: expect.arrayContaining([
        expect.objectContaining({ type: "Failed", status: "True", reason: "FailedIndexes" }),
      ]),
      completedIndexes: "0",
      failedIndexes: "1",
    });
    const pods = await core.listNamespacedPod({
      namespace: "default",
      labelSelector: `job-name=${jobName},batch.kubernetes.io/job-completion-index=1`,
    });
    const [shardOne] = pods.items;
    expect(shardOne?.status?.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(3);
    expect(agent.output(shardOne?.metadata?.name ?? "")).toMatch(
      /another shard already claimed index 1/,
    );

    const merged = await runCli(["merge", folderUri, "--endpoint", testbed.url, "--json"], env);
    expect(merged.code).toBe(1);
    const summary = RunSummarySchema.parse(JSON.parse(merged.stdout));
    expect(summary.distributed?.merged).toEqual([0]);
    expect(summary.distributed?.shards[1]).toMatchObject({ status: "missing" });
    expect(summary.distributed?.t0 && Date.parse(summary.distributed.t0)).toBeGreaterThan(
      startAtMs,
    );
    expect(summary.points[0]?.phases[0]?.requests).toBe(50);
    await batch.deleteNamespacedJob({
      name: jobName,
      namespace: "default",
      propagationPolicy: "Background",
    });
    await core.deleteNamespacedSecret({ name: secret.metadata?.name ?? "", namespace: "default" });
  });
});

/** The Job's status once it has finished (Complete or Failed). */
async function jobEnd(name: string) {
  for (;;) {
    const { status } = await batch.readNamespacedJobStatus({ name, namespace: "default" });
    const ended = status?.conditions?.some(
      (condition) =>
        (condition.type === "Complete" || condition.type === "Failed") &&
        condition.status === "True",
    );
    if (ended && status) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** `taillab k8s run` in a process of its own, its stderr readable as it goes. */
function startK8sRun(spec: string, namespace: string, ...extra: string[]) {
  const child = spawn(process.execPath, [CLI_MAIN, ...k8sArgs(spec, namespace, ...extra)], {
    env: { ...process.env, TAILLAB_RESULTS_DIR: TEST_RESULTS_DIR, ...env },
  });
  const run = { child, namespace, said: "", exited: false, result: outputOf(child) };
  child.stderr.on("data", (chunk: Buffer) => (run.said += chunk.toString()));
  void run.result.finally(() => (run.exited = true));
  return run;
}

/**
 * The pod of shard `index` once the shard is measuring (its progress is in the run's folder),
 * or null when the run ended first.
 */
async function whenMeasuring(run: ReturnType<typeof startK8sRun>, index: number) {
  while (!run.exited) {
    const folder = /results in s3:\/\/loadgen\/(\S+)/.exec(run.said)?.[1];
    const measuring =
      folder !== undefined && (await bucket.listKeys(`${folder}progress/${index}.json`)).length > 0;
    const pods = await core.listNamespacedPod({
      namespace: run.namespace,
      labelSelector: `batch.kubernetes.io/job-completion-index=${index}`,
    });
    const name = pods.items.find((pod) => pod.status?.phase === "Running")?.metadata?.name;
    if (measuring && name) return name;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return null;
}
