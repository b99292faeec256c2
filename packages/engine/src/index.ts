export * from "./transport/index.ts";
export {
  defaultWorkerCount,
  runPoint,
  splitClients,
  type PointRunOptions,
  type PointRunResult,
} from "./point-run.ts";
export type { EncodedPhaseHistograms, PhaseProgress } from "./phase-collector.ts";
export { epochNowMs } from "./run-clock.ts";
export { NEVER_HEDGED } from "./never-hedged.ts";
