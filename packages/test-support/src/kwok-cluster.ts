import { execFile, execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { freePorts } from "./free-port.ts";

/**
 * A kwok cluster for one test file: a real control plane (the binaries of
 * scripts/ensure-kubernetes.sh, started by kwokctl on 127.0.0.1) whose nodes are fake and whose
 * pods kwok moves through Running to Succeeded without any process: scale without the cost.
 * Everything lives in one temporary folder (KWOK_WORKDIR, HOME); nothing is written to $HOME.
 */
export interface KwokCluster {
  /** A kubeconfig file whose current context is this cluster. */
  kubeconfig: string;
  /** Adds fake nodes until there are `count`. */
  scaleNodes(count: number): Promise<void>;
  /** Deletes the cluster (its processes) and the folder. */
  stop(): Promise<void>;
}

/**
 * A pod annotated so (any value) stays Running until the annotation is removed; other pods of a
 * Job finish as soon as they run. The scheduler leaves finished pods out of its counts, so a test
 * of where pods land must hold them all running at once, as a real run's shards are.
 */
export const KWOK_HOLD_RUNNING = "taillab.test/hold-running";

const run = promisify(execFile);
const ENSURE_KUBERNETES = fileURLToPath(
  new URL("../../../scripts/ensure-kubernetes.sh", import.meta.url),
);

export async function startKwokCluster(options: { nodes?: number } = {}): Promise<KwokCluster> {
  const { stdout } = await run("bash", [ENSURE_KUBERNETES], { maxBuffer: 1 << 20 });
  const bin = stdout.trim().split("\n").at(-1) as string;
  const dir = await mkdtemp(join(tmpdir(), "taillab-kwok-"));
  const name = "taillab";
  const kubeconfig = join(dir, "kubeconfig");
  const config = join(dir, "kwok.yaml");
  // Every port chosen here: kwokctl's own choice counts down from 32767 in each process, so two
  // clusters starting at once (two test files) took the same etcd ports, and the second
  // apiserver stored its objects in the first cluster's etcd.
  const [etcd, etcdPeer, apiserver, controllerManager, scheduler, kwokController] =
    await freePorts(6);
  await writeFile(
    config,
    [
      "apiVersion: config.kwok.x-k8s.io/v1alpha1",
      "kind: KwokctlConfiguration",
      "options:",
      "  runtime: binary",
      "  bindAddress: 127.0.0.1",
      // The default client limits (20 requests/s) make the Job controller create 500 pods in 25 s.
      "  disableQPSLimits: true",
      `  etcdPort: ${etcd}`,
      `  etcdPeerPort: ${etcdPeer}`,
      `  kubeApiserverPort: ${apiserver}`,
      `  kubeControllerManagerPort: ${controllerManager}`,
      `  kubeSchedulerPort: ${scheduler}`,
      `  kwokControllerPort: ${kwokController}`,
      "  kubeVersion: v1.34.4",
      `  etcdBinary: ${join(bin, "etcd")}`,
      `  kubeApiserverBinary: ${join(bin, "kube-apiserver")}`,
      `  kubeControllerManagerBinary: ${join(bin, "kube-controller-manager")}`,
      `  kubeSchedulerBinary: ${join(bin, "kube-scheduler")}`,
      `  kwokControllerBinary: ${join(bin, "kwok")}`,
      `  kubectlBinary: ${join(bin, "kubectl")}`,
      // kwokctl's own default Stages but for the hold (kwok-stages.yaml says where they come from).
      await readFile(new URL("./kwok-stages.yaml", import.meta.url), "utf8"),
    ].join("\n"),
  );
  // kwokctl looks for kubectl on PATH before its configured binary: ours comes first.
  const env = {
    PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: dir,
    KWOK_WORKDIR: join(dir, "work"),
  };
  const kwokctl = (...args: string[]) =>
    run(join(bin, "kwokctl"), [...args, "--name", name], {
      env,
      maxBuffer: 16 << 20,
    }).catch((error: Error & { stderr?: string }) => {
      throw new Error(`kwokctl ${args.join(" ")} failed: ${error.stderr?.trim() || error.message}`);
    });

  // kwokctl starts the cluster's processes detached: a test process that exits without stop()
  // must still take them down, or a stale cluster outlives it.
  const deleteOnExit = () => {
    try {
      execFileSync(
        join(bin, "kwokctl"),
        ["delete", "cluster", "--name", name, "--kubeconfig", kubeconfig],
        {
          env,
          stdio: "ignore",
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  process.once("exit", deleteOnExit);
  const stop = async () => {
    process.off("exit", deleteOnExit);
    await kwokctl("delete", "cluster", "--kubeconfig", kubeconfig).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await kwokctl(
      "create",
      "cluster",
      "--config",
      config,
      "--kubeconfig",
      kubeconfig,
      "--wait",
      "60s",
    );
    const cluster: KwokCluster = {
      kubeconfig,
      scaleNodes: async (count) => {
        await kwokctl("scale", "node", "--replicas", String(count));
      },
      stop,
    };
    if (options.nodes !== undefined) await cluster.scaleNodes(options.nodes);
    return cluster;
  } catch (error) {
    await stop();
    throw error;
  }
}
