import { z } from "zod";

/**
 * S3's rules for general-purpose bucket names (the current ones, without us-east-1's legacy
 * leniency), each with its own reason, so a refused name says what to change.
 */

const RESERVED_PREFIXES = ["xn--", "sthree-", "amzn-s3-demo-"] as const;
const RESERVED_SUFFIXES = ["-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"] as const;
const IPV4_SHAPED = /^\d+\.\d+\.\d+\.\d+$/;

/** Why S3 refuses `name` as a bucket name, or null when it accepts it. */
export function bucketNameProblem(name: string): string | null {
  if (name.length < 3 || name.length > 63) {
    return `"${name}" has ${name.length} characters; a bucket name has 3 to 63`;
  }
  if (!/^[a-z0-9.-]+$/.test(name)) {
    return `"${name}" may hold only lowercase letters, digits, dots and hyphens`;
  }
  if (!/^[a-z0-9]/.test(name) || !/[a-z0-9]$/.test(name)) {
    return `"${name}" must start and end with a letter or digit`;
  }
  if (name.includes("..")) return `"${name}" must not have two dots in a row`;
  if (name.includes(".-") || name.includes("-.")) {
    return `"${name}" must not have a dot next to a hyphen`;
  }
  if (IPV4_SHAPED.test(name)) return `"${name}" must not be shaped like an IP address`;
  const prefix = RESERVED_PREFIXES.find((reserved) => name.startsWith(reserved));
  if (prefix) return `"${name}" must not start with "${prefix}" (reserved by S3)`;
  const suffix = RESERVED_SUFFIXES.find((reserved) => name.endsWith(reserved));
  if (suffix) return `"${name}" must not end with "${suffix}" (reserved by S3)`;
  return null;
}

export const BucketNameSchema = z.string().superRefine((name, context) => {
  const problem = bucketNameProblem(name);
  if (problem !== null) context.addIssue({ code: "custom", message: problem });
});
