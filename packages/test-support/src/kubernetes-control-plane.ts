import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, fetch as undiciFetch } from "undici";
import { assertPortsFree, freePorts } from "./free-port.ts";
import { startServerProcess, type ServerProcess } from "./server-process.ts";

/**
 * A real Kubernetes control plane for one test file, on 127.0.0.1 only: etcd, kube-apiserver,
 * kube-controller-manager and kube-scheduler (built once by scripts/ensure-kubernetes.sh). No
 * kubelet: pods stay Pending unless a node agent (startNodeAgent) or kwok runs them.
 */
export interface KubernetesControlPlane {
  /** https://127.0.0.1:PORT */
  url: string;
  /** A kubeconfig file for the admin (static token, system:masters), context "taillab-test". */
  kubeconfig: string;
  /** The admin's bearer token. */
  token: string;
  /** The apiserver's self-signed serving certificate (PEM), the kubeconfig's CA. */
  caFile: string;
  /** Stops the four processes (apiserver last but one, etcd last) and removes every file. */
  stop(): Promise<void>;
}

export const KUBERNETES_CONTEXT = "taillab-test";

const ENSURE_KUBERNETES = fileURLToPath(
  new URL("../../../scripts/ensure-kubernetes.sh", import.meta.url),
);

export interface ControlPlaneOptions {
  /** Fixed ports (etcd client, etcd peer, apiserver); default: free ones. Busy ports are refused. */
  ports?: { etcd: number; etcdPeer: number; apiserver: number };
}

export async function startControlPlane(
  options: ControlPlaneOptions = {},
): Promise<KubernetesControlPlane> {
  const [etcdPort, peerPort, apiPort] = options.ports
    ? [options.ports.etcd, options.ports.etcdPeer, options.ports.apiserver]
    : await freePorts(3);
  if (etcdPort === undefined || peerPort === undefined || apiPort === undefined) {
    throw new Error("startControlPlane: no free ports");
  }
  // A stale cluster answering on these ports would mislead every test that follows.
  await assertPortsFree([etcdPort, peerPort, apiPort], "startControlPlane");

  const dir = await mkdtemp(join(tmpdir(), "taillab-kubernetes-"));
  const started: ServerProcess[] = [];
  const stop = async () => {
    for (const server of started.reverse()) await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const token = randomBytes(24).toString("hex");
    const url = `https://127.0.0.1:${apiPort}`;
    const files = await writeClusterFiles(dir, token);
    const caFile = join(dir, "certs", "apiserver.crt");
    const kubeconfig = join(dir, "kubeconfig");
    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const home = { HOME: dir };

    started.push(
      await startServerProcess({
        name: "etcd",
        ensureScript: ENSURE_KUBERNETES,
        program: "etcd",
        folders: ["data"],
        url: etcdUrl,
        args: (_binary, { data }) => [
          "--data-dir",
          data as string,
          "--listen-client-urls",
          etcdUrl,
          "--advertise-client-urls",
          etcdUrl,
          "--listen-peer-urls",
          `http://127.0.0.1:${peerPort}`,
          "--initial-advertise-peer-urls",
          `http://127.0.0.1:${peerPort}`,
          "--initial-cluster",
          `default=http://127.0.0.1:${peerPort}`,
          "--log-level",
          "warn",
        ],
        env: () => home,
        ready: async () => (await fetch(`${etcdUrl}/health`)).ok,
      }),
    );
    started.push(
      await startServerProcess({
        name: "kube-apiserver",
        ensureScript: ENSURE_KUBERNETES,
        program: "kube-apiserver",
        folders: [],
        url,
        args: () => [
          "--etcd-servers",
          etcdUrl,
          "--bind-address=127.0.0.1",
          "--advertise-address=127.0.0.1",
          `--secure-port=${apiPort}`,
          // No --tls-cert-file: the apiserver makes a self-signed one here.
          `--cert-dir=${join(dir, "certs")}`,
          `--token-auth-file=${files.tokens}`,
          "--authorization-mode=Node,RBAC",
          `--service-account-key-file=${files.serviceAccountPublic}`,
          `--service-account-signing-key-file=${files.serviceAccountPrivate}`,
          "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
          "--service-cluster-ip-range=10.96.0.0/16",
          "--enable-priority-and-fairness=false",
          "--profiling=false",
        ],
        env: () => home,
        ready: () => answersReady(url, token),
      }),
    );
    await writeFile(kubeconfig, kubeconfigYaml({ url, token, caFile }), { mode: 0o600 });
    const client = (name: string, extra: string[]) =>
      startServerProcess({
        name,
        ensureScript: ENSURE_KUBERNETES,
        program: name,
        folders: [],
        url,
        args: () => [
          `--kubeconfig=${kubeconfig}`,
          "--leader-elect=false",
          "--secure-port=0",
          ...extra,
        ],
        env: () => home,
        // Neither serves anything once --secure-port=0: running is all there is to see.
        ready: async () => true,
      });
    started.push(
      await client("kube-controller-manager", [
        "--controllers=*",
        `--service-account-private-key-file=${files.serviceAccountPrivate}`,
        `--root-ca-file=${caFile}`,
        "--use-service-account-credentials=false",
      ]),
    );
    started.push(await client("kube-scheduler", []));
    // Pods are admitted only once their namespace's default ServiceAccount exists.
    await waitFor("the default ServiceAccount", async () => {
      const response = await apiGet(
        url,
        token,
        "/api/v1/namespaces/default/serviceaccounts/default",
      );
      return response.status === 200;
    });
    return { url, kubeconfig, token, caFile, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function writeClusterFiles(dir: string, token: string) {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const files = {
    tokens: join(dir, "tokens.csv"),
    serviceAccountPublic: join(dir, "service-account.pub"),
    serviceAccountPrivate: join(dir, "service-account.key"),
  };
  await writeFile(files.tokens, `${token},admin,admin,system:masters\n`, { mode: 0o600 });
  await writeFile(files.serviceAccountPublic, publicKey);
  await writeFile(files.serviceAccountPrivate, privateKey, { mode: 0o600 });
  return files;
}

export function kubeconfigYaml({
  url,
  token,
  caFile,
}: {
  url: string;
  token: string;
  caFile: string;
}): string {
  return `apiVersion: v1
kind: Config
clusters:
  - name: ${KUBERNETES_CONTEXT}
    cluster:
      server: ${url}
      certificate-authority: ${caFile}
users:
  - name: admin
    user:
      token: ${token}
contexts:
  - name: ${KUBERNETES_CONTEXT}
    context:
      cluster: ${KUBERNETES_CONTEXT}
      user: admin
      namespace: default
current-context: ${KUBERNETES_CONTEXT}
`;
}

/** The apiserver's certificate is its own and new: readiness is checked without verifying it. */
const insecure = new Agent({ connect: { rejectUnauthorized: false } });

async function apiGet(url: string, token: string, path: string) {
  const response = await undiciFetch(`${url}${path}`, {
    headers: { Authorization: `Bearer ${token}` },
    dispatcher: insecure,
    signal: AbortSignal.timeout(2_000),
  });
  await response.body?.cancel();
  return response;
}

async function answersReady(url: string, token: string): Promise<boolean> {
  return (await apiGet(url, token, "/readyz")).status === 200;
}

const WAIT_TIMEOUT_MS = 60_000;

async function waitFor(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`startControlPlane: ${what} did not appear within ${WAIT_TIMEOUT_MS / 1000} s`);
}
