import {
  CoordinationV1Api,
  CoreV1Api,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1Pod,
  type V1PodStatus,
} from "@kubernetes/client-node";
import { spawn, type ChildProcess } from "node:child_process";
import { containerEnvironment, expand, PodConfigError, type KeyLookup } from "./pod-environment.ts";

/**
 * A test-only node: no kubelet or container runtime can run here, so this registers a Node, keeps
 * its status and Lease fresh, and runs the pods bound to it as local processes — the image mapped
 * to a local command — reporting Running, then Succeeded or Failed with the exit code. The real
 * Job controller then applies completions, podFailurePolicy and backoffLimitPerIndex. A pod being
 * deleted (kubectl delete, or the Eviction API, which first marks it DisruptionTarget) is ended
 * as a kubelet ends it: SIGTERM to its process, the pod reported Failed with the exit code and
 * its conditions kept, then the object let go.
 */
export interface NodeAgent {
  nodeName: string;
  /** Output of a pod's process so far (stdout and stderr), by pod name. */
  output(podName: string): string;
  /** The pods whose processes run now, by name. */
  running(): string[];
  /**
   * SIGKILL to a pod's process, as the OOM killer or a crash would end it: no SIGTERM, nothing
   * left behind; the pod is reported Failed with exit code 137. False when it is not running.
   */
  kill(podName: string): boolean;
  /**
   * SIGSTOP to a pod's process, as a hung or swapped-out process stalls: it stays Running and
   * answers nothing until killed. False when it is not running.
   */
  freeze(podName: string): boolean;
  /** Kills the running processes and stops reporting; the Node object stays. */
  stop(): Promise<void>;
}

export interface NodeAgentOptions {
  kubeconfig: string;
  nodeName?: string;
  /**
   * The command an image runs when the container sets none (its entrypoint), e.g. TailLab's image
   * → ["node", "apps/cli/src/main.ts"]. Undefined: the image is unknown and the pod fails.
   */
  entrypoint: (image: string) => string[] | undefined;
  /** Working folder of the processes. */
  cwd?: string;
  /** Variables every process gets besides the container's own (e.g. PATH). */
  baseEnv?: Record<string, string>;
  pollMs?: number;
}

const HEARTBEAT_MS = 10_000;
const LEASE_SECONDS = 40;
const OUTPUT_TAIL_CHARS = 64_000;
const MESSAGE_CHARS = 1_000;

