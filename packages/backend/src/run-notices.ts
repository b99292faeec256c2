import type { RunNotice } from "@taillab/api";
import { phaseText, unansweredText } from "@taillab/report";

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
      return `deleting the ${notice.params.objects} objects the run wrote and did not delete`;
    case "cleanupFailed":
      return `the cleanup after the run failed: ${notice.params.reason.message}; its figures are kept, and taillab cleanup (or the run's page) removes what it left`;
    case "jobSubmitted":
      return `submitted Job ${notice.params.job} (${notice.params.shards} shards) in namespace ${notice.params.namespace}; results in ${notice.params.folder}`;
    case "distributedStopping":
      return "stopping: the run's stop marker is written and its Job deleted";
    case "serverLost": {
      const { runStartEpochMs, sinceMs, silentMs, failures, lastError, phase } = notice.params;
      const clockTime = new Date(runStartEpochMs + sinceMs).toISOString().slice(11, 19);
      const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      const ended = phaseText(phase);
      return `the server stopped answering at ${clockTime} UTC (${seconds(sinceMs)} into the run): ${unansweredText(failures, silentMs, lastError)}; ${ended} ended early`;
    }
    case "serverProbe": {
      const { runStartEpochMs, deadlineMs } = notice.params;
      const clockTime = new Date(runStartEpochMs + deadlineMs).toISOString().slice(11, 19);
      return `asking the server once whether it answers again: without an answer the run ends at ${clockTime} UTC`;
    }
    case "serverBack":
      return "the server answered again: the run goes on";
    case "serverGone": {
      const { probeError, phases, repetitions = 0, points } = notice.params;
      const notRun = [
        ...(phases.length > 0
          ? [`the ${phases.join(", ")} ${phases.length === 1 ? "phase" : "phases"}`]
          : []),
        ...(repetitions > 0
          ? [`${repetitions} more ${repetitions === 1 ? "repetition" : "repetitions"}`]
          : []),
        ...(points > 0 ? [`${points} more ${points === 1 ? "point" : "points"}`] : []),
      ];
      return `the server did not answer again (${probeError}): the run ends here${notRun.length > 0 ? `; not run: ${notRun.join(" and ")}` : ""}`;
    }
    case "bucketCreated":
      return `bucket "${notice.params.bucket}" did not exist at ${notice.params.url}, so it was created; it is kept after the run (only what the run puts in it is removed)`;
    case "preflightRetrying": {
      const { url, error, until } = notice.params;
      return `endpoint ${url} did not answer the shard's preflight check (${error}); trying again until the start barrier's deadline, ${until.slice(11, 19)} UTC`;
    }
    case "tlsUnchecked":
      return `endpoint ${notice.params.url}: TLS certificates are NOT checked (insecure): anyone on the way to the server can read and change this run's requests; trust the server's CA with a CA file instead where you can`;
    case "cleanupIncomplete": {
      const { objects, uploads, buckets, error } = notice.params;
      return `the cleanup could not remove ${objects} objects, ${uploads} open uploads and ${buckets} buckets (${error}); removing them again from the run's page or with taillab cleanup retries`;
    }
    case "modesNotRun": {
      const { modes } = notice.params;
      return `the server did not answer again: the series ends here; not run: the ${modes.join(", ")} ${modes.length === 1 ? "run" : "runs"}`;
    }
    case "modeCouldNotStart":
      return `the ${notice.params.mode} run could not start: ${notice.params.reason.message}`;
    case "podsNotStarting":
      return `not every pod has started: ${notice.params.reasons}`;
    case "jobNotDeleted":
      return `the Job could not be deleted: ${notice.params.error}`;
    case "folderUnreadable":
      return `the run's folder could not be read: ${notice.params.error}`;
    case "goneNotWritten":
      return `shard ${notice.params.shard} ended without its result, but the marker that tells the others could not be written (${notice.params.error}): they wait for it at their next phase gate until the barrier timeout, then go on without it`;
    case "runFolderLeft":
      return `the run is in the results library, but its folder ${notice.params.folder} could not be removed (${notice.params.error}); any S3 client can delete it`;
    case "negativeIntervals":
      return `${notice.params.op}: ${notice.params.intervals} parts of request timelines came out negative (a later step stamped before an earlier one: clocks that disagree); each was counted as 1 µs, so these figures are slightly off`;
    case "progressNotWritten":
      return `shard ${notice.params.shard}: progress not written: ${notice.params.error}`;
  }
}
