/**
 * `@taillab/backend/kubernetes`: distributed runs on a Kubernetes cluster, an entry of its own so
 * that hosts load the Kubernetes client (a few hundred ms at start) only when they use it.
 */
export {
  clusterNamespace,
  planKubernetesRun,
  runOnKubernetes,
  type KubernetesRunHooks,
  type KubernetesRunOptions,
  type KubernetesRunPlan,
  type KubernetesRunRequest,
} from "./distributed/kubernetes-run.ts";
export { KubernetesError, manifestsYaml } from "@taillab/kubernetes";
