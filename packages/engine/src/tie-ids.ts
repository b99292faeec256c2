import { randomBytes } from "node:crypto";

/**
 * Tie ids for tied-server requests: both copies of a request carry the same one, and no two
 * requests share one, across the workers of a run and the runs a long-lived testbed sees.
 */
export function createTieIds(): () => string {
  const prefix = randomBytes(6).toString("base64url");
  let next = 0;
  return () => `${prefix}-${(next++).toString(36)}`;
}
