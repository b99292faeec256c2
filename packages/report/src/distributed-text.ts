import type { ClockCheck, DistributedSummary, ShardBreakdown } from "@taillab/api";

/**
 * A merged run's shards for a terminal: how together they started, how far their clocks were
 * apart, which are missing and why, and each one's own figures beside the merged ones.
 */
export function formatDistributedSummary(distributed: DistributedSummary): string {
  const { shardCount, merged, startSpreadMs, clockSkewMs, clockSkewBoundMs, t0 } = distributed;
  const head = [
    `Distributed: ${shardCount} shards, ${merged.length} merged`,
    t0 === null ? "never started" : `T0 ${t0}`,
    `start spread ${startSpreadMs === null ? "-" : `${startSpreadMs.toFixed(3)} ms`}`,
    `clock skew ${clockSkewMs === null ? "-" : `${clockSkewMs.toFixed(0)} ms (± ${(clockSkewBoundMs ?? 0).toFixed(0)} ms)`}`,
  ].join("; ");
  const apart = distributed.clocksApart;
  const clocks = apart
    ? [
        `the clocks of shards ${apart.shards[0]} and ${apart.shards[1]} were ${(apart.apartMs / 1000).toFixed(1)} s apart (± ${(apart.boundMs / 1000).toFixed(2)} s): each placed what it measured by its own clock, so no start spread nor window where every shard was busy is known`,
      ]
    : [];
  return [head, ...clocks, ...distributed.shards.map(formatShard)].join("\n") + "\n";
}

function formatShard(shard: ShardBreakdown): string {
  const label = `  shard ${shard.index}: ${shard.status}`;
  if (shard.status === "missing") return `${label}: ${shard.problem ?? ""}`;
  const figures = shard.points.flatMap((point) =>
    point.phases.map(
      (phase) =>
        `${phase.op} ${phase.opsPerSec.toFixed(1)} ops/s p99 ${phase.latencyMs ? `${phase.latencyMs.p99.toFixed(3)} ms` : "-"}${phase.errors > 0 ? ` ${phase.errors} errors` : ""}`,
    ),
  );
  return [
    `${label}, started ${signedMs(shard.startOffsetMs, 3)} from T0, clock ${formatClock(shard.clock)}`,
    ...figures,
    ...(shard.problem ? [shard.problem] : []),
  ].join("; ");
}

function formatClock(clock: ClockCheck | null): string {
  if (!clock) return "unchecked";
  return `${signedMs(clock.offsetMs, 0)} (± ${clock.boundMs.toFixed(0)} ms) off the server`;
}

function signedMs(ms: number | null, digits: number): string {
  if (ms === null) return "-";
  return `${ms >= 0 ? "+" : ""}${ms.toFixed(digits)} ms`;
}
