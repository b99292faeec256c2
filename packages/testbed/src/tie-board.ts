/**
 * How the testbed's replicas tell each other about tied requests (The Tail at Scale's "tied
 * requests"): both copies of a request carry one tie id; the replica that starts serving a copy
 * first claims the tie, and the copies still waiting in other replicas' queues are dropped at
 * once. The replicas share a process, so the message is a call: it arrives before the next
 * request is looked at, as a message between servers of one rack nearly does.
 */
export interface TieBoard {
  /**
   * Replica `replica` starts serving a copy of tie `id`: true if it is the first (it serves the
   * request, and twins waiting elsewhere are dropped now), false if a twin started first (this
   * copy is dropped).
   */
  start(id: string, replica: number): boolean;
  /**
   * A copy waits in `replica`'s queue: `drop` is called if a twin starts elsewhere first (at once
   * if one already has). Returns the function that takes it off the board once it leaves the queue.
   */
  wait(id: string, replica: number, drop: () => void): () => void;
  /** Ties on the board (started or waiting), for tests. */
  readonly size: number;
}

interface Tie {
  startedBy: number | null;
  waiting: Set<{ replica: number; drop: () => void }>;
  createdAtMs: number;
}

/**
 * A tie is forgotten this long after it was first seen: by then both copies have arrived (or one
 * never will: its client cancelled it before sending), and a late copy is served as untied.
 */
export const TIE_MEMORY_MS = 60_000;

export function createTieBoard(nowMs: () => number = () => performance.now()): TieBoard {
  // Insertion order is age order: the oldest ties are at the front.
  const ties = new Map<string, Tie>();
  const forgetOld = () => {
    const oldest = nowMs() - TIE_MEMORY_MS;
    for (const [id, tie] of ties) {
      if (tie.createdAtMs > oldest) break;
      ties.delete(id);
    }
  };
  const tieOf = (id: string): Tie => {
    forgetOld();
    let tie = ties.get(id);
    if (!tie) {
      tie = { startedBy: null, waiting: new Set(), createdAtMs: nowMs() };
      ties.set(id, tie);
    }
    return tie;
  };
  return {
    start(id, replica) {
      const tie = tieOf(id);
      if (tie.startedBy !== null && tie.startedBy !== replica) return false;
      tie.startedBy = replica;
      for (const waiter of [...tie.waiting]) {
        if (waiter.replica === replica) continue;
        tie.waiting.delete(waiter);
        waiter.drop();
      }
      return true;
    },
    wait(id, replica, drop) {
      const tie = tieOf(id);
      if (tie.startedBy !== null && tie.startedBy !== replica) {
        drop();
        return () => {};
      }
      const waiter = { replica, drop };
      tie.waiting.add(waiter);
      return () => tie.waiting.delete(waiter);
    },
    get size() {
      return ties.size;
    },
  };
}
