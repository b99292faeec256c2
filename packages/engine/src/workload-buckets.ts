/**
 * The buckets a workload's bucket operations make (create-bucket, delete-bucket) are named
 * `taillab-<runId>-w<worker>-<n>`: unique to the run and the worker, a valid bucket name
 * (lowercase letters, digits and hyphens, well under 63 characters for a run id), and found
 * again by name when the run, or `taillab cleanup`, removes what is left of them.
 */
export function workloadBucketName(runId: string, worker: number, n: number): string {
  return `${bucketNamePrefix(runId)}${worker}-${n}`;
}

/** Whether `name` is one of run `runId`'s workload buckets: nothing else ever matches. */
export function isWorkloadBucketOf(runId: string, name: string): boolean {
  const prefix = bucketNamePrefix(runId);
  return name.startsWith(prefix) && /^\d+-\d+$/.test(name.slice(prefix.length));
}

function bucketNamePrefix(runId: string): string {
  return `taillab-${runId.toLowerCase()}-w`;
}
