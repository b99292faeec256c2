export const EXIT = {
  ok: 0,
  requestErrors: 1,
  badInput: 2,
  resultsStore: 3,
  /** A shard of a distributed run that did not start: Kubernetes must not retry its index. */
  shardGaveUp: 3,
  /** The run's cleanup left objects, uploads or buckets on the server: taillab cleanup RUN. */
  leftovers: 4,
  /** The Kubernetes cluster refused a call or could not be reached (taillab k8s). */
  cluster: 5,
  /** A threshold of the run failed (--threshold, or the spec's thresholds): k6's code for it. */
  thresholds: 99,
  /** 128 + SIGINT, as shells report a program stopped by Ctrl-C. */
  interrupted: 130,
} as const;

export const EXIT_CODES_HELP = `Exit codes: 0 ok; 1 the run had request errors; 2 bad input (nothing was run
or created; the message names the field); 3 the results library could not be written or read
(a full disk, a damaged run folder: what was kept is shown first), or a shard of a distributed
run did not start (barrier deadline, duplicate index, its clock more than 1 s off the storage
server's, run aborted; for k8s run: no shard started, the reason is on its last line); 4 the cleanup left objects,
open uploads or buckets on the server (the last line says what and why; taillab cleanup RUN
removes them); 5 the Kubernetes cluster refused a call or could not be reached (one line: the
server, the call, its reason); 99 a threshold failed (--threshold or the spec's "thresholds":
each is listed as held or failed; an "errors" threshold then judges request errors instead of
exit 1); 130 stopped by Ctrl-C or SIGTERM (what was measured is kept and shown; the run's status
is "stopped"; also when no shard had started yet). A run that exits non-zero says why in its last
line.`;
