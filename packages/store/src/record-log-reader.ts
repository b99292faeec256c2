import { open, readFile, type FileHandle } from "node:fs/promises";
import {
  allocateRecordArrays,
  fillUnrecordedSlices,
  fillVersion1Columns,
  layoutOfVersion,
  recordsSlices,
  type ColumnSlot,
  type RecordArrays,
  type RecordColumns,
} from "./record-columns.ts";
import {
  assertLittleEndian,
  checkLogHeader,
  decodeDictionaryPayload,
  DICTIONARY_ERROR_CODES,
  DICTIONARY_KEYS,
  FRAME_DICTIONARY,
  FRAME_HEADER_BYTES,
  FRAME_RECORDS,
  frameAt,
  LOG_HEADER_BYTES,
  readFrameHeader,
  RECORDS_HEADER_BYTES,
  recordsInPayload,
  verifyFrame,
} from "./record-log-format.ts";

/**
 * Reading records.log. A log ends at its first frame that is cut short, fails its checksum or
 * does not make sense (a crash mid-write, a power cut): everything before it is returned, the
 * rest ignored, and reading never throws for it. Only a file that is not a records log at all,
 * or one from a newer TailLab, is an error.
 */

interface Dictionaries {
  errorCodes: (string | null)[];
  textKeys: string[];
}

function emptyDictionaries(): Dictionaries {
  return { errorCodes: [null], textKeys: [] };
}

/** False when the frame does not continue the dictionaries (it ends the log). */
function applyDictionaryFrame(dictionaries: Dictionaries, payload: Buffer): boolean {
  const entries = decodeDictionaryPayload(payload);
  if (!entries) return false;
  const target =
    entries.kind === DICTIONARY_ERROR_CODES
      ? dictionaries.errorCodes
      : entries.kind === DICTIONARY_KEYS
        ? dictionaries.textKeys
        : null;
  if (target === null) return true;
  if (entries.firstId !== target.length) return false;
  // One by one: a frame may hold more strings than a call can take arguments.
  for (const text of entries.strings) target.push(text);
  return true;
}

/** Copies a records payload's columns (of a log's format version) into `target` from `row` on. */
function copyColumns(
  payload: Buffer,
  count: number,
  version: number,
  target: RecordArrays,
  row: number,
): void {
  let at = RECORDS_HEADER_BYTES;
  for (const { name, bytesPerElement } of layoutOfVersion(version)) {
    const column = target[name];
    const length = count * bytesPerElement;
    const destination = new Uint8Array(
      column.buffer,
      column.byteOffset + row * bytesPerElement,
      length,
    );
    destination.set(payload.subarray(at, at + length));
    at += length;
  }
  if (version === 1) fillVersion1Columns(target, row, count);
  if (!recordsSlices(version)) fillUnrecordedSlices(target, row, count);
}

/** The log's format version, or null for a log whose creation was cut short (empty). */
function checkHeader(bytes: Uint8Array, where: string): number | null {
  const check = checkLogHeader(bytes);
  if (check.ok) return check.version;
  if (check.empty) return null;
  throw new Error(`${where}: ${check.reason}`);
}

/** Every record of a log held in memory, as columns. */
export function decodeRecordLog(bytes: Buffer, keyPrefix: string, where: string): RecordColumns {
  assertLittleEndian();
  const dictionaries = emptyDictionaries();
  const batches: { payload: Buffer; count: number }[] = [];
  let total = 0;
  const version = checkHeader(bytes, where);
  const layout: readonly ColumnSlot[] = layoutOfVersion(version ?? 0);
  if (version !== null) {
    for (let offset = LOG_HEADER_BYTES; ;) {
      const frame = frameAt(bytes, offset);
      if (!frame) break;
      if (frame.type === FRAME_DICTIONARY && !applyDictionaryFrame(dictionaries, frame.payload)) {
        break;
      }
      if (frame.type === FRAME_RECORDS) {
        const count = recordsInPayload(frame.payload, layout);
        if (count === null) break;
        batches.push({ payload: frame.payload, count });
        total += count;
      }
      offset = frame.end;
    }
  }
  const arrays = allocateRecordArrays(total);
  let row = 0;
  for (const { payload, count } of batches) {
    copyColumns(payload, count, version ?? 0, arrays, row);
    row += count;
  }
  return {
    count: total,
    keyPrefix,
    slicesRecorded: version === null || recordsSlices(version),
    ...dictionaries,
    ...arrays,
  };
}

export async function loadRecordLog(
  path: string,
  keyPrefix: string,
  where: string,
): Promise<RecordColumns> {
  return decodeRecordLog(await readFile(path), keyPrefix, where);
}

/** How much of a log a reader could use: its frames up to the first that ends the log. */
export interface LogExtent {
  /** Records in the readable frames. */
  records: number;
  /** Bytes after the last readable frame (cut short, garbage, or frames after those). */
  skippedBytes: number;
}

/**
 * The log frame by frame, one RecordColumns per records frame, without holding the whole file:
 * for exports and summaries of runs too big to want in memory twice. The dictionaries grow as
 * later frames add to them, so a batch stays valid after the next one is read. `extent`, when
 * given, is kept up to date with what was read and what is left over.
 */
