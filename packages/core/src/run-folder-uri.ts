import { bucketNameProblem, englishOf, RUN_ID_PATTERN } from "@taillab/api";

/**
 * A distributed run's folder in a bucket, `s3://BUCKET/PREFIX/RUN/` (pure): where its shards meet
 * and leave their results. Its last path segment is the run's id, which the merged run keeps in
 * the results library, so it follows the library's rule for ids.
 */
export interface RunFolderUri {
  bucket: string;
  /** The folder's key prefix, ending in "/". */
  prefix: string;
  runId: string;
}

export function parseRunFolderUri(text: string): RunFolderUri | { problem: string } {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(text.trim());
  if (!match) {
    return { problem: `expected s3://BUCKET/PREFIX/RUN/ (a folder of the bucket), got "${text}"` };
  }
  const bucket = match[1] as string;
  const bucketProblem = bucketNameProblem(bucket);
  if (bucketProblem !== null) return { problem: englishOf(bucketProblem) };
  const segments = (match[2] as string).split("/").filter((segment) => segment !== "");
  const runId = segments.at(-1) ?? "";
  if (!RUN_ID_PATTERN.test(runId)) {
    return {
      problem: `the folder's last segment "${runId}" names the run: letters, digits, ".", "_" and "-" only, at most 200`,
    };
  }
  return { bucket, prefix: `${segments.join("/")}/`, runId };
}

export function formatRunFolderUri({ bucket, prefix }: RunFolderUri): string {
  return `s3://${bucket}/${prefix}`;
}
