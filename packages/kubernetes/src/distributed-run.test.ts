import { BatchV1Api, CoreV1Api } from "@kubernetes/client-node";
import {
  startControlPlane,
  startNodeAgent,
  type KubernetesControlPlane,
  type NodeAgent,
} from "@taillab/test-support";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { distributedRunManifests, type DistributedJobInput } from "./distributed-job.ts";
import {
  createDistributedRunClient,
  KubernetesError,
  loadKubeConfig,
  type DistributedRunClient,
} from "./distributed-run-client.ts";
import type { JobProgress } from "./job-status.ts";
import { TEST_POD_SETTINGS } from "./test-support/test-pod-settings.ts";

/**
 * A distributed run's objects on a real control plane (one for the file), its pods run by the
 * test node agent as the fake shard script: the real Job controller judges their exit codes and
 * their disruptions (an eviction) by the Job's podFailurePolicy.
 */

const FAKE_SHARD = fileURLToPath(new URL("./test-support/fake-shard.ts", import.meta.url));
const IMAGE = "example.test/taillab:fake";

let cluster: KubernetesControlPlane;
let agent: NodeAgent;
let client: DistributedRunClient;
let batch: BatchV1Api;
let core: CoreV1Api;

beforeAll(async () => {
  cluster = await startControlPlane();
  agent = await startNodeAgent({
    kubeconfig: cluster.kubeconfig,
    entrypoint: (image) => (image === IMAGE ? [process.execPath, FAKE_SHARD] : undefined),
  });
  const config = loadKubeConfig({ kubeconfig: cluster.kubeconfig });
  client = createDistributedRunClient(config);
  batch = config.makeApiClient(BatchV1Api);
  core = config.makeApiClient(CoreV1Api);
});
afterAll(async () => {
  await agent?.stop();
  await cluster?.stop();
});

