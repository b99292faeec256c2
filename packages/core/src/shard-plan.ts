import {
  coded,
  fieldError,
  type FieldError,
  type RunPointParams,
  type RunSpec,
  type Workload,
} from "@taillab/api";
import { expandSweep } from "./sweep.ts";

/**
 * How the N shards of a distributed run share one spec (pure). Shard I of N takes an even share
 * of each point's clients and requests; the open loop's one schedule is dealt out request by
 * request (global request g belongs to shard g mod N), so the shards' intended starts together
 * are the whole run's schedule. Client numbers run on across shards, so the merged accounts see
 * every client of the run, and the steady window is where all of them were busy. A workload's
 * prepared objects and its byte budget are shared the same way.
 */

export interface ShardRole {
  /** 0 to count − 1. */
  index: number;
  count: number;
}

/**
 * What names shard I's keys and workload buckets: `<runId>-<I>`, beside the run's folder
 * (`<prefix>/<runId>/`), so a shard's cleanup removes its own keys, never another shard's.
 */
export function shardKeySpace(runId: string, index: number): string {
  return `${runId}-${index}`;
}

/** `<prefix>/<runId>-<I>/`: where shard I wrote its objects. */
export function shardKeyPrefix(specKeyPrefix: string, runId: string, index: number): string {
  return `${specKeyPrefix}/${shardKeySpace(runId, index)}/`;
}

/** `total` split as evenly as possible over `parts`: 10 over 4 → 3, 3, 2, 2. */
export function evenShares(total: number, parts: number): number[] {
  return Array.from(
    { length: parts },
    (_, index) => Math.floor(total / parts) + (index < total % parts ? 1 : 0),
  );
}

function shareOf(total: number, { index, count }: ShardRole): number {
  return evenShares(total, count)[index] ?? 0;
}

/**
 * A shard's part of a point. Its requests are its share of the closed loop's, and of the open
 * loop's schedule exactly the requests g with g mod N = I (whose number is the same share).
 */
export function shardPointParams(params: RunPointParams, shard: ShardRole): RunPointParams {
  return {
    clients: shareOf(params.clients, shard),
    samples: shareOf(params.samples, shard),
    objectSizeBytes: params.objectSizeBytes,
  };
}

/**
 * A shard's part of a workload: its share of the prepared objects (in its own key space: the
 * shards together prepare what the spec asks, once) and of the payload bytes after which the
 * mix stops, so the shards together move `totalBytes`, not N times it. Its key choice draws
 * over its own prepared objects: a zipf workload on N shards has a hottest key on each. Its
 * seed is the spec's plus its index: with the spec's own seed every shard's worker 0 would draw
 * the same operations, keys and ranges in the same order as every other shard's.
 */
export function shardWorkload(workload: Workload, shard: ShardRole): Workload {
  return {
    ...workload,
    seed: workload.seed + shard.index,
    prepareObjects: shareOf(workload.prepareObjects, shard),
    ...(workload.totalBytes === undefined
      ? {}
      : { totalBytes: shareOf(workload.totalBytes, shard) }),
  };
}

/** The run-wide number of the shard's first client: the clients of the shards before it. */
export function firstClientOfShard(clients: number, { index, count }: ShardRole): number {
  return evenShares(clients, count)
    .slice(0, index)
    .reduce((sum, share) => sum + share, 0);
}

/** Whether global request `g` of an open-loop schedule is this shard's to send. */
export function ownsScheduledRequest(g: number, { index, count }: ShardRole): boolean {
  return g % count === index;
}

/** "3/8" → shard 3 of 8, or why not. */
export function parseShardRole(text: string): ShardRole | { problem: string } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) return { problem: `expected I/N, e.g. 0/4 (shard 0 of 4), got "${text}"` };
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1) return { problem: `the shard count must be at least 1, got ${count}` };
  if (index >= count)
    return { problem: `shard ${index} does not exist in ${count} shards (0 to ${count - 1})` };
  return { index, count };
}

/**
 * Why a spec cannot be run in `count` shards: every shard needs a client and a request of every
 * point, a prepared object and a byte of a workload's budget, and an endpoint the shards share
 * (each would start an embedded testbed of its own); an open loop until stopped has no requests
 * to share (the live tail lab runs on this machine).
 */
export function shardSpecProblems(spec: RunSpec, count: number): FieldError[] {
  const problems: FieldError[] = [];
  if (!spec.endpoints) {
    problems.push(fieldError("endpoint", coded("shardsNeedEndpoint")));
  }
  const points = expandSweep(spec);
  // A sweep may have many points: no spread into Math.min's arguments.
  const fewestClients = points.reduce((fewest, point) => Math.min(fewest, point.clients), Infinity);
  if (fewestClients < count) {
    problems.push(
      fieldError(
        "clients",
        coded("shardsTooFewClients", { clients: fewestClients, shards: count }),
      ),
    );
  }
  const fewestSamples = points.reduce((fewest, point) => Math.min(fewest, point.samples), Infinity);
  if (spec.openLoop?.untilStopped) {
    problems.push(fieldError("openLoop.untilStopped", coded("shardsNotUntilStopped")));
  } else if (fewestSamples < count) {
    problems.push(
      fieldError(
        "samples",
        coded("shardsTooFewSamples", { samples: fewestSamples, shards: count }),
      ),
    );
  }
  // Each shard would find its own share steady at its own moment, and the phases' gates differ.
  if (spec.untilSteady) problems.push(fieldError("untilSteady", coded("shardsNotUntilSteady")));
  const { workload } = spec;
  if (workload && workload.prepareObjects < count) {
    problems.push(
      fieldError(
        "workload.prepareObjects",
        coded("shardsTooFewPrepared", { objects: workload.prepareObjects, shards: count }),
      ),
    );
  }
  if (workload?.totalBytes !== undefined && workload.totalBytes < count) {
    problems.push(
      fieldError(
        "workload.totalBytes",
        coded("shardsTooFewBytes", { bytes: workload.totalBytes, shards: count }),
      ),
    );
  }
  return problems;
}
