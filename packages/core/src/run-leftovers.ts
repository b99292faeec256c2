import { cleanupLeftNothing, type RunCleanup, type RunMeta, type RunStatus } from "@taillab/api";

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
