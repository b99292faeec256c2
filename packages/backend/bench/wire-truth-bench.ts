/**
 * `pnpm bench wire [--hogs 0,4] [--requests N] [--rounds 3] [--skip-backups]`: TailLab's figures
 * against the wire, quiet and beside CPU hogs. Two replicas of the truth harness's known-latency server (1 % of answers held
 * 1 s, the rest 1 ms), each behind its own timestamping proxy; neither shares code with TailLab.
 *
 * - GETs, closed loop, 8 in flight: p50 / p99 / p99.9 as TailLab's records give them, as the wire
 *   saw the same requests, and as a bare `node:http` client (8 keep-alive loops on this thread)
 *   and the wire saw its requests; "above the wire" is the client's percentile minus the wire's.
 *   The two clients run in rounds, in turn, and each is judged over all its rounds.
 * - Per TailLab round: its summary's percentiles, the server slice it gives the slowest 0.1 %
 *   and its client health (the stall probe's share and tail stall, event-loop delay, CPU), where
 *   its own tail above the wire would show; and the wire's time to the headers of the same
 *   slowest requests.
 * - Hedged (fixed 10 ms), adaptive (p90) and tied GETs on both replicas: the extra requests and
 *   wasted bytes TailLab counts, against the requests the replicas received and the loser bytes
 *   the proxies handed on; and for tied, the share of requests whose twin reached the wire.
 */
import type { RequestMode, RequestRecord, RunSummary } from "@taillab/api";
import { exactPercentile } from "@taillab/core";
import { formatTable } from "@taillab/report";
import {
  startKnownLatencyServer,
  startWireProxy,
  type TruthProcess,
  type WireEntry,
  type WireProxy,
} from "@taillab/test-support";
import { Agent, get } from "node:http";
import { parseArgs } from "node:util";
import { startCpuHogs } from "../../../scripts/cpu-hogs.ts";
import { runBenchmark } from "../src/run-benchmark.ts";

const { values } = parseArgs({
  options: {
    hogs: { type: "string", default: "0,4" },
    requests: { type: "string", default: "4000" },
    rounds: { type: "string", default: "3" },
    "skip-backups": { type: "boolean", default: false },
  },
});
const HOG_COUNTS = values.hogs.split(",").map(Number);
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);
const IN_FLIGHT = 8;
const SIZE = "8KiB";
const STALLS = { kind: "stalls", baseMs: 1, stallMs: 1000, probability: 0.01 } as const;
const secrets = { env: { WIRE_ACCESS_KEY_ID: "wire", WIRE_SECRET_ACCESS_KEY: "wire-secret" } };
const credentials = {
  kind: "env",
  accessKeyIdVar: "WIRE_ACCESS_KEY_ID",
  secretAccessKeyVar: "WIRE_SECRET_ACCESS_KEY",
} as const;

const ms = (us: number) => us / 1000;
const keyOf = (entry: WireEntry) =>
  decodeURIComponent(new URL(entry.path, "http://wire").pathname.split("/").slice(2).join("/"));
const percentiles = (valuesMs: number[]) => {
  const sorted = [...valuesMs].sort((a, b) => a - b);
  return [50, 99, 99.9].map((level) => exactPercentile(sorted, level));
};
const fmt = (value: number) => value.toFixed(2);

async function replicas(count: number): Promise<{ proxies: WireProxy[]; parts: TruthProcess[] }> {
  const parts: TruthProcess[] = [];
  const proxies: WireProxy[] = [];
  for (let index = 0; index < count; index++) {
    const server = await startKnownLatencyServer({ ...STALLS, seed: index + 1 });
    const proxy = await startWireProxy(server.url);
    parts.push(proxy, server);
    proxies.push(proxy);
  }
  return { proxies, parts };
}

async function taillabRun(proxies: WireProxy[], mode: RequestMode, hedge: object) {
  const records: RequestRecord[] = [];
  const summary: RunSummary = await runBenchmark(
    {
      endpoints: proxies.map((proxy) => ({ url: proxy.url, credentials })),
      clients: IN_FLIGHT,
      samples: REQUESTS,
      objectSize: SIZE,
      phases: ["write", "read"],
      mode,
      hedge,
    },
    secrets,
    { onRecords: (_point, batch) => records.push(...batch) },
  );
  const get = summary.points[0]?.phases.find((phase) => phase.op === "GET");
  if (!get) throw new Error("no GET phase");
  return { get, gets: records.filter((record) => record.op === "GET" && record.measured) };
}

/** GETs of `keys` by 8 keep-alive loops of node:http: each request's latency, ms. */
async function bareClient(url: string, keys: string[]): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const latencies: number[] = [];
  let next = 0;
  const loop = async () => {
    while (next < keys.length) {
      const key = keys[next++] as string;
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        get(`${url}/loadgen/${key}`, { agent }, (response) => {
          response.on("data", () => {});
          response.on("end", () => resolve());
        }).on("error", reject);
      });
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, loop));
  agent.destroy();
  return latencies;
}

