import { OBJECT_WRITES, type RequestRecord } from "@taillab/api";

/**
 * Keys a run wrote: how many, and the keys themselves, made as a cleanup takes them a batch at a
 * time (a long run's are millions of strings).
 */
export interface WrittenKeys {
  count: number;
  keys(): Iterable<string>;
}

/**
 * Whether the request a record is of may have left its object on the server: a write that
 * succeeded, or one whose outcome is unknown (no answer: a timeout, a reset, a stop). A write
 * the server answered with an error did not.
 */
export function mayHaveWritten(record: Pick<RequestRecord, "op" | "status">): boolean {
  return OBJECT_WRITES.has(record.op) && (record.status === 0 || record.status < 300);
}

/**
 * A DELETE the server answered with success: its key is gone. (A 404 is not taken for that: it
 * is as likely NoSuchBucket, which the cleanup says as such.)
 */
function deleted(record: Pick<RequestRecord, "op" | "status">): boolean {
  return record.op === "DELETE" && record.status >= 200 && record.status < 300;
}

/** `<keyPrefix><key number>`: the only keys a run makes (see the engine's client worker). */
export function runKeyNumber(keyPrefix: string, key: string): number | null {
  if (!keyPrefix.endsWith("/") || !key.startsWith(keyPrefix)) return null;
  const rest = key.slice(keyPrefix.length);
  return /^(0|[1-9]\d{0,9})$/.test(rest) ? Number(rest) : null;
}

/** Key numbers past this are not tracked (one byte each): 128 Mi keys, 128 MiB at most. */
const MAX_TRACKED_KEYS = 2 ** 27;

/** What the records of a key said last about whether its object may be on the server. */
const KeyState = {
  /** No record of it: a write may have been cut off unrecorded, so it may be there. */
  Unknown: 0,
  /** Every write of it was refused with an answer. */
  Refused: 1,
  MayExist: 2,
  Deleted: 3,
} as const;
type KeyState = (typeof KeyState)[keyof typeof KeyState];

/**
 * Follows a run's records to tell which of its keys may be on the server: those with a write
 * that may have reached it and no successful DELETE since, and those with no record at all (a
 * request cut off by a stop leaves none). Keys whose writes were all refused are not counted,
 * nor keys the run deleted.
 */
export class WrittenKeyTracker {
  private states = new Uint8Array(1024);
  private readonly keyPrefix: string;
  private readonly followDeletes: boolean;

  /**
   * `followDeletes`: a successful DELETE takes its key off (a cleanup phase, which comes after
   * the writes). Not in a mix: its PUTs and DELETEs of one key race on several workers, whose
   * records may arrive in another order than the requests ran.
   */
  constructor(keyPrefix: string, { followDeletes }: { followDeletes: boolean }) {
    this.keyPrefix = keyPrefix;
    this.followDeletes = followDeletes;
  }

  add(record: Pick<RequestRecord, "op" | "status" | "key">): void {
    const number = runKeyNumber(this.keyPrefix, record.key);
    if (number === null) return;
    if (mayHaveWritten(record)) this.set(number, KeyState.MayExist);
    else if (this.followDeletes && deleted(record)) this.set(number, KeyState.Deleted);
    else if (OBJECT_WRITES.has(record.op) && this.stateOf(number) === KeyState.Unknown) {
      this.set(number, KeyState.Refused);
    }
  }

  /** The keys of `ranges` that may be on the server. */
  leftIn(ranges: readonly { firstKey: number; count: number }[]): WrittenKeys {
    const mayBeLeft = (number: number) => {
      const state = this.stateOf(number);
      return state === KeyState.Unknown || state === KeyState.MayExist;
    };
    function* numbers() {
      for (const { firstKey, count } of ranges) {
        for (let number = firstKey; number < firstKey + count; number += 1) {
          if (mayBeLeft(number)) yield number;
        }
      }
    }
    let count = 0;
    for (const each = numbers(); !each.next().done;) count += 1;
    const keyPrefix = this.keyPrefix;
    return {
      count,
      *keys() {
        for (const number of numbers()) yield `${keyPrefix}${number}`;
      },
    };
  }

  private stateOf(number: number): KeyState {
    return (this.states[number] ?? KeyState.Unknown) as KeyState;
  }

  private set(number: number, state: KeyState): void {
    // Beyond any run's keys (a record not of this run): left Unknown, which counts it as left.
    if (number >= MAX_TRACKED_KEYS) return;
    if (number >= this.states.length) {
      let length = this.states.length;
      while (length <= number) length *= 2;
      const grown = new Uint8Array(length);
      grown.set(this.states);
      this.states = grown;
    }
    this.states[number] = state;
  }
}

/**
 * The keys a run's records say may be on the server, for a cleanup that cannot trust the
 * server's listing: each key with a write that may have reached it. DELETEs are not followed
 * (a mix's race on one key may be recorded out of order): deleting a key that is gone already
 * does no harm, leaving one that is there would. Held as a set, so a records file of any key
 * numbers costs only what it names.
 */
export async function recordedWrites(
  records: AsyncIterable<Pick<RequestRecord, "op" | "status" | "key">>,
  keyPrefix: string,
): Promise<WrittenKeys> {
  const keys = new Set<string>();
  for await (const record of records) {
    if (runKeyNumber(keyPrefix, record.key) !== null && mayHaveWritten(record)) {
      keys.add(record.key);
    }
  }
  return { count: keys.size, keys: () => keys };
}
