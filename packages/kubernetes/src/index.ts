export {
  credentialsSecretName,
  distributedRunManifests,
  CREDENTIAL_KEYS,
  RUN_LABEL,
  SHARD_GAVE_UP_EXIT_CODE,
  START_AT_ANNOTATION,
  type DistributedJobInput,
  type DistributedRunManifests,
  type PodSettings,
} from "./distributed-job.ts";
export {
  checkDistributedJobInput,
  checkManifests,
  ManifestError,
  validatedManifests,
} from "./manifest-checks.ts";
export { manifestsYaml } from "./manifest-yaml.ts";
export { jobProgress, parseIndexes, type JobProgress } from "./job-status.ts";
export {
  contextNamespace,
  createDistributedRunClient,
  KubernetesError,
  loadKubeConfig,
  type ClusterOptions,
  type DistributedRunClient,
  type SubmittedRun,
} from "./distributed-run-client.ts";
