import {
  EMBEDDED_TESTBED_ENDPOINT_ID,
  type IntervalStats,
  type RunEvent,
  type ShardsStatus,
} from "@taillab/api";
import {
  startControlPlane,
  startTaillabNodeAgent,
  TAILLAB_TEST_IMAGE,
  type KubernetesControlPlane,
  type NodeAgent,
} from "@taillab/test-support";
import { createDistributedRunClient, loadKubeConfig } from "@taillab/kubernetes";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  failureOf,
  isFinished,
  startAppClient,
  type AppClient,
} from "./test-support/app-client.ts";

/**
 * The app's "N pods on Kubernetes": its settings, the builder's checks, and a run through the
 * service on the local control plane (one for the file) whose pods the test node agent runs as
 * the repository's CLI, measuring the embedded testbed: the live screen's events and the merged
 * run in the library with each shard's figures.
 */

const credentials = { accessKeyId: "APPSHARDKEY", secretAccessKey: "app-shard-secret" };

let cluster: KubernetesControlPlane;
let agent: NodeAgent;
let testbed: Testbed;
let app: AppClient;

beforeAll(async () => {
  [cluster, testbed] = await Promise.all([
    startControlPlane(),
    startTestbed({ credentials, buckets: ["loadgen"] }),
  ]);
  agent = await startTaillabNodeAgent(cluster.kubeconfig);
  app = await startAppClient({
    env: {
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
  });
});
afterAll(async () => {
  await app?.close();
  await agent?.stop();
  await cluster?.stop();
  await testbed?.close();
});

const spec = { clients: 4, samples: 200, objectSize: "1KiB" };

describe("distributed runs in the app", () => {
  it("keeps the Kubernetes settings, refusing a namespace or a kubeconfig that cannot be", async () => {
    const refused = await failureOf(
      app.api.saveKubernetesSettings({
        kubeconfig: "/no/such/kubeconfig",
        namespace: "Bench",
        requests: "cpu",
        tolerations: "=x",
        spread: "always",
        ttl: "soon",
      }),
    );
    expect(refused.fields.map((field) => field.field).sort()).toEqual([
      "kubeconfig",
      "namespace",
      "requests",
      "spread",
      "tolerations",
      "ttl",
    ]);
    const saved = await app.api.saveKubernetesSettings({
      kubeconfig: cluster.kubeconfig,
      image: TAILLAB_TEST_IMAGE,
      requests: "cpu=100m,memory=256Mi",
      limits: "cpu=1,memory=1Gi",
      ttl: "10m",
    });
    expect(saved).toEqual({
      kubeconfig: cluster.kubeconfig,
      context: "",
      namespace: "",
      image: TAILLAB_TEST_IMAGE,
      requests: "cpu=100m,memory=256Mi",
      limits: "cpu=1,memory=1Gi",
      nodeSelector: "",
      tolerations: "",
      imagePullSecrets: "",
      spread: "",
      ttl: "10m",
    });
    expect(await app.api.kubernetesSettings()).toEqual(saved);
  });

  it("says at the builder's boxes what pods on Kubernetes cannot run", async () => {
    const preview = await app.api.previewExperiment({
      name: "on the testbed",
      endpointId: EMBEDDED_TESTBED_ENDPOINT_ID,
      spec: { ...spec, clients: 2 },
      loadGenerators: { kind: "kubernetes", shards: 3 },
    });
    expect(preview.ok).toBe(false);
    if (preview.ok) return;
    expect(preview.errors.map((error) => error.field)).toEqual(["endpointId", "spec.clients"]);
  });

  it("runs an experiment on 2 pods: its shards followed live, each one in the detail", async () => {
    const endpoint = await app.api.addEndpoint({
      name: "testbed on the network",
      kind: "custom",
      url: testbed.url,
      bucket: "loadgen",
      credentials: {
        kind: "env",
        accessKeyIdVar: "AWS_ACCESS_KEY_ID",
        secretAccessKeyVar: "AWS_SECRET_ACCESS_KEY",
      },
    });
    const finished = app.nextEvent(isFinished);
    const { runId } = await app.api.startRun({
      experiment: {
        name: "two pods",
        endpointId: endpoint.id,
        spec,
        loadGenerators: { kind: "kubernetes", shards: 2 },
      },
    });
    expect(await finished).toMatchObject({ runId, status: "complete" });
    const events = app.events.filter((event) => "runId" in event && event.runId === runId);
    const shards = events
      .filter((event): event is Extract<RunEvent, { type: "shards" }> => event.type === "shards")
      .map((event) => event.status);
    // The pods became ready, the shards met at the barrier, ran and were done.
    const seen = (test: (status: ShardsStatus) => boolean) => shards.some(test);
    expect(seen((status) => status.podsReady > 0)).toBe(true);
    expect(seen((status) => status.ready.length === 2)).toBe(true);
    expect(shards.at(-1)).toMatchObject({ done: [0, 1], job: "Complete", failed: [] });
    expect(
      events.some((event) => event.type === "notice" && event.notice?.code === "jobSubmitted"),
    ).toBe(true);

    const detail = await app.api.getRun({ runId });
    expect(detail.meta.tags).toEqual(["distributed", "kubernetes"]);
    expect(detail.summary.points[0]?.phases.map((phase) => phase.requests)).toEqual([
      200, 200, 200,
    ]);
    expect(detail.summary.distributed?.shards.map((shard) => shard.status)).toEqual([
      "complete",
      "complete",
    ]);
    // The shards' records were uploaded and merged: the detail's charts have them.
    expect(detail.latencySeries.length).toBeGreaterThan(0);

    // The live figures end on the merged ones: finished shards' last progress counts too.
    const progress = app.events.filter(
      (event): event is Extract<RunEvent, { type: "progress" }> =>
        event.type === "progress" && event.progress.runId === runId,
    );
    const last = progress.at(-1);
    const lastPhase = detail.summary.points[0]?.phases.at(-1);
    expect(last?.progress).toMatchObject({ op: lastPhase?.op, done: lastPhase?.requests });
    expect(last?.percentiles?.count).toBe((lastPhase?.requests ?? 0) - (lastPhase?.errors ?? 0));
    // The last phase's percentiles over time arrived live (a phase shorter than the folder's
    // polls may not), and are the merged run's, second by second.
    const stored = detail.intervals.find(
      (phase) => phase.pointIndex === 0 && phase.op === lastPhase?.op,
    );
    const live = new Map<number, IntervalStats>();
    for (const { intervals } of progress) {
      if (!intervals || intervals.op !== lastPhase?.op || intervals.pointIndex !== 0) continue;
      for (const interval of intervals.intervals) live.set(interval.startMs, interval);
    }
    expect(stored?.intervals.length).toBeGreaterThan(0);
    expect([...live.values()].sort((a, b) => a.startMs - b.startMs)).toEqual(stored?.intervals);
  });

  it("stops a run on pods from the app: its Job deleted, what the shards measured merged", async () => {
    const endpoint = (await app.api.listEndpoints()).find(
      (saved) => saved.name === "testbed on the network",
    );
    const measuring = app.nextEvent(
      (event): event is Extract<RunEvent, { type: "shards" }> =>
        event.type === "shards" && event.status.running.length === 2,
    );
    const finished = app.nextEvent(isFinished);
    const { runId } = await app.api.startRun({
      experiment: {
        name: "stopped pods",
        endpointId: endpoint?.id ?? "",
        spec: { clients: 2, samples: 20_000, objectSize: "1KiB" },
        loadGenerators: { kind: "kubernetes", shards: 2 },
      },
    });
    await measuring;
    // Not in the library yet (a distributed run lands there once merged), yet it is stopped.
    await app.api.stopRun({ runId });
    expect(await finished).toMatchObject({ runId, status: "stopped" });
    const client = createDistributedRunClient(loadKubeConfig({ kubeconfig: cluster.kubeconfig }));
    const job = { namespace: "default", jobName: `taillab-${runId}`, createdSecret: null };
    await expect(client.follow(job)).rejects.toMatchObject({ status: 404 });
    const detail = await app.api.getRun({ runId });
    expect(detail.summary.points[0]?.phases[0]?.requests).toBeGreaterThan(0);
  });
});
