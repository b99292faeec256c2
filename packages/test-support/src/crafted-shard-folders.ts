import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { createGzip, gunzipSync } from "node:zlib";

/**
 * Damaged and crafted shard folders of a distributed run, made from a sound one that a real shard
 * left (its `shards/0/result.json` and `shards/0/records.ndjson.gz`), for testing that
 * `taillab merge` refuses each with one line rather than crashing or merging absurd figures.
 */

/** One shard's objects, as names under the run's folder and their bytes. */
export type ShardFolderObjects = Record<string, Uint8Array>;

export interface CraftedShardFolder {
  name: string;
  /** Text the merge's refusal must contain. */
  refusal: RegExp;
  craft(sound: { result: string; records: Uint8Array }, runId: string): Promise<ShardFolderObjects>;
}

const RESULT = "shards/0/result.json";
const RECORDS = "shards/0/records.ndjson.gz";
const GIB = 1024 ** 3;

type Json = Record<string, unknown>;

/** The sound result under another run id, changed by `change`, with the sound records. */
function withResult(change: (result: Json) => void) {
  return async (sound: { result: string; records: Uint8Array }, runId: string) => {
    const result = JSON.parse(sound.result) as Json;
    result.runId = runId;
    change(result);
    return { [RESULT]: Buffer.from(JSON.stringify(result)), [RECORDS]: sound.records };
  };
}

/** The sound result under another run id, with records replaced by `records(sound)`. */
function withRecords(records: (sound: Uint8Array) => Promise<Uint8Array> | Uint8Array) {
  return async (sound: { result: string; records: Uint8Array }, runId: string) => {
    const { [RESULT]: result } = await withResult(() => {})(sound, runId);
    return { [RESULT]: result as Uint8Array, [RECORDS]: await records(sound.records) };
  };
}

/** The first phase's account of the first point. */
function firstPhase(result: Json): { summary: Json; account: Json } {
  const points = result.points as { phases: { summary: Json; account: Json }[] }[];
  const phase = points[0]?.phases[0];
  if (!phase) throw new Error("the sound shard result has no phase");
  return phase;
}

function latencyTally(result: Json): Json {
  const tallies = firstPhase(result).account.tallies as Record<string, Json>;
  if (!tallies.latency) throw new Error("the sound shard result has no latency histogram");
  return tallies.latency;
}

/** A records file whose first line is the sound header and whose second is `bytes` long. */
async function recordsWithLongLine(sound: Uint8Array, bytes: number): Promise<Uint8Array> {
  const header = gunzipSync(sound).toString("utf8").split("\n")[0] ?? "";
  const piece = Buffer.alloc(1024 * 1024, " ");
  async function* lines() {
    yield Buffer.from(`${header}\n[0,"`);
    for (let left = bytes; left > 0; left -= piece.length) {
      yield left >= piece.length ? piece : piece.subarray(0, left);
    }
    yield Buffer.from('"]\n');
  }
  return buffer(Readable.from(lines()).pipe(createGzip({ level: 1 })));
}

export const CRAFTED_SHARD_FOLDERS: readonly CraftedShardFolder[] = [
  {
    name: "records gzip damaged in the middle",
    refusal: /records\.ndjson\.gz/,
    craft: withRecords((sound) => {
      const damaged = Buffer.from(sound);
      for (let at = Math.floor(damaged.length / 3); at < damaged.length - 8; at += 7) {
        damaged[at] = (damaged[at] as number) ^ 0xa5;
      }
      return damaged;
    }),
  },
  {
    name: "records gzip cut in half",
    refusal: /records\.ndjson\.gz/,
    craft: withRecords((sound) => sound.subarray(0, Math.floor(sound.length / 2))),
  },
  {
    name: "a records line of 1 GiB",
    refusal: /records\.ndjson\.gz: line 2 is longer than/,
    craft: withRecords((sound) => recordsWithLongLine(sound, GIB)),
  },
  {
    name: "a records count that is not the file's",
    refusal: /records\.ndjson\.gz holds \d+ records, shard 0's result says/,
    craft: withResult((result) => {
      result.recordCount = (result.recordCount as number) + 1;
    }),
  },
  {
    name: "a latency histogram that is not one",
    refusal: /result\.json: point 1 \w+: latency histogram: not a readable HDR histogram/,
    craft: withResult((result) => {
      latencyTally(result).histogram = Buffer.from("not a histogram at all").toString("base64");
    }),
  },
  {
    name: "a latency of 4503599627370 ms",
    refusal:
      /result\.json: point 1 \w+: latency histogram: a duration of \d+ µs is longer than its phase/,
    craft: withResult((result) => {
      const tally = latencyTally(result);
      const absurdUs = 4_503_599_627_370_500;
      tally.maxUs = absurdUs;
      tally.sumUs = (tally.sumUs as number) + absurdUs;
    }),
  },
  {
    name: "a summary that disagrees with its account",
    refusal: /result\.json: point 1 \w+: its summary counts/,
    craft: withResult((result) => {
      const { summary } = firstPhase(result);
      summary.requests = (summary.requests as number) + 1000;
    }),
  },
  {
    name: "a shard index out of range",
    refusal: /result\.json: index 7 is out of range for 1 shards/,
    craft: withResult((result) => {
      result.index = 7;
    }),
  },
  {
    name: "a run clock that starts in the future",
    refusal: /result\.json: its run clock starts in the future/,
    craft: withResult((result) => {
      result.runStartEpochMs = Date.now() + 365 * 24 * 3600 * 1000;
    }),
  },
];
