import type { RunNotice } from "@taillab/api";

/** A notice in English, as the CLI prints it and the event's `message` carries it. */
export function noticeText(notice: RunNotice): string {
  switch (notice.code) {
    case "unhedgedOps":
      return `${notice.params.mode} mode: ${notice.params.ops.join(", ")} always run once, without backups (a second copy would not be harmless)`;
    case "backupsShareReplica":
      return `${notice.params.mode} mode with one replica: backups go to the same server as their first attempt, on connections of their own, and share its queue; give several endpoints (or testbed replicas) to send them elsewhere`;
    case "testbedStarted":
      return `embedded testbed listening on ${notice.params.urls.join(", ")} (profile ${notice.params.profile}, seed ${notice.params.seed})`;
    case "cleanupLeftovers":
      return `deleting the ${notice.params.objects} objects this point wrote`;
    case "jobSubmitted":
      return `submitted Job ${notice.params.job} (${notice.params.shards} shards) in namespace ${notice.params.namespace}; results in ${notice.params.folder}`;
    case "distributedStopping":
      return "stopping: the run's stop marker is written and its Job deleted";
    case "modeCouldNotStart":
      return `the ${notice.params.mode} run could not start: ${notice.params.reason}`;
  }
}
