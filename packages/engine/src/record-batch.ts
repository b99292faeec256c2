import type { Operation, RequestRecord } from "@taillab/api";
import type { RequestOutcome } from "./transport/object-transport.ts";

/**
 * A worker's per-attempt records on their way to the coordinator, as columns: the numbers in one
 * Float64Array (every field is an integer below 2^53, so exact), moved rather than copied, and
 * the strings in plain arrays. Posting the records as objects cost the worker a structured clone
 * that writes every field's name again for every record, and a record object per attempt to
 * collect first: 7 % of a busy worker's CPU besides their garbage (`--cpu-prof`, 64 GETs in
 * flight), on the thread whose event loop the answers wait for.
 */
export interface RecordBatch {
  /** NUMBER_FIELDS of each record in turn. */
  numbers: Float64Array<ArrayBuffer>;
  ops: Operation[];
  keys: string[];
  errors: (string | null)[];
}

/** What a record holds besides its op, key and error; winner and measured as 1 or 0. */
const NUMBER_FIELDS = [
  "bytes",
  "intendedStartUs",
  "readyUs",
  "sentUs",
  "headersUs",
  "firstByteUs",
  "endUs",
  "connectUs",
  "bodySentUs",
  "status",
  "attempt",
  "replica",
  "winner",
  "phaseIndex",
  "client",
  "measured",
] as const;
type NumberField = (typeof NUMBER_FIELDS)[number];
const AT = Object.fromEntries(NUMBER_FIELDS.map((name, index) => [name, index])) as Record<
  NumberField,
  number
>;
const STRIDE = NUMBER_FIELDS.length;
const FIRST_CAPACITY_RECORDS = 256;

/** The parts of a record that are not its attempt's outcome. */
export interface RecordContext {
  op: Operation;
  key: string;
  intendedStartUs: number;
  phaseIndex: number;
  client: number;
  measured: boolean;
}

/** Collects records as columns until taken. */
export class RecordBatchWriter {
  private numbers: Float64Array<ArrayBuffer> = new Float64Array(FIRST_CAPACITY_RECORDS * STRIDE);
  private ops: Operation[] = [];
  private keys: string[] = [];
  private errors: (string | null)[] = [];

  get size(): number {
    return this.ops.length;
  }

  /** One attempt of a logical request. */
  add(
    context: RecordContext,
    attempt: number,
    replica: number,
    outcome: RequestOutcome,
    winner: boolean,
  ): void {
    const at = this.ops.length * STRIDE;
    if (at + STRIDE > this.numbers.length) {
      const grown = new Float64Array(this.numbers.length * 2);
      grown.set(this.numbers);
      this.numbers = grown;
    }
    const numbers = this.numbers;
    numbers[at + AT.bytes] = outcome.bytes;
    numbers[at + AT.intendedStartUs] = context.intendedStartUs;
    numbers[at + AT.readyUs] = outcome.readyUs;
    numbers[at + AT.sentUs] = outcome.sentUs;
    numbers[at + AT.headersUs] = outcome.headersUs;
    numbers[at + AT.firstByteUs] = outcome.firstByteUs;
    numbers[at + AT.endUs] = outcome.endUs;
    numbers[at + AT.connectUs] = outcome.connectUs ?? 0;
    numbers[at + AT.bodySentUs] = outcome.bodySentUs ?? outcome.sentUs;
    numbers[at + AT.status] = outcome.status;
    numbers[at + AT.attempt] = attempt;
    numbers[at + AT.replica] = replica;
    numbers[at + AT.winner] = winner ? 1 : 0;
    numbers[at + AT.phaseIndex] = context.phaseIndex;
    numbers[at + AT.client] = context.client;
    numbers[at + AT.measured] = context.measured ? 1 : 0;
    this.ops.push(context.op);
    this.keys.push(context.key);
    this.errors.push(outcome.error);
  }

  /** The records since the last take; the numbers' buffer then belongs to the batch. */
  take(): RecordBatch {
    const count = this.ops.length;
    const batch: RecordBatch = {
      numbers: this.numbers.subarray(0, count * STRIDE),
      ops: this.ops,
      keys: this.keys,
      errors: this.errors,
    };
    this.numbers = new Float64Array(Math.max(FIRST_CAPACITY_RECORDS, count) * STRIDE);
    this.ops = [];
    this.keys = [];
    this.errors = [];
    return batch;
  }
}

/** The batch's records as objects, in the order they were added. */
export function recordsOf({ numbers, ops, keys, errors }: RecordBatch): RequestRecord[] {
  const records: RequestRecord[] = [];
  for (let index = 0; index < ops.length; index++) {
    const at = index * STRIDE;
    const field = (name: NumberField) => numbers[at + AT[name]] as number;
    records.push({
      op: ops[index] as Operation,
      key: keys[index] as string,
      bytes: field("bytes"),
      intendedStartUs: field("intendedStartUs"),
      readyUs: field("readyUs"),
      sentUs: field("sentUs"),
      headersUs: field("headersUs"),
      firstByteUs: field("firstByteUs"),
      endUs: field("endUs"),
      connectUs: field("connectUs"),
      bodySentUs: field("bodySentUs"),
      status: field("status"),
      error: errors[index] ?? null,
      attempt: field("attempt"),
      replica: field("replica"),
      winner: field("winner") === 1,
      phaseIndex: field("phaseIndex"),
      client: field("client"),
      measured: field("measured") === 1,
    });
  }
  return records;
}
