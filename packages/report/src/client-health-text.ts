import type { ClientBottleneck, ClientSecond, ClientVerdict, PhaseSummary } from "@taillab/api";
import {
  clientAdvice,
  coordinatedOmissionNote,
  openLoopFlags,
  type ClientAdvice,
} from "@taillab/core";

/** What the client's health and a closed loop's omissions say, in English (the CLI, `runs show`). */

const REASON_TEXT: Record<ClientBottleneck, string> = {
  cpu: "TailLab's CPU use was near the cores it may use",
  "clients-per-worker":
    "a worker thread was busy nearly all the time (too many clients per worker)",
  "event-loop-delay": "its workers could not run for a tenth or more of the latency measured",
  "schedule-behind": "the open loop fell behind its schedule",
};

const ADVICE_TEXT: Record<ClientAdvice, string> = {
  "fewer-clients": "fewer clients or a lower rate",
  "more-workers": "more workers (--workers)",
  "server-elsewhere": "run the server on another machine",
};

function reasonsText(verdict: ClientVerdict): string {
  const advice = clientAdvice(verdict).map((each) => ADVICE_TEXT[each]);
  return `${verdict.reasons.map((reason) => REASON_TEXT[reason]).join("; ")}; try: ${advice.join("; ")}`;
}

/** The warning line a run prints while it runs, for a second whose client was the bottleneck. */
export function formatClientSecondWarning(second: ClientSecond): string {
  const at = (second.startMs / 1000).toFixed(0);
  const behind =
    second.verdict.reasons.includes("schedule-behind") && second.behindMs > 0
      ? ` (${(second.behindMs / 1000).toFixed(1)} s behind its schedule)`
      : "";
  const shed = second.shed > 0 ? `; ${second.shed} arrivals shed` : "";
  return `warning: at ${at} s TailLab's client was the bottleneck, not the server${behind}${shed}: ${reasonsText(second.verdict)}`;
}

/** A distributed run's shards whose client was the bottleneck, as " on shard 1, 2". */
function shardsText(shards: readonly number[] | undefined): string {
  if (!shards?.length) return "";
  return ` on shard${shards.length > 1 ? "s" : ""} ${shards.join(", ")}`;
}

const ms = (value: number) => `${value.toFixed(3)} ms`;

/** The client's verdict for a phase, and an open loop's arrivals; none before it was measured. */
export function clientHealthLines(phase: PhaseSummary): string[] {
  const client = phase.client;
  if (!client) return [];
  const { figures, verdict } = client;
  const measured = `CPU ${figures.cpuCores.toFixed(2)} of ${figures.availableCores} cores, busiest worker ${(figures.busiestWorkerCpu * 100).toFixed(0)} %, event-loop delay p99 ${ms(figures.eventLoopDelayP99Ms)}, client stall ${(figures.stallShare * 100).toFixed(1)} % of latency`;
  const lines = [
    verdict.keptUp
      ? `Client:            kept up (${measured})`
      : `Client:            THE BOTTLENECK${shardsText(client.boundShards)}, not the server: ${reasonsText(verdict)} (${measured})`,
  ];
  if (client.arrivals === "kept") {
    lines.push(
      `Arrivals:          every arrival kept; the ${figures.missedStarts} that started late count from their schedule (the open loop's point)`,
    );
  } else if (client.arrivals === "shed") {
    lines.push(
      `Arrivals:          ${figures.shed} shed: the live lab drops arrivals more than its backlog bound behind, so it follows its knobs`,
    );
  }
  return lines;
}

/** The closed loop's coordinated-omission note, with the open-loop equivalent's flags. */
export function coordinatedOmissionLines(phase: PhaseSummary): string[] {
  const note = coordinatedOmissionNote(phase);
  if (!note) return [];
  const rerun = `For what a request arriving at any moment sees, run the open loop just under this throughput: ${openLoopFlags(note)}`;
  if (note.strength === "note") {
    return [
      "Closed loop:       each client waits for its answer, so slow moments send fewer requests and weigh less (coordinated omission).",
      `                   ${rerun}`,
    ];
  }
  const p99 = phase.latencyMs?.p99 ?? 0;
  const evidence =
    note.gapMs >= 10 * p99 && note.gapMs > 0
      ? `nothing completed for ${note.gapMs} ms while every client waited (p99 ${ms(p99)})`
      : `the slowest request took ${note.maxOverP99}× the p99`;
  return [
    `Closed loop:       COORDINATED OMISSION: ${evidence}; the percentiles above leave out what requests arriving then would have seen.`,
    `                   ${rerun}`,
  ];
}
