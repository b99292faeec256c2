import { bucketNameProblem } from "@taillab/api";

/** S3's rules for bucket names, the same as a spec's (packages/api). */
export function isValidBucketName(name: string): boolean {
  return bucketNameProblem(name) === null;
}
