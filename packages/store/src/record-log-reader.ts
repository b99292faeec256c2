import { open, readFile, type FileHandle } from "node:fs/promises";
import {
  allocateRecordArrays,
  COLUMN_LAYOUT,
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

/** Copies a records payload's columns into `target` from row `row` on. */
function copyColumns(payload: Buffer, count: number, target: RecordArrays, row: number): void {
  let at = RECORDS_HEADER_BYTES;
  for (const { name, bytesPerElement } of COLUMN_LAYOUT) {
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
}

function checkHeader(bytes: Uint8Array, where: string): boolean {
  const check = checkLogHeader(bytes);
  if (check.ok) return true;
  if (check.empty) return false;
  throw new Error(`${where}: ${check.reason}`);
}

/** Every record of a log held in memory, as columns. */
export function decodeRecordLog(bytes: Buffer, keyPrefix: string, where: string): RecordColumns {
  assertLittleEndian();
  const dictionaries = emptyDictionaries();
  const batches: { payload: Buffer; count: number }[] = [];
  let total = 0;
  if (checkHeader(bytes, where)) {
    for (let offset = LOG_HEADER_BYTES; ;) {
      const frame = frameAt(bytes, offset);
      if (!frame) break;
      if (frame.type === FRAME_DICTIONARY && !applyDictionaryFrame(dictionaries, frame.payload)) {
        break;
      }
      if (frame.type === FRAME_RECORDS) {
        const count = recordsInPayload(frame.payload);
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
    copyColumns(payload, count, arrays, row);
    row += count;
  }
  return { count: total, keyPrefix, ...dictionaries, ...arrays };
}

export async function loadRecordLog(
  path: string,
  keyPrefix: string,
  where: string,
): Promise<RecordColumns> {
  return decodeRecordLog(await readFile(path), keyPrefix, where);
}

/**
 * The log frame by frame, one RecordColumns per records frame, without holding the whole file:
 * for exports and summaries of runs too big to want in memory twice. The dictionaries grow as
 * later frames add to them, so a batch stays valid after the next one is read.
 */
export async function* readRecordBatches(
  path: string,
  keyPrefix: string,
  where: string,
): AsyncGenerator<RecordColumns> {
  assertLittleEndian();
  const file = await open(path, "r");
  try {
    const size = (await file.stat()).size;
    if (!checkHeader(await readAt(file, 0, Math.min(size, LOG_HEADER_BYTES)), where)) return;
    const dictionaries = emptyDictionaries();
    for (let offset = LOG_HEADER_BYTES; offset + FRAME_HEADER_BYTES <= size;) {
      const header = await readAt(file, offset, FRAME_HEADER_BYTES);
      if (header.length < FRAME_HEADER_BYTES) return;
      const { type, payloadLength } = readFrameHeader(header);
      const end = offset + FRAME_HEADER_BYTES + payloadLength;
      if (end > size) return;
      const payload = await readAt(file, offset + FRAME_HEADER_BYTES, payloadLength);
      if (payload.length < payloadLength || !verifyFrame(header, payload)) return;
      if (type === FRAME_DICTIONARY && !applyDictionaryFrame(dictionaries, payload)) return;
      if (type === FRAME_RECORDS) {
        const count = recordsInPayload(payload);
        if (count === null) return;
        const arrays = allocateRecordArrays(count);
        copyColumns(payload, count, arrays, 0);
        yield { count, keyPrefix, ...dictionaries, ...arrays };
      }
      offset = end;
    }
  } finally {
    await file.close();
  }
}

/**
 * Records in a log. `verify: false` reads only frame headers (a few bytes per frame), which is
 * exact for a log whose writer closed it cleanly; `verify: true` checks every checksum, for a log
 * whose writer died.
 */
export async function countLogRecords(
  path: string,
  where: string,
  { verify }: { verify: boolean },
): Promise<number> {
  if (verify) return (await loadRecordLog(path, "", where)).count;
  const file = await open(path, "r");
  try {
    const size = (await file.stat()).size;
    if (!checkHeader(await readAt(file, 0, Math.min(size, LOG_HEADER_BYTES)), where)) return 0;
    let count = 0;
    const frameStart = FRAME_HEADER_BYTES + RECORDS_HEADER_BYTES;
    for (let offset = LOG_HEADER_BYTES; offset + FRAME_HEADER_BYTES <= size;) {
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
    return count;
  } finally {
    await file.close();
  }
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) return buffer.subarray(0, done);
    done += bytesRead;
  }
  return buffer;
}
