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

  /**
   * Resolves once every follower has the change and the requests it had started before it are
   * done: from then on no request goes to a replica the change left out, so it may be stopped.
   */
  async retune(tuning: EngineTuning): Promise<void> {
    this.latest = tuning;
    await Promise.all([...this.listeners].map((listener) => listener(tuning)));
  }

  /** Calls `listener` with every later retune; returns the function that stops it. */
  follow(listener: (tuning: EngineTuning) => Promise<void>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