const wireGets = (entries: WireEntry[]) =>
  entries.filter((entry) => entry.method === "GET" && keyOf(entry) !== "");

/** One client's GETs in one round: its latency and the wire's for each, ms. */
interface Timed {
  clientMs: number[];
  wireMs: number[];
}

/** What the proxy logged from entry `from` on: the GETs of one client's round. */
async function wireGetsSince(proxy: WireProxy, from: number): Promise<WireEntry[]> {
  return wireGets((await proxy.entries()).slice(from));
}

async function taillabRound(proxy: WireProxy) {
  const from = (await proxy.entries()).length;
  const { get, gets } = await taillabRun([proxy], "normal", {});
  const wireOf = new Map((await wireGetsSince(proxy, from)).map((entry) => [keyOf(entry), entry]));
  const timed: Timed = {
    clientMs: gets.map((record) => ms(record.endUs - record.intendedStartUs)),
    wireMs: gets.map((record) => {
      const entry = wireOf.get(record.key);
      return entry?.endUs ? ms(entry.endUs - entry.startUs) : Number.NaN;
    }),
  };
  // The slowest 0.1 % by TailLab's latency, and the wire's time to their answers' headers.
  const slowest = [...gets]
    .sort((a, b) => b.endUs - b.intendedStartUs - (a.endUs - a.intendedStartUs))
    .slice(0, Math.max(1, Math.round(gets.length / 1000)));
  const slowestWireServerMs = slowest.map((record) => {
    const entry = wireOf.get(record.key);
    return entry?.headersUs ? ms(entry.headersUs - entry.startUs) : Number.NaN;
  });
  return { get, keys: gets.map((record) => record.key), timed, slowestWireServerMs };
}

async function bareRound(proxy: WireProxy, keys: string[]): Promise<Timed> {
  const from = (await proxy.entries()).length;
  const clientMs = await bareClient(
    proxy.url,
    keys.map((key) => key.split("/").map(encodeURIComponent).join("/")),
  );
  const wireMs = (await wireGetsSince(proxy, from)).map((entry) =>
    ms((entry.endUs ?? entry.startUs) - entry.startUs),
  );
  return { clientMs, wireMs };
}

/**
 * TailLab and the bare client in rounds on one server, in turn (which goes first alternates; the
 * bare client reads the objects TailLab's latest round wrote), each judged over all its rounds:
 * a change in the machine's load falls on both alike.
 */
async function againstTheWire(hogs: number): Promise<void> {
  const { proxies, parts } = await replicas(1);
  const proxy = proxies[0] as WireProxy;
  try {
    const taillab: Timed = { clientMs: [], wireMs: [] };
    const bare: Timed = { clientMs: [], wireMs: [] };
    const add = (into: Timed, round: Timed) => {
      into.clientMs.push(...round.clientMs);
      into.wireMs.push(...round.wireMs);
    };
    const roundLines: string[] = [];
    const slowestWireServerMs: number[] = [];
    let keys: string[] = [];
    const runTailLab = async (round: number) => {
      const result = await taillabRound(proxy);
      keys = result.keys;
      add(taillab, result.timed);
      slowestWireServerMs.push(...result.slowestWireServerMs);
      const { get } = result;
      const client = get.client?.figures;
      roundLines.push(
        `round ${round + 1}: TailLab's summary p50 / p99 / p99.9 ${fmt(get.latencyMs?.p50 ?? 0)} / ` +
          `${fmt(get.latencyMs?.p99 ?? 0)} / ${fmt(get.latencyMs?.p999 ?? 0)} ms; server slice of ` +
          `the slowest 0.1 % ${fmt(get.tail?.p999.serverMs ?? Number.NaN)} ms; client stall of ` +
          `the slowest 0.1 % ${fmt(get.client?.tailStallMs?.p999 ?? Number.NaN)} ms, stall share ` +
          `${fmt(100 * (client?.stallShare ?? Number.NaN))} %, event-loop delay p99 ` +
          `${fmt(client?.eventLoopDelayP99Ms ?? Number.NaN)} ms, busiest worker CPU ` +
          `${fmt(client?.busiestWorkerCpu ?? Number.NaN)}`,
      );
    };
    for (let round = 0; round < ROUNDS; round++) {
      process.stderr.write(`${hogs} CPU hogs: round ${round + 1} of ${ROUNDS}…\n`);
      // The first round starts with TailLab, whose write phase makes the objects both read.
      if (round % 2 === 0) {
        await runTailLab(round);
        add(bare, await bareRound(proxy, keys));
      } else {
        add(bare, await bareRound(proxy, keys));
        await runTailLab(round);
      }
    }
    const [t50, t99, t999] = percentiles(taillab.clientMs) as [number, number, number];
    const [w50, w99, w999] = percentiles(taillab.wireMs) as [number, number, number];
    const [b50, b99, b999] = percentiles(bare.clientMs) as [number, number, number];
    const [bw50, bw99, bw999] = percentiles(bare.wireMs) as [number, number, number];
    process.stdout.write(
      `\n${hogs} CPU hogs — GET ${SIZE}, closed loop, ${IN_FLIGHT} in flight, ${ROUNDS} rounds of ` +
        `${REQUESTS} requests each, TailLab and the bare client in turn\n`,
    );
    process.stdout.write(
      formatTable([
        [
          "",
          "requests",
          "p50 ms",
          "p99 ms",
          "p99.9 ms",
          "above wire p50",
          "above wire p99",
          "above wire p99.9",
        ],
        ...[
          [
            "TailLab (records)",
            String(taillab.clientMs.length),
            fmt(t50),
            fmt(t99),
            fmt(t999),
            fmt(t50 - w50),
            fmt(t99 - w99),
            fmt(t999 - w999),
          ],
          [
            "wire (TailLab's)",
            String(taillab.wireMs.length),
            fmt(w50),
            fmt(w99),
            fmt(w999),
            "",
            "",
            "",
          ],
          [
            "bare node:http",
            String(bare.clientMs.length),
            fmt(b50),
            fmt(b99),
            fmt(b999),
            fmt(b50 - bw50),
            fmt(b99 - bw99),
            fmt(b999 - bw999),
          ],
          [
            "wire (bare's)",
            String(bare.wireMs.length),
            fmt(bw50),
            fmt(bw99),
            fmt(bw999),
            "",
            "",
            "",
          ],
        ],
      ]),
    );
    const excessRatio = (t999 - w999) / Math.max(0.001, b999 - bw999);
    process.stdout.write(
      `p99.9 above the wire, TailLab / bare: ${excessRatio.toFixed(2)}× (goal ≤ 1.2×)\n`,
    );
    const mean = (list: number[]) => list.reduce((sum, value) => sum + value, 0) / list.length;
    process.stdout.write(
      `${roundLines.join("\n")}\n` +
        `the wire's time to the headers of TailLab's slowest 0.1 % (each round's, by rank): mean ` +
        `${fmt(mean(slowestWireServerMs))} ms, max ${fmt(Math.max(...slowestWireServerMs))} ms\n`,
    );
  } finally {
    await Promise.all(parts.map((part) => part.stop()));
  }
}

