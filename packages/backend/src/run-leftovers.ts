import type { RunCleanup } from "@taillab/api";
import {
  EndpointError,
  isWorkloadBucketOf,
  type ControlPlane,
  type RemovalResult,
} from "@taillab/engine";

type Kind = RunCleanup["unchecked"][number];

/**
 * Keys a run wrote: how many, and the keys themselves, made as a cleanup takes them a batch at a
 * time (a long run's are millions of strings).
 */
export interface WrittenKeys {
  count: number;
  keys(): Iterable<string>;
}

/** What to remove of a run's leftovers. */
export interface LeftoverPlan {
  /** Keys known to have been written, or "listed": every key under keyPrefix. */
  objects: WrittenKeys | "listed";
  /** `<prefix>/<runId>/`: keys and open multipart uploads under it are the run's. */
  keyPrefix: string;
  /** Abort the open multipart uploads under keyPrefix. */
  uploads: boolean;
  /** Remove this run's workload buckets (`taillab-<runId>-w…`); null: none. */
  bucketsOfRun: string | null;
}

/**
 * Removes what a run left on the server (never anything else: keys and uploads under the run's
 * prefix, buckets named for the run) and says what it could not, with the codes that kept it.
 * Never throws for the server's sake: a listing that fails leaves its kind unchecked, and so
 * does a server that stopped answering for the kinds not reached yet. `silentServer`: the code
 * of a probe that just got no answer (the run's server is gone); then nothing is sent, and
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
      cleanup.unchecked.push(kind);
      addError(cleanup, error.code);
      if (error.unanswered) silence = error.code;
      return [];
    }
  };
  if (silence !== null && plan.objects !== "listed") {
    cleanup.objectsLeft = plan.objects.count;
    if (plan.objects.count > 0) addError(cleanup, silence, plan.objects.count);
  } else {
    const keys =
      plan.objects === "listed"
        ? await listed("objects", () => controlPlane.listKeys(plan.keyPrefix))
        : plan.objects.keys();
    count(await controlPlane.deleteKeys(keys), "objects");
  }
  if (plan.uploads) {
    const uploads = await listed("uploads", () => controlPlane.listUploads(plan.keyPrefix));
    if (uploads.length > 0) count(await controlPlane.abortUploads(uploads), "uploads");
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
    errorsByCode: {},
  };
}

function addError(cleanup: RunCleanup, code: string, times = 1): void {
  cleanup.errorsByCode[code] = (cleanup.errorsByCode[code] ?? 0) + times;
}
