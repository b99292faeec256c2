import { describe, expect, it } from "vitest";
import { InputError } from "../input-error.ts";
import { DEFAULT_POD_SETTINGS, DEFAULT_TTL_AFTER_FINISHED_SECONDS } from "./kubernetes-defaults.ts";
import {
  planKubernetesRun,
  shardsStatus,
  unsettledShards,
  type KubernetesRunRequest,
} from "./kubernetes-run.ts";
import type { RunFolderSnapshot } from "./run-folder-reader.ts";

/** The plan of a run on Kubernetes (no cluster needed): its Job, and what cannot go to pods. */

const request = (spec: object): KubernetesRunRequest => ({
  spec,
  shards: 2,
  namespace: "bench",
  image: "registry.test/taillab:0.1.0",
  barrierTimeoutMs: 60_000,
  activeDeadlineSeconds: 600,
  ttlSecondsAfterFinished: DEFAULT_TTL_AFTER_FINISHED_SECONDS,
  pod: DEFAULT_POD_SETTINGS,
  uploadRecords: false,
});
const secrets = { env: { AWS_ACCESS_KEY_ID: "AKID", AWS_SECRET_ACCESS_KEY: "secret" } };

describe("a run's plan on Kubernetes", () => {
  it("hands each pod the spec with its keys from the Secret, a $ kept from expansion", async () => {
    const plan = await planKubernetesRun(
      request({
        name: "costs $(HOME)",
        endpoints: [{ url: "http://minio.storage:9000" }],
        clients: 4,
        samples: 100,
        objectSize: 1024,
      }),
      secrets,
    );
    const args = plan.manifests.job.spec?.template.spec?.containers[0]?.args ?? [];
    expect(args[2]).toContain('"name":"costs $$(HOME)"');
    const podSpec = JSON.parse((args[2] ?? "").split("$$").join("$")) as {
      endpoints: { credentials: unknown }[];
    };
    expect(podSpec.endpoints[0]?.credentials).toEqual({
      kind: "env",
      accessKeyIdVar: "AWS_ACCESS_KEY_ID",
      secretAccessKeyVar: "AWS_SECRET_ACCESS_KEY",
    });
    expect(plan.manifests.secret?.stringData).toEqual({
      AWS_ACCESS_KEY_ID: "AKID",
      AWS_SECRET_ACCESS_KEY: "secret",
    });
    expect(plan.folder).toEqual({
      bucket: "loadgen",
      prefix: `taillab/${plan.runId}/`,
      runId: plan.runId,
    });
  });

  it("starts the pods at the start-at it is given, the barrier's deadline counted from it", async () => {
    const startAtMs = Date.parse("2030-01-02T03:04:05.000Z");
    const plan = await planKubernetesRun(
      {
        ...request({
          endpoints: [{ url: "http://minio.storage:9000" }],
          clients: 4,
          samples: 100,
          objectSize: 1024,
        }),
        startAtMs,
      },
      null,
    );
    const template = plan.manifests.job.spec?.template;
    expect(template?.metadata?.annotations).toEqual({
      "taillab.io/start-at": "2030-01-02T03:04:05.000Z",
    });
    expect(template?.spec?.containers[0]?.args).toContain("60000ms");
    expect(plan).toMatchObject({ startAtMs, deadlineMs: startAtMs + 60_000 });
    // Without one, the run starts now: the plan is applied at once.
    const beforeMs = Date.now();
    const now = await planKubernetesRun(
      request({
        endpoints: [{ url: "http://minio.storage:9000" }],
        clients: 4,
        samples: 100,
        objectSize: 1024,
      }),
      null,
    );
    expect(now.startAtMs).toBeGreaterThanOrEqual(beforeMs);
    expect(now.startAtMs).toBeLessThanOrEqual(Date.now());
    expect(now.deadlineMs - now.startAtMs).toBe(60_000);
  });

  it("refuses what the pods cannot have: a CA file of this machine, the embedded testbed", async () => {
    const refused = await planKubernetesRun(
      request({
        endpoints: [{ url: "https://minio.storage:9000", caFile: "/etc/lab/ca.pem" }],
        clients: 4,
        samples: 100,
        objectSize: 1024,
      }),
      secrets,
    ).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(InputError);
    expect((refused as InputError).problems.map((problem) => problem.field)).toEqual([
      "endpoints[0].caFile",
    ]);
    const testbed = await planKubernetesRun(
      request({ clients: 4, samples: 100, objectSize: 1024 }),
      secrets,
    ).then(
      () => null,
      (error: unknown) => error as InputError,
    );
    expect(testbed?.problems.map((problem) => problem.field)).toEqual(["endpoint"]);
  });
});

describe("after a stop, the shards still to be waited for", () => {
  const snapshot = (parts: Partial<RunFolderSnapshot>): RunFolderSnapshot => ({
    readyAtMs: new Map(),
    readyTwice: [],
    aborted: new Set(),
    stopped: true,
    done: new Set(),
    progress: [],
    results: [],
    unreadable: [],
    ...parts,
  });

  it("are those past the barrier with no progress yet: they may be measuring already", () => {
    const ready = new Map([
      [0, 1],
      [1, 2],
    ]);
    expect(unsettledShards(snapshot({ readyAtMs: ready }))).toEqual([0, 1]);
  });

  it("leave out shards that left their result or gave up at the barrier", () => {
    const ready = new Map([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(
      unsettledShards(snapshot({ readyAtMs: ready, done: new Set([0]), aborted: new Set([2]) })),
    ).toEqual([1]);
    expect(unsettledShards(snapshot({}))).toEqual([]);
  });
});

describe("the shards as the Job and the run's folder show them", () => {
  it("count a killed shard as failed, not also as running on its last progress", () => {
    const progress = [0, 1].map((index) => ({ index }) as RunFolderSnapshot["progress"][number]);
    const folder = {
      readyAtMs: new Map([
        [0, 1],
        [1, 2],
      ]),
      done: new Set<number>(),
      progress,
    };
    const job = {
      ready: 1,
      active: 1,
      completedIndexes: [],
      failedIndexes: [1],
      finished: null,
      reason: null,
      message: null,
    };
    expect(shardsStatus(2, job, folder as unknown as RunFolderSnapshot)).toMatchObject({
      running: [0],
      failed: [1],
    });
  });
});