export async function* readRecordBatches(
  path: string,
  keyPrefix: string,
  where: string,
  extent: LogExtent = { records: 0, skippedBytes: 0 },
): AsyncGenerator<RecordColumns> {
  for await (const { payload, count, version, dictionaries } of readableFrames(
    path,
    where,
    extent,
  )) {
    if (count === 0) continue;
    const arrays = allocateRecordArrays(count);
    copyColumns(payload, count, version, arrays, 0);
    yield { count, keyPrefix, slicesRecorded: recordsSlices(version), ...dictionaries, ...arrays };
  }
}

interface ReadableFrame {
  /** Valid until the next frame is read: the buffer is reused. */
  payload: Buffer;
  /** Records in a records frame; 0 for a dictionary frame. */
  count: number;
  version: number;
  dictionaries: Dictionaries;
}

/**
 * Each frame of a log a reader can use, in order, checked as it is read. One buffer, grown to
 * the largest frame, takes every frame: checking a long run's log for its record count (as the
 * index does when a run ends) once read a buffer per frame and decoded its columns, and a run of
 * 300 000 requests briefly held 44 MB more for it.
 */
async function* readableFrames(
  path: string,
  where: string,
  extent: LogExtent,
): AsyncGenerator<ReadableFrame> {
  assertLittleEndian();
  const file = await open(path, "r");
  try {
    const size = (await file.stat()).size;
    extent.skippedBytes = size;
    const version = checkHeader(await readAt(file, 0, Math.min(size, LOG_HEADER_BYTES)), where);
    if (version === null) {
      // A header cut short: the log's creation was, and nothing was lost.
      extent.skippedBytes = 0;
      return;
    }
    extent.skippedBytes = size - LOG_HEADER_BYTES;
    const layout = layoutOfVersion(version);
    const dictionaries = emptyDictionaries();
    let buffer = Buffer.allocUnsafe(0);
    for (let offset = LOG_HEADER_BYTES; offset + FRAME_HEADER_BYTES <= size;) {
      const header = await readAt(file, offset, FRAME_HEADER_BYTES);
      if (header.length < FRAME_HEADER_BYTES) return;
      const { type, payloadLength } = readFrameHeader(header);
      const end = offset + FRAME_HEADER_BYTES + payloadLength;
      if (end > size) return;
      if (buffer.length < payloadLength) buffer = Buffer.allocUnsafe(payloadLength);
      const payload = await readAt(file, offset + FRAME_HEADER_BYTES, payloadLength, buffer);
      if (payload.length < payloadLength || !verifyFrame(header, payload)) return;
      if (type === FRAME_DICTIONARY && !applyDictionaryFrame(dictionaries, payload)) return;
      const count = type === FRAME_RECORDS ? recordsInPayload(payload, layout) : 0;
      if (count === null) return;
      extent.records += count;
      extent.skippedBytes = size - end;
      offset = end;
      yield { payload, count, version, dictionaries };
    }
  } finally {
    await file.close();
  }
}

/**
 * The records in a log and the bytes after its last readable frame. `verify: false` reads only
 * frame headers (a few bytes per frame), which is exact for a log whose writer closed it cleanly
 * or is still writing it; `verify: true` checks every frame as a reader would, for a log that may
 * have been cut short or damaged since.
 */
export async function countLogRecords(
  path: string,
  where: string,
  { verify }: { verify: boolean },
): Promise<LogExtent> {
  if (verify) {
    const extent: LogExtent = { records: 0, skippedBytes: 0 };
    for await (const frame of readableFrames(path, where, extent)) void frame;
    return extent;
  }
  const file = await open(path, "r");
  try {
    const size = (await file.stat()).size;
    if (checkHeader(await readAt(file, 0, Math.min(size, LOG_HEADER_BYTES)), where) === null) {
      return { records: 0, skippedBytes: 0 };
    }
    let count = 0;
    let offset = LOG_HEADER_BYTES;
    const frameStart = FRAME_HEADER_BYTES + RECORDS_HEADER_BYTES;
    while (offset + FRAME_HEADER_BYTES <= size) {
      const head = await readAt(file, offset, Math.min(frameStart, size - offset));
      if (head.length < FRAME_HEADER_BYTES) break;
      const { type, payloadLength } = readFrameHeader(head);
      const end = offset + FRAME_HEADER_BYTES + payloadLength;
      if (end > size || type === 0) break;
      if (type === FRAME_RECORDS) {
        if (head.length < frameStart) break;
        count += head.readUInt32LE(FRAME_HEADER_BYTES);
      }
      offset = end;
    }
    return { records: count, skippedBytes: size - offset };
  } finally {
    await file.close();
  }
}

/** `length` bytes at `position`, into `into` when given (at least `length` long). */
async function readAt(
  file: FileHandle,
  position: number,
  length: number,
  into?: Buffer,
): Promise<Buffer> {
  const buffer = into ? into.subarray(0, length) : Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) return buffer.subarray(0, done);
    done += bytesRead;
  }
  return buffer;
}
