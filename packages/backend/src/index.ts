export * from "./credentials.ts";
export * from "./input-error.ts";
export * from "./run-benchmark.ts";
export * from "./out-folder-writer.ts";
export * from "./testbed-service.ts";
export * from "./recorded-run.ts";
export { cleanUpRun } from "./run-cleanup.ts";
export { captureEnvironment } from "./run-environment.ts";
export {
  defaultResultsDir,
  openResultsStore,
  ResultsStoreError,
  type ResultsStore,
  type StoredRun,
} from "@taillab/store";
export * from "./run-report.ts";
export {
  createTailLabService,
  type TailLabBackend,
  type TailLabServiceOptions,
} from "./app/tail-lab-service.ts";
export type { RequestsCsvFile } from "./app/report-export.ts";
export { keyFileCipher, passphraseCipher, type SecretCipher } from "./app/secret-cipher.ts";
export { createMarkerStore, type MarkerStore } from "./distributed/bucket-markers.ts";
export {
  passStartBarrier,
  StartBarrierError,
  type BarrierFailure,
  type BarrierPassed,
  type StartBarrierOptions,
} from "./distributed/start-barrier.ts";
export { runShard, type ShardOutcome, type ShardRunOptions } from "./distributed/shard-run.ts";
export { openRunFolder, type RunFolderClient } from "./distributed/run-folder-client.ts";
export {
  DISTRIBUTED_TAG,
  mergeRunFolder,
  NoShardResultError,
  type MergeOptions,
  type MergeOutcome,
  type RunFolderFate,
} from "./distributed/merge-run.ts";
export {
  DEFAULT_ACTIVE_DEADLINE_SECONDS,
  DEFAULT_BARRIER_TIMEOUT_MS,
  DEFAULT_POD_SETTINGS,
  DEFAULT_TAILLAB_IMAGE,
  DEFAULT_TTL_AFTER_FINISHED_SECONDS,
} from "./distributed/kubernetes-defaults.ts";
export type { PodSettingsText } from "./distributed/pod-settings-text.ts";
