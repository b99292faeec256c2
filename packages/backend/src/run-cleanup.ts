import { cleanupLeftNothing, type RunCleanup } from "@taillab/api";
import { shardKeyPrefix, shardKeySpace } from "@taillab/core";
import { createControlPlane } from "@taillab/engine";
import type { ResultsStore } from "@taillab/store";
import type { SecretSources } from "./credentials.ts";
import { InputError } from "./input-error.ts";
import { removeLeftovers } from "./run-leftovers.ts";
import { recordedWrites, type WrittenKeys } from "./written-keys.ts";
import { resolveTargets } from "./run-targets.ts";

/**
 * Removes what a run left on its server — a run killed or stopped before its cleanup, one whose
 * cleanup failed, or one that kept its objects: every key of it under its prefix (or, when the
 * server lists none, the keys its records name), its open multipart uploads and its workload
 * buckets, never anything else — and keeps the outcome in run.json.
 * The endpoint and credentials are the run's own (by reference, resolved from `secrets`).
 */
export async function cleanUpRun(
  store: ResultsStore,
  runId: string,
  secrets: SecretSources,
): Promise<RunCleanup> {
  const run = await store.get(runId);
  if (run.status === "running") {
    throw InputError.of("runId", `run ${runId} is still running; stop it, then clean up after it`);
  }
  const { spec, keyPrefix, imported } = run.meta;
  if (imported) {
    throw InputError.of(
      "runId",
      `run ${runId} was imported from ${imported.tool}'s results: TailLab wrote nothing on its server, so there is nothing to clean up`,
    );
  }
  if (!spec.endpoints) {
    throw InputError.of(
      "runId",
      `run ${runId} ran on the embedded testbed, which kept nothing once it stopped: there is nothing to clean up`,
    );
  }
  const ranAs = runIdInPrefix(keyPrefix, spec.keyPrefix);
  if (ranAs === null) {
    throw InputError.of(
      "runId",
      `run ${runId}: its key prefix "${keyPrefix}" is not a run's own folder (${spec.keyPrefix}/<run id>/); nothing was deleted`,
    );
  }
  const [target] = await resolveTargets(spec, secrets, null);
  if (!target) throw InputError.of("runId", `run ${runId} names no endpoint`);
  const controlPlane = createControlPlane({ ...target, maxConnections: 1 });
  try {
    const cleanups = [
      await removeLeftovers(controlPlane, {
        objects: "listed",
        // After a cleanup that left nothing, the records name keys that are gone already.
        ...(run.meta.cleanup && cleanupLeftNothing(run.meta.cleanup)
          ? {}
          : { recordedKeys: () => recordedKeysOf(store, runId, keyPrefix) }),
        keyPrefix,
        uploads: true,
        bucketsOfRun: ranAs,
      }),
    ];
    // A distributed run's prefix is its folder (markers, results); each shard wrote its objects
    // beside it, under `<prefix>/<run>-<shard>/`, and a killed shard left them there.
    for (const { index } of run.summary?.distributed?.shards ?? []) {
      const shardSpace = shardKeySpace(ranAs, index);
      cleanups.push(
        await removeLeftovers(controlPlane, {
          objects: "listed",
          keyPrefix: shardKeyPrefix(spec.keyPrefix, ranAs, index),
          uploads: true,
          bucketsOfRun: shardSpace,
        }),
      );
    }
    const cleanup = cleanups.reduce(combinedCleanups);
    await store.recordCleanup(runId, cleanup);
    return cleanup;
  } finally {
    await controlPlane.close();
  }
}

/** What two removals did, as one. */
function combinedCleanups(a: RunCleanup, b: RunCleanup): RunCleanup {
  const errorsByCode = Object.assign(Object.create(null) as Record<string, number>, a.errorsByCode);
  for (const [code, count] of Object.entries(b.errorsByCode)) {
    errorsByCode[code] = (errorsByCode[code] ?? 0) + count;
  }
  return {
    at: b.at,
    removed: {
      objects: a.removed.objects + b.removed.objects,
      uploads: a.removed.uploads + b.removed.uploads,
      buckets: a.removed.buckets + b.removed.buckets,
    },
    objectsLeft: a.objectsLeft + b.objectsLeft,
    uploadsLeft: a.uploadsLeft + b.uploadsLeft,
    bucketsLeft: [...a.bucketsLeft, ...b.bucketsLeft],
    unchecked: [...new Set([...a.unchecked, ...b.unchecked])],
    errorsByCode,
    ...(a.bucketGone || b.bucketGone ? { bucketGone: true } : {}),
  };
}

/**
 * The keys the run's records say it wrote; of a records log it cannot read (through), the keys
 * of what it could: a fallback when the server's listing shows nothing.
 */
async function recordedKeysOf(
  store: ResultsStore,
  runId: string,
  keyPrefix: string,
): Promise<WrittenKeys> {
  async function* untilDamage() {
    try {
      for await (const { record } of store.records(runId)) yield record;
    } catch {
      // A damaged records log: the records before the damage still name keys.
    }
  }
  return recordedWrites(untilDamage(), keyPrefix);
}

/**
 * The run id a key prefix was made for (`<spec prefix>/<id>/`; an imported run may have another
 * id now), or null when the prefix is not such a folder and deleting under it could reach keys
 * that are not the run's.
 */
function runIdInPrefix(keyPrefix: string, specPrefix: string): string | null {
  const id = keyPrefix.startsWith(`${specPrefix}/`)
    ? keyPrefix.slice(specPrefix.length + 1, -1)
    : "";
  return keyPrefix.endsWith("/") && /^[\w.-]+$/.test(id) ? id : null;
}
