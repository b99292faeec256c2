/**
 * `pnpm bench distributed`: figures of distributed runs, for the closing note of issue 13.
 * - Start spread: N = 4, 8 and 16 local shard processes (`taillab run --shard`) against the
 *   embedded testbed, the latest minus the earliest actual start, from the merged run.
 * - Merge time: `taillab merge`'s path (mergeRunFolder) for 100 shards of 1 M requests each:
 *   their results read from the bucket (the embedded testbed, serving from this process), checked,
 *   merged and written into a results library. The results are folded from generated requests
 *   once (two shards' worth, alternated) and uploaded under every index.
 * - Barrier overhead and start spread on the local control plane: `taillab k8s run` with 4, 16
 *   and 64 shards (BENCH_KUBERNETES_SHARDS=4,16,64), each pod a shard process run by the test
 *   node agent; seconds from the Job's submission to T0, and the start spread.
 * BENCH_SKIP_KUBERNETES=1 leaves the control plane out; BENCH_ONLY_KUBERNETES=1 runs it alone.
 */
import {
  DISTRIBUTED_SCHEMA_VERSION,
  RunSpecSchema,
  type ShardPhase,
  type ShardResult,
} from "@taillab/api";
import { PhaseAccount, type LogicalRequest } from "@taillab/core";
import {
  startControlPlane,
  startTaillabNodeAgent,
  TAILLAB_TEST_IMAGE,
} from "@taillab/test-support";
import { startTestbed } from "@taillab/testbed";
import { execFile } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { openResultsStore } from "../src/index.ts";
import { captureEnvironment } from "../src/run-environment.ts";
import { planKubernetesRun, runOnKubernetes } from "../src/kubernetes.ts";
import { readyAtKey } from "../src/distributed/barrier-markers.ts";
import {
  DEFAULT_POD_SETTINGS,
  DEFAULT_TTL_AFTER_FINISHED_SECONDS,
} from "../src/distributed/kubernetes-defaults.ts";
import { mergeRunFolder } from "../src/distributed/merge-run.ts";
import { openRunFolder } from "../src/distributed/run-folder-client.ts";
import { doneKey, resultKey } from "../src/distributed/run-folder-layout.ts";

const REPOSITORY = fileURLToPath(new URL("../../..", import.meta.url));
const CLI = join(REPOSITORY, "apps", "cli", "src", "main.ts");
const credentials = { accessKeyId: "BENCHKEY", secretAccessKey: "bench-secret" };
const secrets = {
  env: {
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  },
};
const run = promisify(execFile);

const testbed = await startTestbed({ credentials, buckets: ["loadgen"] });
const spec = (clients: number) =>
  RunSpecSchema.parse({
    endpoints: [{ url: testbed.url }],
    clients,
    samples: clients * 50,
    objectSize: 1024,
    phases: ["write"],
  });

const onlyKubernetes = process.env.BENCH_ONLY_KUBERNETES === "1";
try {
  if (!onlyKubernetes) await localShards();
  if (process.env.BENCH_SKIP_KUBERNETES !== "1") await barrierOverhead();
} finally {
  await testbed.close();
}

async function localShards(): Promise<void> {
  console.log("start spread of local shard processes (latest - earliest actual start):");
  for (const shards of [4, 8, 16]) {
    const runId = `bench-spread-${shards}-${Date.now()}`;
    const folder = { bucket: "loadgen", prefix: `taillab/${runId}/`, runId };
    const startAt = new Date().toISOString();
    await Promise.all(
      Array.from({ length: shards }, (_, index) =>
        run(
          process.execPath,
          [
            CLI,
            "run",
            "--spec-json",
            JSON.stringify(spec(shards)),
            "--shard",
            `${index}/${shards}`,
            "--start-at",
            startAt,
            "--results",
            `s3://loadgen/${folder.prefix}`,
          ],
          { env: { ...process.env, ...secrets.env } },
        ),
      ),
    );
    const client = await openRunFolder(spec(shards), secrets, folder);
    const store = await openResultsStore(await mkdtemp(join(tmpdir(), "taillab-bench-")));
    const { summary } = await mergeRunFolder({ markers: client.markers, runId, store });
    await client.close();
    console.log(`  N = ${String(shards).padStart(2)}: ${summary.distributed?.startSpreadMs} ms`);
  }

  console.log("merge of 100 shards of 1 M requests each (taillab merge's path):");
  await mergeFromBucket(100, 1_000_000);
}

/**
 * Uploads `shards` results of `requests` requests each into a run's folder, with the markers a
 * finished run leaves (ready-at, done), then times mergeRunFolder on it, as `taillab merge` runs it.
 */
