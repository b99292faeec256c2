import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";

/** Where a pod finds its service account's token: in-cluster configuration. */
const SERVICE_ACCOUNT_TOKEN = "/var/run/secrets/kubernetes.io/serviceaccount/token";

/**
 * Why no kubeconfig would be found where kubectl and @kubernetes/client-node look ($KUBECONFIG,
 * ~/.kube/config, a pod's service account), or null when one is there. The client would fall
 * back to http://localhost:8080 and fail there with a message about HTTP, not about the file.
 */
export function missingKubeconfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = homedir(),
): string | null {
  const listed = (env.KUBECONFIG ?? "").split(delimiter).filter(Boolean);
  const homeConfig = join(home, ".kube", "config");
  const inCluster = env.KUBERNETES_SERVICE_HOST !== undefined && existsSync(SERVICE_ACCOUNT_TOKEN);
  if (listed.some((path) => existsSync(path)) || existsSync(homeConfig) || inCluster) return null;
  const looked = [
    listed.length > 0
      ? `$KUBECONFIG=${listed.join(delimiter)} (no such file)`
      : "$KUBECONFIG (not set)",
    `${homeConfig} (no such file)`,
    "a pod's service account (not in a pod)",
  ];
  return `no kubeconfig found (looked at ${looked.join(", ")}): name one (--kubeconfig, or the app's Kubernetes settings) or set KUBECONFIG`;
}
