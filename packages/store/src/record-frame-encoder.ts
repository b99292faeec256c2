import type { RequestRecord } from "@taillab/api";
import {
  allocateRecordArrays,
  COLUMN_LAYOUT,
  OPERATIONS,
  recordBytesOf,
  TEXT_KEY_FLAG,
  type RecordArrays,
} from "./record-columns.ts";
import {
  DICTIONARY_ERROR_CODES,
  DICTIONARY_KEYS,
  encodeDictionaryFrame,
  FRAME_HEADER_BYTES,
  FRAME_RECORDS,
  RECORDS_HEADER_BYTES,
  sealFrame,
} from "./record-log-format.ts";

const OPERATION_CODES = new Map(OPERATIONS.map((op, code) => [op, code]));
const RECORD_BYTES = recordBytesOf(COLUMN_LAYOUT);
const MAX_ERROR_CODES = 0xffff;
const MAX_UTF8_BYTES = 0xffff;
const INITIAL_CAPACITY = 1024;

/**
 * Turns RequestRecords into frames of the records log. Records wait in growable columns until
 * `takeFrames`, which returns the dictionary frames for strings first seen since the last call
 * followed by one records frame: the bytes of one append to the log.
 */
export class RecordFrameEncoder {
  private readonly keyPrefix: string;
  private readonly errorIds = new Map<string, number>();
  private readonly keyIds = new Map<string, number>();
  private newErrorCodes: string[] = [];
  private newKeys: string[] = [];
  private columns: RecordArrays = allocateRecordArrays(INITIAL_CAPACITY);
  private capacity = INITIAL_CAPACITY;
  private count = 0;

  constructor(keyPrefix: string) {
    this.keyPrefix = keyPrefix;
  }

  get pendingCount(): number {
    return this.count;
  }

  /** Throws a RangeError, before adding any of them, when a record does not fit the format. */
  add(pointIndex: number, records: readonly RequestRecord[]): void {
    checkRange("pointIndex", pointIndex, 0, 0xffff);
    for (const record of records) checkRecord(record);
    this.reserve(this.count + records.length);
    const columns = this.columns;
    let row = this.count;
    for (const record of records) {
      columns.pointIndex[row] = pointIndex;
      columns.op[row] = OPERATION_CODES.get(record.op) ?? 0;
      columns.keyNumber[row] = this.keyNumberOf(record.key);
      columns.bytes[row] = record.bytes;
      columns.intendedStartUs[row] = record.intendedStartUs;
      columns.readyUs[row] = record.readyUs;
      columns.sentUs[row] = record.sentUs;
      columns.headersUs[row] = record.headersUs;
      columns.firstByteUs[row] = record.firstByteUs;
      columns.endUs[row] = record.endUs;
      // A record of a run from before they were recorded (an imported one): as its log read them.
      columns.bodySentUs[row] = record.bodySentUs ?? record.sentUs;
      columns.connectUs[row] = record.connectUs ?? 0;
      columns.client[row] = record.client;
      columns.phaseIndex[row] = record.phaseIndex;
      columns.status[row] = record.status;
      columns.errorId[row] = record.error === null ? 0 : this.errorIdOf(record.error);
      columns.attempt[row] = record.attempt;
      columns.replica[row] = record.replica;
      columns.winner[row] = record.winner ? 1 : 0;
      columns.measured[row] = record.measured ? 1 : 0;
      row += 1;
    }
    this.count = row;
  }