async function mergeFromBucket(shards: number, requests: number): Promise<void> {
  const generatedStarted = performance.now();
  const runId = `bench-merge-${Date.now()}`;
  const folder = { bucket: "loadgen", prefix: `taillab/${runId}/`, runId };
  const shardSpec = spec(shards * 10);
  const T0 = Date.now();
  const phases = [1, 2].map((seed) => foldedPhase(requests, seed));
  const client = await openRunFolder(shardSpec, secrets, folder);
  let bytes = 0;
  try {
    for (let index = 0; index < shards; index += 1) {
      const result: ShardResult = {
        schemaVersion: DISTRIBUTED_SCHEMA_VERSION,
        kind: "taillab-shard-result",
        runId,
        index,
        shards,
        spec: shardSpec,
        environment: captureEnvironment(null),
        endpointUrls: [testbed.url],
        runStartEpochMs: T0,
        startAtMs: T0,
        t0Ms: T0,
        startedAtMs: T0,
        clock: null,
        status: "complete",
        error: null,
        points: [
          {
            params: { clients: 10, samples: requests, objectSizeBytes: 1024 },
            finished: true,
            phases: [phases[index % phases.length] as ShardPhase],
          },
        ],
        recordCount: null,
      };
      const text = JSON.stringify(result);
      bytes += text.length;
      await client.markers.put(resultKey(index), text);
      await client.markers.put(readyAtKey({ index, readyAtMs: T0 - 1_000 }), "");
      await client.markers.put(doneKey(index), JSON.stringify({ index, status: "complete" }));
    }
    console.log(
      `  ${shards} results uploaded (${(bytes / 1e6).toFixed(1)} MB of JSON) in ${((performance.now() - generatedStarted) / 1000).toFixed(1)} s`,
    );
    const store = await openResultsStore(await mkdtemp(join(tmpdir(), "taillab-bench-")));
    const { summary, mergeMs } = await mergeRunFolder({ markers: client.markers, runId, store });
    const merged = summary.points[0]?.phases[0]?.requests ?? 0;
    console.log(
      `  ${merged.toLocaleString("en-US")} requests merged from the bucket into the library in ${(mergeMs / 1000).toFixed(2)} s (read, checked, merged, written)`,
    );
  } finally {
    await client.close();
  }
}

/** One shard's GET phase: `requests` requests over a minute from 10 clients, folded. */
function foldedPhase(requests: number, seed: number): ShardPhase {
  const account = new PhaseAccount({ op: "GET", loop: "closed", hedgeBudgetPct: null });
  let state = seed;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let n = 0; n < requests; n += 1) {
    const startUs = Math.floor((n / requests) * 60e6);
    const serviceUs = 500 + Math.floor(20_000 * random() ** 4);
    const request: LogicalRequest = {
      op: "GET",
      intendedStartUs: startUs,
      phaseIndex: 0,
      client: n % 10,
      measured: true,
      winner: 0,
      attempts: [
        {
          replica: 0,
          readyUs: startUs,
          sentUs: startUs + 10,
          headersUs: startUs + serviceUs,
          firstByteUs: startUs + serviceUs,
          endUs: startUs + serviceUs + 20,
          bytes: 4096,
          error: null,
        },
      ],
    };
    account.add(request);
  }
  const phase = { ...account.shape, summary: account.summary(), account: account.snapshot() };
  account.destroy();
  return phase;
}

async function barrierOverhead(): Promise<void> {
  console.log("barrier overhead on the local control plane (Job submitted -> T0):");
  const cluster = await startControlPlane();
  const agent = await startTaillabNodeAgent(cluster.kubeconfig);
  const counts = (process.env.BENCH_KUBERNETES_SHARDS ?? "4,16,64").split(",").map(Number);
  try {
    for (const shards of counts) await overheadOf(shards, cluster.kubeconfig);
  } finally {
    await agent.stop();
    await cluster.stop();
  }
}

async function overheadOf(shards: number, kubeconfig: string): Promise<void> {
  const plan = await planKubernetesRun(
    {
      spec: spec(shards),
      shards,
      namespace: "default",
      image: TAILLAB_TEST_IMAGE,
      // Many shard processes take long to start on a small machine.
      barrierTimeoutMs: 600_000,
      activeDeadlineSeconds: 1800,
      ttlSecondsAfterFinished: DEFAULT_TTL_AFTER_FINISHED_SECONDS,
      // The node agent's one node takes every shard; a shard process uses far less.
      pod: { ...DEFAULT_POD_SETTINGS, requests: "cpu=100m,memory=64Mi", limits: "" },
      uploadRecords: false,
    },
    secrets,
  );
  let submittedMs = 0;
  const store = await openResultsStore(await mkdtemp(join(tmpdir(), "taillab-bench-")));
  const { summary } = await runOnKubernetes(plan, {
    cluster: { kubeconfig },
    secrets,
    store,
    hooks: {
      onNotice: (message) => {
        if (message.startsWith("submitted Job")) submittedMs = Date.now();
      },
    },
  });
  const t0 = summary.distributed?.t0;
  const overheadS = t0 ? (Date.parse(t0) - submittedMs) / 1000 : null;
  console.log(
    `  ${String(shards).padStart(2)} shards: ${overheadS?.toFixed(2)} s (pods scheduled and started, every shard ready, then the barrier's grace and the next whole second); start spread ${summary.distributed?.startSpreadMs} ms`,
  );
}