/** Shard `index`'s pod of Job `job`, once its process has started (it wrote to `holdFile`). */
async function runningPod(job: string, index: number, holdFile: string): Promise<string> {
  for (;;) {
    const pods = await core.listNamespacedPod({
      namespace: "default",
      labelSelector: `job-name=${job},batch.kubernetes.io/job-completion-index=${index}`,
    });
    const running = pods.items.find((pod) => pod.status?.phase === "Running");
    if (running?.metadata?.name && (await readFile(holdFile, "utf8")) !== "") {
      return running.metadata.name;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const input = (overrides: Partial<DistributedJobInput> = {}): DistributedJobInput => ({
  name: "taillab-run",
  namespace: "default",
  shards: 4,
  image: IMAGE,
  runArgs: [],
  resultsUri: "s3://loadgen/taillab/runs/r1/",
  startAt: "2026-11-24T10:00:00.000Z",
  activeDeadlineSeconds: 600,
  ttlSecondsAfterFinished: 3600,
  credentials: { kind: "create", accessKeyId: "AKIDTEST", secretAccessKey: "secret-test" },
  pod: TEST_POD_SETTINGS,
  ...overrides,
});

describe("a distributed run on the local control plane", () => {
  it("passes the apiserver's dry run and persists nothing", async () => {
    await client.dryRun(distributedRunManifests(input({ name: "dry" })));
    const jobs = await batch.listNamespacedJob({ namespace: "default" });
    expect(jobs.items.map((job) => job.metadata?.name)).not.toContain("dry");
    const secrets = await core.listNamespacedSecret({ namespace: "default" });
    expect(secrets.items.map((secret) => secret.metadata?.name)).not.toContain("dry-credentials");
  });

  it("refuses a Job the apiserver finds invalid, with its reason", async () => {
    const manifests = distributedRunManifests(input({ name: "bad" }));
    // podFailurePolicy needs restartPolicy Never: only the apiserver knows that rule.
    const spec = manifests.job.spec?.template.spec;
    if (spec) spec.restartPolicy = "OnFailure";
    const refused = await client.dryRun(manifests).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(KubernetesError);
    const { message, status } = refused as KubernetesError;
    expect(status).toBe(422);
    expect(message).toMatch(
      /creating Job "bad" in namespace "default": Job.batch "bad" is invalid/,
    );
    expect(message).toMatch(/spec.template.spec.restartPolicy/);
    expect(message.split("\n")).toHaveLength(1);
  });

  it("runs 4 shards to Complete, each handed its index, start time and credentials", async () => {
    const manifests = distributedRunManifests(input({ name: "four" }));
    const run = await client.submit(manifests);
    expect(run).toEqual({
      namespace: "default",
      jobName: "four",
      createdSecret: "four-credentials",
    });
    const seen: JobProgress[] = [];
    const done = await client.follow(run, { onProgress: (progress) => seen.push(progress) });
    expect(done.finished).toBe("Complete");
    expect(done.completedIndexes).toEqual([0, 1, 2, 3]);
    expect(done.failedIndexes).toEqual([]);
    expect(seen.at(-1)).toEqual(done);

    const pods = await core.listNamespacedPod({
      namespace: "default",
      labelSelector: "job-name=four",
    });
    const outputs = pods.items.map((pod) => JSON.parse(agent.output(pod.metadata?.name ?? "")));
    expect(outputs.map((output) => output.index).sort()).toEqual([0, 1, 2, 3]);
    for (const output of outputs) {
      expect(output).toMatchObject({
        shards: 4,
        startAt: "2026-11-24T10:00:00.000Z",
        results: "s3://loadgen/taillab/runs/r1/",
        accessKeyId: "AKIDTEST",
        hasSecret: true,
      });
    }

    await client.remove(run);
    await expect(batch.readNamespacedJob({ name: "four", namespace: "default" })).rejects.toThrow();
    await expect(
      core.readNamespacedSecret({ name: "four-credentials", namespace: "default" }),
    ).rejects.toThrow();
    await client.remove(run); // twice is fine
  });

  it("marks the index whose shard exits 3 as failed, and the Job Failed", async () => {
    const run = await client.submit(
      distributedRunManifests(input({ name: "one-fails", runArgs: ["--fail-index", "2"] })),
    );
    const done = await client.follow(run);
    expect(done).toMatchObject({
      finished: "Failed",
      reason: "FailedIndexes",
      completedIndexes: [0, 1, 3],
      failedIndexes: [2],
    });
    await client.remove(run);
  });

  it.each([
    {
      rules: "with",
      verdict: "is run again",
      runs: 2,
      outcome: { finished: "Complete", completedIndexes: [0, 1] },
    },
    {
      rules: "without",
      verdict: "fails",
      runs: 1,
      outcome: { finished: "Failed", failedIndexes: [1] },
    },
  ])(
    "an evicted pod's index $verdict $rules the rule that ignores a DisruptionTarget",
    async ({ rules, runs, outcome }) => {
      // Index 1 holds until SIGTERM the first time it runs, the next time it ends at once.
      const holdFile = join(await mkdtemp(join(tmpdir(), "taillab-evicted-")), "runs");
      await writeFile(holdFile, "");
      const name = `evicted-${rules}`;
      const manifests = distributedRunManifests(
        input({ name, shards: 2, runArgs: ["--hold-index", "1", "--hold-once", holdFile] }),
      );
      const policy = manifests.job.spec?.podFailurePolicy;
      // Without the rule an evicted pod counts as the index's failure (backoffLimitPerIndex 0).
      if (policy && rules === "without") {
        policy.rules = policy.rules.filter((rule) => rule.action !== "Ignore");
      }
      const run = await client.submit(manifests);
      const pod = await runningPod(name, 1, holdFile);
      // The Eviction API marks the pod DisruptionTarget, then deletes it.
      await core.createNamespacedPodEviction({
        name: pod,
        namespace: "default",
        body: {
          apiVersion: "policy/v1",
          kind: "Eviction",
          metadata: { name: pod, namespace: "default" },
        },
      });
      const done = await client.follow(run);
      expect(done).toMatchObject(outcome);
      expect((await readFile(holdFile, "utf8")).split("\n").filter(Boolean)).toHaveLength(runs);
      await client.remove(run);
    },
  );

  it("uses a Secret it is given and leaves it in place", async () => {
    await core.createNamespacedSecret({
      namespace: "default",
      body: {
        metadata: { name: "storage-keys" },
        stringData: { AWS_ACCESS_KEY_ID: "GIVEN", AWS_SECRET_ACCESS_KEY: "given-secret" },
      },
    });
    const manifests = distributedRunManifests(
      input({
        name: "given",
        shards: 1,
        credentials: { kind: "existing", secretName: "storage-keys" },
      }),
    );
    expect(manifests.secret).toBeNull();
    const run = await client.submit(manifests);
    expect(run.createdSecret).toBeNull();
    expect((await client.follow(run)).finished).toBe("Complete");
    await client.remove(run);
    const kept = await core.readNamespacedSecret({ name: "storage-keys", namespace: "default" });
    expect(kept.metadata?.name).toBe("storage-keys");
  });

  it.each([
    {
      what: "enforces the restricted Pod Security level",
      namespace: "restricted",
      labels: { "pod-security.kubernetes.io/enforce": "restricted" },
      quota: null,
      refusal: /violates PodSecurity/,
    },
    {
      what: "has a ResourceQuota on requests and limits",
      namespace: "quota",
      labels: {} as Record<string, string>,
      quota: {
        "requests.cpu": "2",
        "requests.memory": "1Gi",
        "limits.cpu": "2",
        "limits.memory": "1Gi",
      },
      refusal: /must specify limits.cpu for: bare; limits.memory for: bare/,
    },
  ])("runs its shards in a namespace that $what", async ({ namespace, labels, quota, refusal }) => {
    await core.createNamespace({ body: { metadata: { name: namespace, labels } } });
    if (quota !== null) {
      await core.createNamespacedResourceQuota({
        namespace,
        body: { metadata: { name: "bench" }, spec: { hard: quota } },
      });
    }
    // The namespace refuses a pod as most manifests write one: admission is on.
    const bare = core.createNamespacedPod({
      namespace,
      dryRun: "All",
      body: {
        metadata: { name: "bare" },
        spec: { containers: [{ name: "bare", image: IMAGE }] },
      },
    });
    await expect(bare).rejects.toThrow(refusal);
    // Pods are admitted only once the namespace's default ServiceAccount exists.
    while ((await core.listNamespacedServiceAccount({ namespace })).items.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const run = await client.submit(
      distributedRunManifests(input({ name: "admitted", namespace, shards: 2 })),
    );
    expect(await client.follow(run)).toMatchObject({
      finished: "Complete",
      completedIndexes: [0, 1],
    });
    await client.remove(run);
  });

  it("makes the Secret the Job's: deleting the Job collects its credentials", async () => {
    const run = await client.submit(distributedRunManifests(input({ name: "owned", shards: 1 })));
    const job = await batch.readNamespacedJob({ name: "owned", namespace: "default" });
    const secret = await core.readNamespacedSecret({
      name: "owned-credentials",
      namespace: "default",
    });
    expect(secret.metadata?.ownerReferences).toEqual([
      { apiVersion: "batch/v1", kind: "Job", name: "owned", uid: job.metadata?.uid },
    ]);
    // Submitted suspended until its Secret existed, then started.
    expect(job.spec?.suspend).toBe(false);
    expect((await client.follow(run)).finished).toBe("Complete");
    // As the Job's TTL or a kubectl delete would: only the Job is deleted.
    await batch.deleteNamespacedJob({
      name: "owned",
      namespace: "default",
      propagationPolicy: "Background",
    });
    for (;;) {
      const left = await core.listNamespacedSecret({
        namespace: "default",
        fieldSelector: "metadata.name=owned-credentials",
      });
      if (left.items.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  it("takes back the Secret it created when the Job is refused", async () => {
    const manifests = distributedRunManifests(input({ name: "refused" }));
    const spec = manifests.job.spec?.template.spec;
    if (spec) spec.restartPolicy = "OnFailure";
    await expect(client.submit(manifests)).rejects.toThrow(KubernetesError);
    await expect(
      core.readNamespacedSecret({ name: "refused-credentials", namespace: "default" }),
    ).rejects.toThrow();
  });
});

/**
 * A TCP relay to the apiserver that, once cut, drops its open connections and every new one
 * until it is mended.
 */
async function startDroppingRelay(target: URL) {
  const open = new Set<Socket>();
  let dropping = true;
  const relay = {
    dropped: 0,
    cut() {
      dropping = true;
      for (const socket of open) socket.destroy();
    },
    mend() {
      dropping = false;
    },
    server: createServer((socket) => {
      if (dropping) {
        relay.dropped += 1;
        socket.destroy();
        return;
      }
      const upstream = connect(Number(target.port), target.hostname);
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.pipe(upstream).pipe(socket);
      socket.on("error", () => upstream.destroy());
      upstream.on("error", () => socket.destroy());
      upstream.on("close", () => socket.destroy());
    }),
  };
  await new Promise<void>((resolve) => relay.server.listen(0, "127.0.0.1", resolve));
  return relay;
}

describe("following a Job through an apiserver that does not always answer", () => {
  let relay: Awaited<ReturnType<typeof startDroppingRelay>>;
  let relayed: DistributedRunClient;
  beforeAll(async () => {
    relay = await startDroppingRelay(new URL(cluster.url));
    const { port } = relay.server.address() as AddressInfo;
    const kubeconfig = join(await mkdtemp(join(tmpdir(), "taillab-relay-")), "kubeconfig");
    const text = await readFile(cluster.kubeconfig, "utf8");
    await writeFile(kubeconfig, text.replace(cluster.url, `https://127.0.0.1:${port}`));
    relayed = createDistributedRunClient(loadKubeConfig({ kubeconfig }));
  });
  afterAll(() => relay?.server.close());

  it("goes on reading once the apiserver answers again, and sees the Job complete", async () => {
    relay.cut();
    const run = await client.submit(distributedRunManifests(input({ name: "outage", shards: 1 })));
    const followed = relayed.follow(run, { pollMs: 20 });
    while (relay.dropped < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    relay.mend();
    expect((await followed).finished).toBe("Complete");
    await client.remove(run);
  });

  it("gives up once the apiserver has not answered for longer than its limit", async () => {
    relay.cut();
    const run = await client.submit(distributedRunManifests(input({ name: "gone", shards: 1 })));
    const refused = await relayed.follow(run, { pollMs: 20, outageLimitMs: 200 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(KubernetesError);
    expect((refused as KubernetesError).message).toMatch(/cannot reach the cluster/);
    await client.remove(run);
  });

  it("gives up at once on an answer that will not change (the Job is not there)", async () => {
    const missing = { namespace: "default", jobName: "never-made", createdSecret: null };
    const refused = await client.follow(missing, { pollMs: 20 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect((refused as KubernetesError).status).toBe(404);
  });
});
