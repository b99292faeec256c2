export type ReplicaStrategy = "round-robin" | "least-outstanding";

export interface ReplicaChooserOptions {
  replicas: number;
  strategy: ReplicaStrategy;
}

/** Replicas are numbered 0 … replicas − 1. */
export interface ReplicaChooser {
  /**
   * The replica for the next attempt. Pass the first attempt's replica as `exclude` for the
   * backup attempt: a backup sent to the replica that is already slow would wait in the same
   * queue. With a single replica there is no other choice, so it is returned anyway.
   */
  pick(exclude?: number): number;
  /** An attempt was sent to `replica`. */
  started(replica: number): void;
  /** An attempt on `replica` completed, failed or was cancelled. */
  finished(replica: number): void;
  /** Attempts in flight on `replica`. */
  outstanding(replica: number): number;
}

/**
 * round-robin takes replicas in turn. least-outstanding takes the replica with the fewest attempts
 * in flight, breaking ties in turn from where the last pick left off — otherwise an idle system
 * (all at 0) would send every request to replica 0.
 */
export function createReplicaChooser(options: ReplicaChooserOptions): ReplicaChooser {
  const { replicas, strategy } = options;
  if (!Number.isInteger(replicas) || replicas < 1) {
    throw new RangeError(`replicas must be a whole number of at least 1, got ${replicas}`);
  }
  const inFlight = new Array<number>(replicas).fill(0);
  let cursor = 0;

  const checkReplica = (replica: number): void => {
    if (!Number.isInteger(replica) || replica < 0 || replica >= replicas) {
      throw new RangeError(`replica must be 0 to ${replicas - 1}, got ${replica}`);
    }
  };
  const eligible = (replica: number, exclude: number | undefined): boolean =>
    replicas === 1 || replica !== exclude;

  return {
    pick(exclude) {
      if (exclude !== undefined) checkReplica(exclude);
      let chosen = -1;
      for (let step = 0; step < replicas; step += 1) {
        const replica = (cursor + step) % replicas;
        if (!eligible(replica, exclude)) continue;
        if (strategy === "round-robin") {
          chosen = replica;
          break;
        }
        if (chosen === -1 || (inFlight[replica] as number) < (inFlight[chosen] as number)) {
          chosen = replica;
        }
      }
      cursor = (chosen + 1) % replicas;
      return chosen;
    },
    started(replica) {
      checkReplica(replica);
      inFlight[replica] = (inFlight[replica] as number) + 1;
    },
    finished(replica) {
      checkReplica(replica);
      if (inFlight[replica] === 0) {
        throw new Error(`replica ${replica} finished an attempt it never started`);
      }
      inFlight[replica] = (inFlight[replica] as number) - 1;
    },
    outstanding(replica) {
      checkReplica(replica);
      return inFlight[replica] as number;
    },
  };
}
