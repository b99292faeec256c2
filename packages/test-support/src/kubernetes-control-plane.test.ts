import { BatchV1Api, CoreV1Api, KubeConfig, VersionApi, type V1Job } from "@kubernetes/client-node";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startControlPlane, type KubernetesControlPlane } from "./kubernetes-control-plane.ts";
import { startNodeAgent, type NodeAgent } from "./node-agent.ts";
import { localTaillabEntrypoint, TAILLAB_TEST_IMAGE } from "./taillab-image.ts";

/** One real control plane for the file, and the node agent that runs its pods as processes. */

let cluster: KubernetesControlPlane;
let agent: NodeAgent;
let core: CoreV1Api;
let batch: BatchV1Api;

beforeAll(async () => {
  cluster = await startControlPlane();
  const config = new KubeConfig();
  config.loadFromFile(cluster.kubeconfig);
  core = config.makeApiClient(CoreV1Api);
  batch = config.makeApiClient(BatchV1Api);
  agent = await startNodeAgent({
    kubeconfig: cluster.kubeconfig,
    entrypoint: (image) => (image === "busybox" ? ["sh", "-c"] : localTaillabEntrypoint(image)),
    baseEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
});
afterAll(async () => {
  await agent?.stop();
  await cluster?.stop();
});

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("the local control plane", () => {
  it("is Kubernetes v1.34 on 127.0.0.1, reached through its kubeconfig", async () => {
    expect(cluster.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const namespaces = await core.listNamespace();
    expect(namespaces.items.map((namespace) => namespace.metadata?.name)).toContain("default");
    const config = new KubeConfig();
    config.loadFromFile(cluster.kubeconfig);
    const version = await config.makeApiClient(VersionApi).getCode();
    expect(version.gitVersion).toBe("v1.34.4");
    const nodes = await core.listNode();
    expect(nodes.items.map((node) => node.metadata?.name)).toEqual([agent.nodeName]);
  });

  it("refuses to start on ports that are busy", async () => {
    const port = Number(new URL(cluster.url).port);
    await expect(
      startControlPlane({ ports: { etcd: port, etcdPeer: port + 1, apiserver: port + 2 } }),
    ).rejects.toThrow(/port \d+ on 127\.0\.0\.1 is busy/);
  });
});

describe("the node agent", () => {
  it("runs a pod with its env resolved and $(VAR) expanded, and reports its exit", async () => {
    await core.createNamespacedSecret({
      namespace: "default",
      body: { metadata: { name: "creds" }, stringData: { KEY: "s3cret", OTHER: "x" } },
    });
    await core.createNamespacedConfigMap({
      namespace: "default",
      body: { metadata: { name: "settings" }, data: { MODE: "fast" } },
    });
    await core.createNamespacedPod({
      namespace: "default",
      body: {
        metadata: { name: "env-check", labels: { app: "probe" }, annotations: { when: "2026" } },
        spec: {
          restartPolicy: "Never",
          containers: [
            {
              name: "main",
              image: "busybox",
              args: ["echo $(GREETING) $APP $WHEN $KEY $FROM_MODE $POD; exit 5"],
              envFrom: [{ configMapRef: { name: "settings" }, prefix: "FROM_" }],
              env: [
                { name: "WHO", value: "world" },
                { name: "GREETING", value: "hello-$(WHO)" },
                { name: "APP", valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
                {
                  name: "WHEN",
                  valueFrom: { fieldRef: { fieldPath: "metadata.annotations['when']" } },
                },
                { name: "POD", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
                { name: "KEY", valueFrom: { secretKeyRef: { name: "creds", key: "KEY" } } },
              ],
            },
          ],
        },
      },
    });
    const pod = await until(
      "pod env-check",
      () => core.readNamespacedPod({ name: "env-check", namespace: "default" }),
      (read) => read.status?.phase === "Failed",
    );
    expect(agent.output("env-check")).toBe("hello-world probe 2026 s3cret fast env-check\n");
    expect(pod.status?.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(5);
  });

  it("runs TailLab's image as the local CLI, and fails a pod whose image it does not know", async () => {
    const pod = (name: string, image: string) =>
      core.createNamespacedPod({
        namespace: "default",
        body: {
          metadata: { name },
          spec: {
            restartPolicy: "Never",
            containers: [{ name: "main", image, args: ["presets"] }],
          },
        },
      });
    await pod("cli", TAILLAB_TEST_IMAGE);
    await pod("unknown", "nginx:1.27");
    const phase = (name: string) =>
      until(
        `pod ${name}`,
        () => core.readNamespacedPod({ name, namespace: "default" }),
        (read) => read.status?.phase === "Succeeded" || read.status?.phase === "Failed",
      );
    expect((await phase("cli")).status?.phase).toBe("Succeeded");
    expect(agent.output("cli")).toMatch(/document-backup/);
    const unknown = (await phase("unknown")).status?.containerStatuses?.[0]?.state?.terminated;
    expect(unknown?.reason).toBe("CreateContainerConfigError");
    expect(unknown?.message).toMatch(/image "nginx:1.27" is not known/);
  });

  it("lets the real Job controller complete an Indexed Job and fail the index that exits 3", async () => {
    const job: V1Job = {
      metadata: { name: "indexed" },
      spec: {
        completionMode: "Indexed",
        completions: 4,
        parallelism: 4,
        backoffLimitPerIndex: 0,
        maxFailedIndexes: 4,
        podReplacementPolicy: "Failed",
        podFailurePolicy: {
          rules: [
            {
              action: "FailIndex",
              onExitCodes: { containerName: "main", operator: "In", values: [3] },
            },
            { action: "Ignore", onPodConditions: [{ type: "DisruptionTarget", status: "True" }] },
          ],
        },
        template: {
          spec: {
            restartPolicy: "Never",
            containers: [
              {
                name: "main",
                image: "busybox",
                args: ['test "$(JOB_COMPLETION_INDEX)" != 2 || exit 3'],
              },
            ],
          },
        },
      },
    };
    await batch.createNamespacedJob({ namespace: "default", body: job });
    const done = await until(
      "Job indexed",
      () => batch.readNamespacedJob({ name: "indexed", namespace: "default" }),
      (read) =>
        (read.status?.conditions ?? []).some(
          (condition) => condition.type === "Failed" && condition.status === "True",
        ),
    );
    expect(done.status?.completedIndexes).toBe("0,1,3");
    expect(done.status?.failedIndexes).toBe("2");
    const failed = done.status?.conditions?.find((condition) => condition.type === "Failed");
    expect(failed?.reason).toBe("FailedIndexes");
    expect(existsSync(cluster.kubeconfig)).toBe(true);
  });
});
