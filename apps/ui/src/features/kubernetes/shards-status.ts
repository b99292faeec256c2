import type { ShardsStatus } from "@taillab/api";

/** Where a shard is in its run, as the live screen shows it. */
export type ShardState = "waiting" | "ready" | "running" | "done" | "failed";

/** Each shard's state, by index: failed wins, then done, running, at the barrier, waiting. */
export function shardStates(status: ShardsStatus): ShardState[] {
  const sets = {
    failed: new Set(status.failed),
    done: new Set(status.done),
    running: new Set(status.running),
    ready: new Set(status.ready),
  };
  return Array.from({ length: status.shardCount }, (_, index) => {
    if (sets.failed.has(index)) return "failed";
    if (sets.done.has(index)) return "done";
    if (sets.running.has(index)) return "running";
    if (sets.ready.has(index)) return "ready";
    return "waiting";
  });
}
