import {
  cleanupLeftNothing,
  type RunCleanup,
  type RunMeta,
  type RunStatus,
  type RunSummary,
} from "@taillab/api";
import { shardKeyPrefix } from "./shard-plan.ts";

/**
 * What a stored run may have left on its server, as a person should be told and the cleanup
 * offered: nothing; what its last cleanup could not remove; or, when no cleanup ran, possibly
 * everything it wrote (a run that ended before its cleanup, or one that kept its objects).
 */
export type LeftoverState =
  | { kind: "none" }
  | { kind: "left"; cleanup: RunCleanup }
  | { kind: "possible"; why: "ended-early" | "kept" };

export function leftoverStateOf(meta: RunMeta, status: RunStatus): LeftoverState {
  // The embedded testbed keeps nothing once it has stopped.
  if (!meta.spec.endpoints || status === "running") return { kind: "none" };
  if (meta.cleanup) {
    return cleanupLeftNothing(meta.cleanup)
      ? { kind: "none" }
      : { kind: "left", cleanup: meta.cleanup };
  }
  if (status === "interrupted" || status === "failed")
    return { kind: "possible", why: "ended-early" };
  // Runs recorded before cleanups were kept ran theirs when they asked for one.
  return meta.spec.phases.includes("cleanup")
    ? { kind: "none" }
    : { kind: "possible", why: "kept" };
}

/** What a killed shard of a merged run left under its own key prefix. */
export interface ShardLeftovers {
  index: number;
  objects: number;
  keyPrefix: string;
}

/**
 * The objects the killed shards of a merged distributed run left, as the merge found them; none
 * once a cleanup of the run ran (`taillab cleanup RUN` removes every shard's, and keeps what it
 * did in meta.cleanup, which leftoverStateOf tells).
 */
export function killedShardLeftovers(
  meta: Pick<RunMeta, "id" | "spec" | "cleanup">,
  summary: Pick<RunSummary, "distributed"> | null,
): ShardLeftovers[] {
  if (meta.cleanup) return [];
  return (summary?.distributed?.shards ?? []).flatMap(({ index, objectsLeft }) =>
    objectsLeft === undefined
      ? []
      : [
          {
            index,
            objects: objectsLeft,
            keyPrefix: shardKeyPrefix(meta.spec.keyPrefix, meta.id, index),
          },
        ],
  );
}
