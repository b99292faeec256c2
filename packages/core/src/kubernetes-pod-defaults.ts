/**
 * What each pod of a distributed run on Kubernetes asks of its cluster unless told otherwise, in
 * `taillab k8s run`'s forms (the app's Kubernetes settings show them as their placeholders).
 * Requests equal to limits: Guaranteed QoS, the last pods to be evicted, so a load generator's
 * figures do not depend on its neighbours; a namespace with a ResourceQuota admits them.
 */
export const DEFAULT_POD_REQUESTS = "cpu=1,memory=1Gi";
export const DEFAULT_POD_LIMITS = "cpu=1,memory=1Gi";
/** Shards balanced over nodes when the scheduler can (ScheduleAnyway). */
export const DEFAULT_POD_SPREAD = "prefer";
/** The finished Job is kept this long, so `kubectl` can still show it if the cleanup fails. */
export const DEFAULT_TTL_AFTER_FINISHED = "1h";