async function backupsAgainstTheWire(hogs: number): Promise<void> {
  const rows: string[][] = [];
  for (const [mode, hedge] of [
    ["hedged", { delay: "10ms", budgetPercent: 10 }],
    ["adaptive", { delay: "p90", budgetPercent: 10 }],
    ["tied", {}],
  ] as const) {
    const { proxies, parts } = await replicas(2);
    try {
      const { get, gets } = await taillabRun(proxies, mode, hedge);
      const wire = await Promise.all(proxies.map(async (proxy) => wireGets(await proxy.entries())));
      const received = wire.reduce((sum, entries) => sum + entries.length, 0);
      const byReplicaKey = wire.map(
        (entries) => new Map(entries.map((entry) => [keyOf(entry), entry])),
      );
      const loserBytes = gets
        .filter((record) => !record.winner)
        .reduce(
          (sum, record) =>
            sum + (byReplicaKey[record.replica]?.get(record.key)?.responseBytes ?? 0),
          0,
        );
      const twinsOnWire = gets
        .filter((record) => record.attempt === 1)
        .filter((record) =>
          byReplicaKey.some(
            (byKey, replica) => replica !== record.replica && byKey.has(record.key),
          ),
        ).length;
      const wireExtraPct = (100 * (received - get.requests)) / get.requests;
      rows.push([
        mode,
        `${fmt(get.hedge?.extraPct ?? 0)} %`,
        `${fmt(wireExtraPct)} %`,
        `${((get.hedge?.wastedBytes ?? 0) / 2 ** 20).toFixed(3)} MiB`,
        `${(loserBytes / 2 ** 20).toFixed(3)} MiB`,
        mode === "tied" ? `${fmt((100 * twinsOnWire) / get.requests)} %` : "",
      ]);
    } finally {
      await Promise.all(parts.map((part) => part.stop()));
    }
  }
  process.stdout.write(
    `\n${hogs} CPU hogs — backups, GET ${SIZE}, 2 replicas, ${REQUESTS} requests\n`,
  );
  process.stdout.write(
    formatTable([
      [
        "mode",
        "extra (TailLab)",
        "extra (wire)",
        "wasted (TailLab)",
        "loser bytes (wire)",
        "twin on the wire",
      ],
      ...rows,
    ]),
  );
}

for (const hogs of HOG_COUNTS) {
  const load = hogs > 0 ? startCpuHogs(hogs) : null;
  try {
    await againstTheWire(hogs);
    if (!values["skip-backups"]) await backupsAgainstTheWire(hogs);
  } finally {
    load?.stop();
  }
}
