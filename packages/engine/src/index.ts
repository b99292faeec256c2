export * from "./transport/index.ts";
export {
  runClosedLoopPoint,
  splitClients,
  type ClosedLoopPointOptions,
  type ClosedLoopPointResult,
} from "./closed-loop-run.ts";
export type { PhaseProgress } from "./phase-collector.ts";
export { epochNowMs } from "./run-clock.ts";
