/**
 * `pnpm bench distributed`: figures of distributed runs, for the closing note of issue 13.
 * - Start spread: N = 4, 8 and 16 local shard processes (`taillab run --shard`) against the
 *   embedded testbed (BENCH_LOCAL_SHARDS=4,8,16), the latest minus the earliest actual start,
 *   from the merged run, and the time of that merge.
 * - Merge time: `taillab merge`'s path (mergeRunFolder) for 100 shards of 1 M requests each
 *   (BENCH_MERGE_SHARDS, BENCH_MERGE_REQUESTS):
 *   their results read from the bucket (the embedded testbed, serving from this process), checked,
 *   merged and written into a results library. The results are folded from generated requests
 *   once (two shards' worth, alternated) and uploaded under every index.
 * - Barrier overhead and start spread on the local control plane: `taillab k8s run` with 4, 16
 *   and 64 shards (BENCH_KUBERNETES_SHARDS=4,16,64), each pod a shard process run by the test
 *   node agent; seconds from the Job's submission to T0, the start spread and the merge's time.
 * - From a shard's death to the others going on, on the local control plane: 3 shards write then
 *   read; shard 1 is frozen while writing (SIGSTOP, as a hung process), so the others end their
 *   write and wait for it at the read's phase gate; then it is killed (SIGKILL, as the OOM
 *   killer). The gate's own wait is 10 min: only the Job's failed index (the run's starter writes
 *   gone/1) lets the others go on. Seconds from the kill to the gone marker, and to the others'
 *   first read (their read phase's first intended start).
 * - The manifest path at scale without processes (BENCH_KWOK_SHARDS=64, off by default): kwok's
 *   fake nodes take the Job `taillab k8s run` generates for N shards from submission to Complete.
 * BENCH_SKIP_KUBERNETES=1 leaves the control plane out; BENCH_ONLY_KUBERNETES=1 runs it alone;
 * BENCH_SKIP_BIG_MERGE=1 leaves out the merge of many shards' results.
 */
import { RunSpecSchema, ShardResultSchema, type RunSpec, type ShardPhase } from "@taillab/api";
import {
  startControlPlane,
  startKwokCluster,
  startTaillabNodeAgent,
  TAILLAB_TEST_IMAGE,
  type NodeAgent,
} from "@taillab/test-support";
import { startTestbed } from "@taillab/testbed";
import { execFile } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { openResultsStore } from "../src/index.ts";
import { planKubernetesRun, runOnKubernetes } from "../src/kubernetes.ts";
import {
  DEFAULT_POD_SETTINGS,
  DEFAULT_TTL_AFTER_FINISHED_SECONDS,
} from "../src/distributed/kubernetes-defaults.ts";
import { phasePrefix } from "../src/distributed/barrier-markers.ts";
import { mergeRunFolder } from "../src/distributed/merge-run.ts";
import { openRunFolder } from "../src/distributed/run-folder-client.ts";
import {
  goneKey,
  progressKey,
  resultKey,
  SHARD_RESULT_LIMIT_BYTES,
} from "../src/distributed/run-folder-layout.ts";
import { foldedPhase, putGeneratedShard } from "../src/distributed/test-support/generated-shard.ts";

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
/** Shard processes started at once (localShards). */
const SPAWN_WAVE = 8;

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
  if (process.env.BENCH_KWOK_SHARDS) await kwokJob(Number(process.env.BENCH_KWOK_SHARDS));
} finally {
  await testbed.close();
}