  /** The frames for everything added since the last call, or null when nothing was. */
  takeFrames(): { bytes: Buffer; records: number } | null {
    if (this.count === 0) return null;
    const frames: Buffer[] = [];
    if (this.newErrorCodes.length > 0) {
      const firstId = this.errorIds.size - this.newErrorCodes.length + 1;
      frames.push(encodeDictionaryFrame(DICTIONARY_ERROR_CODES, firstId, this.newErrorCodes));
      this.newErrorCodes = [];
    }
    if (this.newKeys.length > 0) {
      const firstId = this.keyIds.size - this.newKeys.length;
      frames.push(encodeDictionaryFrame(DICTIONARY_KEYS, firstId, this.newKeys));
      this.newKeys = [];
    }
    frames.push(this.recordsFrame());
    const records = this.count;
    this.count = 0;
    return { bytes: frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames), records };
  }

  private recordsFrame(): Buffer {
    const count = this.count;
    const frame = Buffer.alloc(FRAME_HEADER_BYTES + RECORDS_HEADER_BYTES + count * RECORD_BYTES);
    frame.writeUInt32LE(count, FRAME_HEADER_BYTES);
    let at = FRAME_HEADER_BYTES + RECORDS_HEADER_BYTES;
    for (const { name, bytesPerElement } of COLUMN_LAYOUT) {
      const column = this.columns[name];
      const length = count * bytesPerElement;
      frame.set(new Uint8Array(column.buffer, column.byteOffset, length), at);
      at += length;
    }
    return sealFrame(frame, FRAME_RECORDS);
  }

  private reserve(needed: number): void {
    if (needed <= this.capacity) return;
    let capacity = this.capacity;
    while (capacity < needed) capacity *= 2;
    const grown = allocateRecordArrays(capacity);
    for (const { name } of COLUMN_LAYOUT) {
      (grown[name] as Uint8Array).set(this.columns[name].subarray(0, this.count) as Uint8Array);
    }
    this.columns = grown;
    this.capacity = capacity;
  }

  private keyNumberOf(key: string): number {
    const number = numberAfterPrefix(key, this.keyPrefix);
    if (number !== null) return number;
    let id = this.keyIds.get(key);
    if (id === undefined) {
      checkUtf8Length("key", key);
      id = this.keyIds.size;
      this.keyIds.set(key, id);
      this.newKeys.push(key);
    }
    return TEXT_KEY_FLAG + id;
  }

  private errorIdOf(code: string): number {
    let id = this.errorIds.get(code);
    if (id === undefined) {
      if (this.errorIds.size >= MAX_ERROR_CODES) {
        throw new RangeError(`a run can record at most ${MAX_ERROR_CODES} distinct error codes`);
      }
      checkUtf8Length("error code", code);
      id = this.errorIds.size + 1;
      this.errorIds.set(code, id);
      this.newErrorCodes.push(code);
    }
    return id;
  }
}

/** `<prefix>123` → 123; null when the rest is not a canonical number below TEXT_KEY_FLAG. */
export function numberAfterPrefix(key: string, prefix: string): number | null {
  if (!key.startsWith(prefix)) return null;
  const start = prefix.length;
  const digits = key.length - start;
  if (digits < 1 || digits > 10) return null;
  if (digits > 1 && key.charCodeAt(start) === 48) return null;
  let number = 0;
  for (let index = start; index < key.length; index += 1) {
    const digit = key.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return null;
    number = number * 10 + digit;
  }
  return number < TEXT_KEY_FLAG ? number : null;
}

function checkRecord(record: RequestRecord): void {
  if (!OPERATION_CODES.has(record.op)) {
    throw new RangeError(`record op must be one of ${OPERATIONS.join(", ")}, not ${record.op}`);
  }
  checkRange("status", record.status, 0, 0xffff);
  checkRange("attempt", record.attempt, 0, 0xff);
  checkRange("replica", record.replica, 0, 0xff);
  checkRange("phaseIndex", record.phaseIndex, 0, 0xffff);
  checkRange("client", record.client, 0, 0xffff_ffff);
  checkRange("connectUs", record.connectUs ?? 0, 0, 0xffff_ffff);
}

function checkRange(field: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`record ${field} ${value} does not fit the records log (${min}–${max})`);
  }
}

function checkUtf8Length(what: string, text: string): void {
  if (Buffer.byteLength(text, "utf8") > MAX_UTF8_BYTES) {
    throw new RangeError(`a ${what} longer than ${MAX_UTF8_BYTES} bytes cannot be recorded`);
  }
}
