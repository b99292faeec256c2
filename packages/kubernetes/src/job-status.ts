/** What a distributed run's Job says about its shards (pure). */
import type { V1Job } from "@kubernetes/client-node";

export interface JobProgress {
  /** Pods running and ready. */
  ready: number;
  /** Pods not finished (pending or running). */
  active: number;
  completedIndexes: number[];
  failedIndexes: number[];
  /** "Complete" or "Failed" once the Job has finished, else null. */
  finished: "Complete" | "Failed" | null;
  /** The finishing condition's reason (e.g. FailedIndexes, DeadlineExceeded), if any. */
  reason: string | null;
  message: string | null;
}

/** "1,3-5,7" (the Job status' index list) as [1, 3, 4, 5, 7]. */
export function parseIndexes(list: string | undefined): number[] {
  if (list === undefined || list === "") return [];
  return list.split(",").flatMap((part) => {
    const [first, last = first] = part.split("-").map(Number) as [number, number?];
    return Array.from({ length: last - first + 1 }, (_, i) => first + i);
  });
}

export function jobProgress(job: V1Job): JobProgress {
  const status = job.status ?? {};
  const finishing = (status.conditions ?? []).find(
    (condition) =>
      (condition.type === "Complete" || condition.type === "Failed") && condition.status === "True",
  );
  return {
    ready: status.ready ?? 0,
    active: status.active ?? 0,
    completedIndexes: parseIndexes(status.completedIndexes),
    failedIndexes: parseIndexes(status.failedIndexes),
    finished: (finishing?.type as JobProgress["finished"] | undefined) ?? null,
    reason: finishing?.reason ?? null,
    message: finishing?.message ?? null,
  };
}
