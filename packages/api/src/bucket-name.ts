import { z } from "zod";
import { coded, codedIssue, type CodedMessage } from "./coded-message.ts";

/**
 * S3's rules for general-purpose bucket names (the current ones, without us-east-1's legacy
 * leniency), each with its own reason, so a refused name says what to change.
 */

const RESERVED_PREFIXES = ["xn--", "sthree-", "amzn-s3-demo-"] as const;
const RESERVED_SUFFIXES = ["-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"] as const;
const IPV4_SHAPED = /^\d+\.\d+\.\d+\.\d+$/;

/** Why S3 refuses `name` as a bucket name, or null when it accepts it. */
export function bucketNameProblem(name: string): CodedMessage | null {
  if (name.length < 3 || name.length > 63) {
    return coded("bucketLength", { name, length: name.length });
  }
  if (!/^[a-z0-9.-]+$/.test(name)) {
    return coded("bucketCharacters", { name });
  }
  if (!/^[a-z0-9]/.test(name) || !/[a-z0-9]$/.test(name)) {
    return coded("bucketEnds", { name });
  }
  if (name.includes("..")) return coded("bucketTwoDots", { name });
  if (name.includes(".-") || name.includes("-.")) {
    return coded("bucketDotHyphen", { name });
  }
  if (IPV4_SHAPED.test(name)) return coded("bucketIpShaped", { name });
  const prefix = RESERVED_PREFIXES.find((reserved) => name.startsWith(reserved));
  if (prefix) return coded("bucketReservedPrefix", { name, prefix });
  const suffix = RESERVED_SUFFIXES.find((reserved) => name.endsWith(reserved));
  if (suffix) return coded("bucketReservedSuffix", { name, suffix });
  return null;
}

export const BucketNameSchema = z.string().superRefine((name, context) => {
  const problem = bucketNameProblem(name);
  if (problem !== null) context.addIssue(codedIssue(problem));
});