export async function startNodeAgent(options: NodeAgentOptions): Promise<NodeAgent> {
  const nodeName = options.nodeName ?? "taillab-test-node";
  const config = new KubeConfig();
  config.loadFromFile(options.kubeconfig);
  const core = config.makeApiClient(CoreV1Api);
  const coordination = config.makeApiClient(CoordinationV1Api);
  const mergePatch = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);
  // As the kubelet patches a pod's status: conditions merged by type, so one the apiserver set
  // (DisruptionTarget, from an eviction) stays beside the node's own.
  const statusPatch = setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch);
  const pollMs = options.pollMs ?? 200;

  const running = new Map<string, ChildProcess>();
  const seen = new Set<string>();
  const outputs = new Map<string, string>();
  let stopped = false;

  await core.createNode({
    body: {
      metadata: { name: nodeName, labels: { "kubernetes.io/hostname": nodeName } },
      spec: {},
    },
  });
  const heartbeat = async () => {
    const now = new Date();
    await core.patchNodeStatus({ name: nodeName, body: nodeStatus(now) }, mergePatch);
    await renewLease(coordination, nodeName, now);
  };
  await heartbeat();
  const heartbeats = setInterval(() => void heartbeat().catch(() => undefined), HEARTBEAT_MS);

  const patchStatus = (pod: V1Pod, status: V1PodStatus) =>
    core.patchNamespacedPodStatus(
      {
        name: pod.metadata?.name ?? "",
        namespace: pod.metadata?.namespace ?? "",
        body: { status },
      },
      statusPatch,
    );

  async function lookupFor(namespace: string): Promise<KeyLookup> {
    const [secrets, configMaps] = await Promise.all([
      core.listNamespacedSecret({ namespace }),
      core.listNamespacedConfigMap({ namespace }),
    ]);
    const decode = (data: Record<string, string> = {}) =>
      Object.fromEntries(
        Object.entries(data).map(([key, value]) => [
          key,
          Buffer.from(value, "base64").toString("utf8"),
        ]),
      );
    return {
      secret: (name) => {
        const found = secrets.items.find((secret) => secret.metadata?.name === name);
        return found && decode(found.data);
      },
      configMap: (name) =>
        configMaps.items.find((map) => map.metadata?.name === name)?.data ?? undefined,
    };
  }

  async function run(pod: V1Pod): Promise<void> {
    const name = pod.metadata?.name ?? "";
    const container = pod.spec?.containers[0];
    const startedAt = new Date();
    const finish = (exitCode: number, reason: string, message?: string) =>
      patchStatus(pod, {
        phase: exitCode === 0 ? "Succeeded" : "Failed",
        conditions: podConditions(false, startedAt),
        containerStatuses: [
          {
            name: container?.name ?? "main",
            image: container?.image ?? "",
            imageID: "",
            ready: false,
            restartCount: 0,
            started: false,
            state: {
              terminated: { exitCode, reason, message, startedAt, finishedAt: new Date() },
            },
          },
        ],
      });
    if (container === undefined)
      return void (await finish(128, "ContainerCannotRun", "no container"));

    let argv: string[];
    let env: Record<string, string>;
    try {
      env = containerEnvironment(pod, container, await lookupFor(pod.metadata?.namespace ?? ""));
      const entry = container.command ?? options.entrypoint(container.image ?? "");
      if (entry === undefined) {
        throw new PodConfigError(`image "${container.image}" is not known to the test node agent`);
      }
      argv = [...entry, ...(container.args ?? [])].map((part) => expand(part, env));
    } catch (error) {
      if (!(error instanceof PodConfigError)) throw error;
      return void (await finish(128, "CreateContainerConfigError", error.message));
    }

    const [program, ...args] = argv as [string, ...string[]];
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: { ...options.baseEnv, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.set(name, child);
    const append = (chunk: Buffer) =>
      outputs.set(
        name,
        ((outputs.get(name) ?? "") + chunk.toString("utf8")).slice(-OUTPUT_TAIL_CHARS),
      );
    child.stdout?.on("data", append);
    child.stderr?.on("data", append);
    const exited = new Promise<number>((resolve) => {
      child.once("error", (error) => {
        append(Buffer.from(`${error.message}\n`));
        resolve(127);
      });
      child.once("exit", (code, signal) => resolve(code ?? 128 + signalNumber(signal)));
    });
    await patchStatus(pod, {
      phase: "Running",
      hostIP: "127.0.0.1",
      podIP: "127.0.0.1",
      startTime: startedAt,
      conditions: podConditions(true, startedAt),
      containerStatuses: [
        {
          name: container.name,
          image: container.image ?? "",
          imageID: "",
          ready: true,
          restartCount: 0,
          started: true,
          state: { running: { startedAt } },
        },
      ],
    });
    const exitCode = await exited;
    if (stopped) return;
    const message = exitCode === 0 ? undefined : outputs.get(name)?.slice(-MESSAGE_CHARS);
    // Still "running" until its end is reported: a pod being deleted is let go only after, so
    // the Job controller sees it Failed, as from a kubelet, not vanished.
    await finish(exitCode, exitCode === 0 ? "Completed" : "Error", message).finally(() =>
      running.delete(name),
    );
  }

  async function poll(): Promise<void> {
    const pods = await core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${nodeName}` });
    for (const pod of pods.items) {
      const uid = pod.metadata?.uid ?? "";
      const name = pod.metadata?.name ?? "";
      const terminal = pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";
      if (pod.metadata?.deletionTimestamp) {
        // As a kubelet does: stop the process, then let the object go.
        running.get(name)?.kill("SIGTERM");
        if (!running.has(name)) {
          await core
            .deleteNamespacedPod({
              name,
              namespace: pod.metadata.namespace ?? "",
              gracePeriodSeconds: 0,
            })
            .catch(() => undefined);
        }
        continue;
      }
      if (seen.has(uid) || terminal) continue;
      seen.add(uid);
      void run(pod).catch(() => undefined);
    }
  }

  const loop = (async () => {
    while (!stopped) {
      await poll().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  })();

  return {
    nodeName,
    output: (podName) => outputs.get(podName) ?? "",
    running: () => [...running.keys()],
    kill: (podName) => running.get(podName)?.kill("SIGKILL") ?? false,
    freeze: (podName) => running.get(podName)?.kill("SIGSTOP") ?? false,
    async stop() {
      stopped = true;
      clearInterval(heartbeats);
      for (const child of running.values()) child.kill("SIGKILL");
      await loop;
    },
  };
}

function nodeStatus(now: Date) {
  const resources = { cpu: "64", memory: "256Gi", pods: "1000" };
  return {
    status: {
      capacity: resources,
      allocatable: resources,
      addresses: [{ type: "InternalIP", address: "127.0.0.1" }],
      conditions: [
        {
          type: "Ready",
          status: "True",
          reason: "KubeletReady",
          message: "TailLab test node agent",
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
      ],
      nodeInfo: {
        architecture: "amd64",
        operatingSystem: "linux",
        kubeletVersion: "v1.34.4",
        kubeProxyVersion: "",
        containerRuntimeVersion: "taillab-test://1",
        kernelVersion: "",
        osImage: "",
        machineID: "",
        systemUUID: "",
        bootID: "",
      },
    },
  };
}

async function renewLease(coordination: CoordinationV1Api, nodeName: string, now: Date) {
  const namespace = "kube-node-lease";
  // A MicroTime: the apiserver wants six fraction digits, and the client would send three.
  const renewTime = now.toISOString().replace(/Z$/, "000Z") as unknown as Date;
  const spec = { holderIdentity: nodeName, leaseDurationSeconds: LEASE_SECONDS, renewTime };
  try {
    await coordination.patchNamespacedLease(
      { name: nodeName, namespace, body: { spec } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
  } catch {
    await coordination.createNamespacedLease({
      namespace,
      body: { metadata: { name: nodeName }, spec },
    });
  }
}

function podConditions(ready: boolean, since: Date) {
  const status = ready ? "True" : "False";
  return [
    { type: "Initialized", status: "True", lastTransitionTime: since },
    { type: "Ready", status, lastTransitionTime: since },
    { type: "ContainersReady", status, lastTransitionTime: since },
    { type: "PodScheduled", status: "True", lastTransitionTime: since },
  ];
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal === "SIGKILL" ? 9 : signal === "SIGTERM" ? 15 : 1;
}