async function localShards(): Promise<void> {
  console.log("start spread of local shard processes (latest - earliest actual start):");
  // Empty: none (only the merge of many shards' results).
  const counts = (process.env.BENCH_LOCAL_SHARDS ?? "4,8,16")
    .split(",")
    .filter(Boolean)
    .map(Number);
  for (const shards of counts) {
    const runId = `bench-spread-${shards}-${Date.now()}`;
    const folder = { bucket: "loadgen", prefix: `taillab/${runId}/`, runId };
    const startAt = new Date().toISOString();
    const client = await openRunFolder(spec(shards), secrets, folder);
    const shard = (index: number) =>
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
          "--barrier-timeout",
          "30m",
        ],
        { env: { ...process.env, ...secrets.env } },
      );
    // Dozens of processes loading at once on two cores starve the testbed past a shard's 5 s
    // first connect: a wave starts once the one before is waiting at the barrier.
    const running: Promise<unknown>[] = [];
    for (let first = 0; first < shards; first += SPAWN_WAVE) {
      const wave = Math.min(SPAWN_WAVE, shards - first);
      for (let index = first; index < first + wave; index += 1) running.push(shard(index));
      while ((await client.markers.list("ready-at/")).length < first + wave) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    await Promise.all(running);
    const store = await openResultsStore(await mkdtemp(join(tmpdir(), "taillab-bench-")));
    const { summary, mergeMs } = await mergeRunFolder({ markers: client.markers, runId, store });
    await client.close();
    console.log(
      `  N = ${String(shards).padStart(2)}: ${summary.distributed?.startSpreadMs} ms; merged in ${(mergeMs / 1000).toFixed(2)} s`,
    );
  }
  if (process.env.BENCH_SKIP_BIG_MERGE === "1") return;

  const shards = Number(process.env.BENCH_MERGE_SHARDS ?? 100);
  const requests = Number(process.env.BENCH_MERGE_REQUESTS ?? 1_000_000);
  console.log(
    `merge of ${shards} shards of ${requests.toLocaleString("en-US")} requests each (taillab merge's path):`,
  );
  await mergeFromBucket(shards, requests);
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
  // Measured ten minutes ago: a merge refuses a result whose times are after now.
  const T0 = Date.now() - 600_000;
  const phases = [1, 2].map((seed) => foldedPhase(requests, seed));
  const client = await openRunFolder(shardSpec, secrets, folder);
  let bytes = 0;
  try {
    for (let index = 0; index < shards; index += 1) {
      const put = await putGeneratedShard(client.markers, {
        runId,
        index,
        shards,
        spec: shardSpec,
        endpointUrl: testbed.url,
        runStartEpochMs: T0,
        phase: phases[index % phases.length] as ShardPhase,
        records: null,
      });
      bytes += put.resultBytes;
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

/** Seconds from the Job's submission to its end, its pods kwok's (they measure nothing). */
async function kwokJob(shards: number): Promise<void> {
  console.log(`the Job of ${shards} shards on kwok's fake nodes (submitted -> Complete):`);
  const kwok = await startKwokCluster({ nodes: 4 });
  try {
    const plan = await planKubernetesRun(
      {
        spec: spec(shards),
        shards,
        namespace: "default",
        image: TAILLAB_TEST_IMAGE,
        barrierTimeoutMs: 60_000,
        activeDeadlineSeconds: 600,
        ttlSecondsAfterFinished: DEFAULT_TTL_AFTER_FINISHED_SECONDS,
        pod: DEFAULT_POD_SETTINGS,
        uploadRecords: false,
      },
      secrets,
    );
    let submittedMs = 0;
    let completeMs = 0;
    const store = await openResultsStore(await mkdtemp(join(tmpdir(), "taillab-bench-")));
    // Fake pods leave no result: the run ends with "no shard left a result", as expected.
    await runOnKubernetes(plan, {
      cluster: { kubeconfig: kwok.kubeconfig },
      secrets,
      store,
      hooks: {
        onNotice: (message) => {
          if (message.startsWith("submitted Job")) submittedMs = Date.now();
        },
        onShards: (status) => {
          if (status.job === "Complete" && completeMs === 0) completeMs = Date.now();
        },
      },
    }).catch(() => undefined);
    console.log(
      `  ${shards} shards: ${((completeMs - submittedMs) / 1000).toFixed(2)} s (${shards} pods created, scheduled, run and completed by kwok)`,
    );
  } finally {
    await kwok.stop();
  }
}

async function barrierOverhead(): Promise<void> {
  console.log("barrier overhead on the local control plane (Job submitted -> T0):");
  const cluster = await startControlPlane();
  const agent = await startTaillabNodeAgent(cluster.kubeconfig);
  const counts = (process.env.BENCH_KUBERNETES_SHARDS ?? "4,16,64")
    .split(",")
    .filter(Boolean)
    .map(Number);
  try {
    for (const shards of counts) await overheadOf(shards, cluster.kubeconfig);
    await deathToGoingOn(cluster.kubeconfig, agent);
  } finally {
    await agent.stop();
    await cluster.stop();
  }
}

/**
 * A run of `shards` shards on the test node agent. Its barrier timeout, also the phase gates'
 * wait, is long: many shard processes take long to start on a small machine, and a gate must not
 * give up on a dead shard before the Job says so.
 */
function planOnTestNode(runSpec: RunSpec, shards: number) {
  return planKubernetesRun(
    {
      spec: runSpec,
      shards,
      namespace: "default",
      image: TAILLAB_TEST_IMAGE,
      barrierTimeoutMs: 600_000,
      activeDeadlineSeconds: 1800,
      ttlSecondsAfterFinished: DEFAULT_TTL_AFTER_FINISHED_SECONDS,
      // The node agent's one node takes every shard; a shard process uses far less.
      pod: { ...DEFAULT_POD_SETTINGS, requests: "cpu=100m,memory=64Mi", limits: "" },
      uploadRecords: false,
    },
    secrets,
  );
}

async function overheadOf(shards: number, kubeconfig: string): Promise<void> {
  const plan = await planOnTestNode(spec(shards), shards);
  let submittedMs = 0;
  const store = await openResultsStore(await mkdtemp(join(tmpdir(), "taillab-bench-")));
  const { summary, mergeMs } = await runOnKubernetes(plan, {
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
    `  ${String(shards).padStart(2)} shards: ${overheadS?.toFixed(2)} s (pods scheduled and started, every shard ready, then the barrier's grace and the next whole second); start spread ${summary.distributed?.startSpreadMs} ms; merge ${(mergeMs / 1000).toFixed(2)} s`,
  );
}

async function deathToGoingOn(kubeconfig: string, agent: NodeAgent): Promise<void> {
  console.log("from a shard's death to the others going on (3 shards, shard 1 killed):");
  const shards = 3;
  const plan = await planOnTestNode(
    RunSpecSchema.parse({
      endpoints: [{ url: testbed.url }],
      clients: 3,
      samples: 1500,
      objectSize: 1024,
      phases: ["write", "read"],
    }),
    shards,
  );
  const jobName = plan.manifests.job.metadata?.name ?? "";
  const folder = await openRunFolder(plan.spec, secrets, plan.folder);
  const store = await openResultsStore(await mkdtemp(join(tmpdir(), "taillab-bench-")));
  const running = runOnKubernetes(plan, {
    cluster: { kubeconfig },
    secrets,
    store,
    hooks: {},
    keepRunFolder: true,
  });
  try {
    const victim = await until(async () => {
      const measuring = await folder.markers.list(progressKey(1));
      const pod = agent.running().find((name) => name.startsWith(`${jobName}-1-`));
      return measuring.length > 0 && pod !== undefined ? pod : null;
    });
    agent.freeze(victim);
    // The read's gate (phase 1): shards 0 and 2 came and wait there for shard 1.
    await until(async () => {
      const came = await folder.markers.list(phasePrefix(1));
      return came.length >= 2 ? came : null;
    });
    const killedMs = Date.now();
    agent.kill(victim);
    await running;
    const gone = await folder.markers.get(goneKey(1));
    const goneMs = gone === null ? Number.NaN : Date.parse(JSON.parse(text(gone)).at);
    const goingOnMs = await Promise.all(
      [0, 2].map(async (index) => {
        const bytes = await folder.markers.get(resultKey(index), SHARD_RESULT_LIMIT_BYTES);
        const result = ShardResultSchema.parse(JSON.parse(text(bytes ?? new Uint8Array())));
        const read = result.points[0]?.phases.find((phase) => phase.op === "GET");
        const firstUs = read?.account.segments.reduce(
          (first, segment) => Math.min(first, segment.firstIntendedUs),
          Number.POSITIVE_INFINITY,
        );
        return result.runStartEpochMs + (firstUs ?? Number.NaN) / 1000;
      }),
    );
    const seconds = (ms: number) => ((ms - killedMs) / 1000).toFixed(2);
    console.log(
      `  killed -> gone/1 written by the run's starter: ${seconds(goneMs)} s; killed -> the others' first read: ${goingOnMs.map(seconds).join(" s and ")} s (their gate's own wait: 600 s)`,
    );
  } finally {
    await folder.markers.remove(await folder.markers.list(""));
    await folder.close();
  }
}

async function until<T>(look: () => Promise<T | null>): Promise<T> {
  for (;;) {
    const found = await look();
    if (found !== null) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
