export * from "./transport/index.ts";
export {
  connectionsPerReplica,
  defaultWorkerCount,
  runPoint,
  splitClients,
  type PhaseProgress,
  type PhaseResult,
  type PointRunOptions,
  type PointRunResult,
} from "./point-run.ts";
export { epochNowMs, spinUntil } from "./run-clock.ts";
export type { ServerLoss as EngineServerLoss } from "./server-health.ts";
export { RunTuner, type EngineTuning } from "./run-tuner.ts";
export { isWorkloadBucketOf, workloadBucketName } from "./workload-buckets.ts";
