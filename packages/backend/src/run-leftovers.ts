import type { RunCleanup } from "@taillab/api";
import { emptyCodeCounts, ErrorCodeCounts } from "@taillab/core";
import {
  EndpointError,
  isWorkloadBucketOf,
  type ControlPlane,
  type RemovalResult,
} from "@taillab/engine";

import { runKeyNumber, type WrittenKeys } from "./written-keys.ts";

export type { WrittenKeys } from "./written-keys.ts";

type Kind = RunCleanup["unchecked"][number];

/** The bucket itself is gone: nothing of the run can be left in it. */
const BUCKET_GONE_CODE = "NoSuchBucket";

/** What to remove of a run's leftovers. */
export interface LeftoverPlan {
  /** Keys known to have been written, or "listed": every key of the run under keyPrefix. */
  objects: WrittenKeys | "listed";
  /**
   * With "listed": the keys the run's records say it wrote, removed when the listing finds none
   * of the run's keys or fails (a server may hide them: MinIO lists nothing under `a/b/` when an
   * object is named `a/b`).
   */
  recordedKeys?: () => Promise<WrittenKeys>;
  /** `<prefix>/<runId>/`: keys and open multipart uploads under it are the run's. */
  keyPrefix: string;
  /** Abort the open multipart uploads under keyPrefix. */
  uploads: boolean;
  /** Remove this run's workload buckets (`taillab-<runId>-w…`); null: none. */
  bucketsOfRun: string | null;
}

/**
 * Removes what a run left on the server (never anything else: keys and uploads the run could
 * have made, `<keyPrefix><key number>`, whatever a listing answers, and buckets named for the
 * run) and says what it could not, with the codes that kept it. Never throws for the server's
 * sake: a listing that fails leaves its kind unchecked, and so does a server that stopped
 * answering for the kinds not reached yet. A bucket that no longer exists holds nothing of the
 * run: that is said (bucketGone) and nothing is counted left in it. `silentServer`: the code of
 * a probe that just got no answer (the run's server is gone); then nothing is sent, and
 * everything is reported left at once.
 */
export async function removeLeftovers(
  controlPlane: ControlPlane,
  plan: LeftoverPlan,
  silentServer: string | null = null,
): Promise<RunCleanup> {
  const cleanup = emptyCleanup();
  // Set once a call got no answer at all: each further one would wait as long, so the kinds
  // not reached yet are left unchecked, and a cleanup ends within about one request timeout.
  let silence: string | null = silentServer;
  const count = (result: RemovalResult, kind: Kind) => {
    cleanup.removed[kind] += result.removed;
    for (const { name, code } of result.failures) {
      if (code === BUCKET_GONE_CODE && kind !== "buckets") {
        cleanup.bucketGone = true;
        continue;
      }
      if (kind === "objects") cleanup.objectsLeft += 1;
      if (kind === "uploads") cleanup.uploadsLeft += 1;
      if (kind === "buckets") cleanup.bucketsLeft.push(name);
      addError(cleanup, code);
    }
    if (result.unanswered) silence = result.failures.at(-1)?.code ?? "unknown";
  };
  const listed = async <T>(kind: Kind, list: () => Promise<T[]>): Promise<T[]> => {
    if (silence !== null) {
      cleanup.unchecked.push(kind);
      return [];
    }
    try {
      return await list();
    } catch (error) {
      if (!(error instanceof EndpointError)) throw error;
      if (error.code === BUCKET_GONE_CODE && kind !== "buckets") {
        cleanup.bucketGone = true;
        return [];
      }
      cleanup.unchecked.push(kind);
      addError(cleanup, error.code);
      if (error.unanswered) silence = error.code;
      return [];
    }
  };
  const isRunKey = (key: string) => runKeyNumber(plan.keyPrefix, key) !== null;
  if (silence !== null && plan.objects !== "listed") {
    cleanup.objectsLeft = plan.objects.count;
    if (plan.objects.count > 0) addError(cleanup, silence, plan.objects.count);
  } else {
    let keys: Iterable<string>;
    if (plan.objects === "listed") {
      const listedKeys = await listed("objects", () => controlPlane.listKeys(plan.keyPrefix));
      const runKeys = listedKeys.filter(isRunKey);
      const trustListing = runKeys.length > 0 || silence !== null || cleanup.bucketGone === true;
      keys = trustListing || !plan.recordedKeys ? runKeys : await recordedRunKeys(plan, isRunKey);
    } else {
      keys = plan.objects.keys();
    }
    count(await controlPlane.deleteKeys(keys), "objects");
  }
  if (plan.uploads && cleanup.bucketGone !== true) {
    const uploads = await listed("uploads", () => controlPlane.listUploads(plan.keyPrefix));
    const runUploads = uploads.filter((upload) => isRunKey(upload.key));
    if (runUploads.length > 0) count(await controlPlane.abortUploads(runUploads), "uploads");
  }
  const runId = plan.bucketsOfRun;
  if (runId !== null) {
    const buckets = await listed("buckets", () =>
      controlPlane.listBuckets((name) => isWorkloadBucketOf(runId, name)),
    );
    if (buckets.length > 0) count(await controlPlane.deleteBuckets(buckets), "buckets");
  }
  return cleanup;
}

/** The keys the run's records name, of those the run could have made. */
async function recordedRunKeys(
  plan: LeftoverPlan,
  isRunKey: (key: string) => boolean,
): Promise<string[]> {
  const recorded = (await plan.recordedKeys?.())?.keys() ?? [];
  return [...recorded].filter(isRunKey);
}

/**
 * A cleanup still to come, as run.json keeps it meanwhile: nothing removed yet, and what it will
 * look at unchecked, so a run killed before it ends says what it may have left.
 */
export function pendingCleanup(plan: LeftoverPlan): RunCleanup {
  const unchecked: Kind[] = [];
  if (plan.objects === "listed" || plan.objects.count > 0) unchecked.push("objects");
  if (plan.uploads) unchecked.push("uploads");
  if (plan.bucketsOfRun !== null) unchecked.push("buckets");
  return { ...emptyCleanup(), unchecked };
}

function emptyCleanup(): RunCleanup {
  return {
    at: new Date().toISOString(),
    removed: { objects: 0, uploads: 0, buckets: 0 },
    objectsLeft: 0,
    uploadsLeft: 0,
    bucketsLeft: [],
    unchecked: [],
    errorsByCode: emptyCodeCounts(),
  };
}

function addError(cleanup: RunCleanup, code: string, times = 1): void {
  const counts = new ErrorCodeCounts();
  counts.addAll(cleanup.errorsByCode);
  counts.add(code, times);
  cleanup.errorsByCode = counts.toObject();
}
