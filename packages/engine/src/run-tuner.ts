import type { HedgeOptions, RequestMode } from "@taillab/api";
import type { TransportTarget } from "./transport/index.ts";

/** What a live session changes in a running point: how requests are sent, and to which replicas. */
export interface EngineTuning {
  mode: RequestMode;
  hedge: HedgeOptions;
  /** One per replica, in replica order; a replica keeps its index while it stays. */
  targets: Omit<TransportTarget, "maxConnections">[];
}

/**
 * Carries a host's retunes to the point that runs now (runPoint's `tuner`): the coordinator
 * follows it and passes each change to its workers, which use it from their next request on.
 * A point that starts later starts with the latest tuning.
 */
export class RunTuner {
  private latest: EngineTuning;
  private readonly listeners = new Set<(tuning: EngineTuning) => void>();

  constructor(initial: EngineTuning) {
    this.latest = initial;
  }

  get current(): EngineTuning {
    return this.latest;
  }

  retune(tuning: EngineTuning): void {
    this.latest = tuning;
    for (const listener of this.listeners) listener(tuning);
  }

  /** Calls `listener` with every later retune; returns the function that stops it. */
  follow(listener: (tuning: EngineTuning) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
