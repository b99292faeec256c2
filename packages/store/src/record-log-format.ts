import { endianness } from "node:os";
import { crc32 } from "node:zlib";
import { recordBytesOf, type ColumnSlot } from "./record-columns.ts";

/**
 * records.log: a 16-byte header, then frames appended one after another and never rewritten.
 *
 *   header: "TLRECLOG" (8 bytes), format version u32, reserved u32 (0)
 *   frame:  type u8, payload length u32, CRC-32 u32 (of type, length and payload), payload
 *
 * Integers are little-endian. A frame that is cut short or fails its CRC (a crash mid-write) ends
 * the log: readers keep every frame before it and ignore the rest.
 *
 * Dictionary frame payload: kind u8 (1 error codes, 2 keys), first id u32, count u32, then per
 * string its UTF-8 length u16 and bytes. Ids are dense and in order, so a reader checks that the
 * first id is the next one it expects.
 *
 * Records frame payload: count u32, reserved u32, then the format version's columns (see
 * record-columns.ts: COLUMN_LAYOUT for version 3, COLUMN_LAYOUT_V2 and COLUMN_LAYOUT_V1 for the
 * versions before) one after
 * another (all of column 1, all of column 2, …), widest first, so each column is 8-byte-aligned
 * within the payload and loads with one copy.
 */

export const LOG_MAGIC = "TLRECLOG";
export const LOG_FORMAT_VERSION = 3;
export const LOG_HEADER_BYTES = 16;
export const FRAME_HEADER_BYTES = 9;
export const FRAME_DICTIONARY = 1;
export const FRAME_RECORDS = 2;
export const DICTIONARY_ERROR_CODES = 1;
export const DICTIONARY_KEYS = 2;
export const DICTIONARY_HEADER_BYTES = 9;
export const RECORDS_HEADER_BYTES = 8;

/** Typed arrays use the CPU's byte order; the log is little-endian, as every supported CPU is. */
export function assertLittleEndian(): void {
  if (endianness() !== "LE") {
    throw new Error("the TailLab records log needs a little-endian CPU (x64 or arm64)");
  }
}

export function encodeLogHeader(): Buffer {
  const header = Buffer.alloc(LOG_HEADER_BYTES);
  header.write(LOG_MAGIC, 0, "latin1");
  header.writeUInt32LE(LOG_FORMAT_VERSION, 8);
  return header;
}

export type LogHeaderCheck =
  | { ok: true; version: number }
  /** Shorter than a header but a prefix of one: a log whose creation was cut short. Empty. */
  | { ok: false; empty: true }
  | { ok: false; empty: false; reason: string };

export function checkLogHeader(bytes: Uint8Array): LogHeaderCheck {
  const expected = encodeLogHeader();
  if (bytes.length < LOG_HEADER_BYTES) {
    const isPrefix = Buffer.from(bytes).equals(expected.subarray(0, bytes.length));
    return isPrefix
      ? { ok: false, empty: true }
      : { ok: false, empty: false, reason: "it is not a TailLab records log" };
  }
  const header = Buffer.from(bytes.buffer, bytes.byteOffset, LOG_HEADER_BYTES);
  if (header.toString("latin1", 0, 8) !== LOG_MAGIC) {
    return { ok: false, empty: false, reason: "it is not a TailLab records log" };
  }
  const version = header.readUInt32LE(8);
  if (version > LOG_FORMAT_VERSION) {
    return {
      ok: false,
      empty: false,
      reason: `it has records format version ${version}, newer than this TailLab reads (${LOG_FORMAT_VERSION}); update TailLab to open it`,
    };
  }
  return { ok: true, version };
}

function frameChecksum(header: Uint8Array, payload: Uint8Array): number {
  return crc32(payload, crc32(header.subarray(0, 5)));
}

/** Fills in the 9-byte header of a frame whose payload already sits right after it. */
export function sealFrame(frame: Buffer, type: number): Buffer {
  const payload = frame.subarray(FRAME_HEADER_BYTES);
  frame.writeUInt8(type, 0);
  frame.writeUInt32LE(payload.length, 1);
  frame.writeUInt32LE(frameChecksum(frame, payload), 5);
  return frame;
}

export interface FrameView {
  type: number;
  payload: Buffer;
  /** Offset just past the frame. */
  end: number;
}

/** Only the header: enough to walk a log without reading payloads. */
export interface FrameHeader {
  type: number;
  payloadLength: number;
  checksum: number;
}

export function readFrameHeader(bytes: Uint8Array): FrameHeader {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, FRAME_HEADER_BYTES);
  return {
    type: view.readUInt8(0),
    payloadLength: view.readUInt32LE(1),
    checksum: view.readUInt32LE(5),
  };
}

/** The frame at `offset`, or null when it is cut short or fails its checksum. */
export function frameAt(bytes: Buffer, offset: number): FrameView | null {
  if (offset + FRAME_HEADER_BYTES > bytes.length) return null;
  const header = bytes.subarray(offset, offset + FRAME_HEADER_BYTES);
  const { type, payloadLength, checksum } = readFrameHeader(header);
  const end = offset + FRAME_HEADER_BYTES + payloadLength;
  if (end > bytes.length) return null;
  const payload = bytes.subarray(offset + FRAME_HEADER_BYTES, end);
  if (frameChecksum(header, payload) !== checksum) return null;
  return { type, payload, end };
}

export function verifyFrame(header: Uint8Array, payload: Uint8Array): boolean {
  return frameChecksum(header, payload) === readFrameHeader(header).checksum;
}

/** Records in a records frame, or null when the payload's size does not match its count. */
export function recordsInPayload(
  payload: Uint8Array,
  layout: readonly ColumnSlot[],
): number | null {
  if (payload.length < RECORDS_HEADER_BYTES) return null;
  const count = Buffer.from(payload.buffer, payload.byteOffset, 4).readUInt32LE(0);
  return payload.length === RECORDS_HEADER_BYTES + count * recordBytesOf(layout) ? count : null;
}

export function encodeDictionaryFrame(kind: number, firstId: number, strings: string[]): Buffer {
  const encoded = strings.map((text) => Buffer.from(text, "utf8"));
  const size = encoded.reduce((sum, bytes) => sum + 2 + bytes.length, DICTIONARY_HEADER_BYTES);
  const frame = Buffer.alloc(FRAME_HEADER_BYTES + size);
  let at = FRAME_HEADER_BYTES;
  at = frame.writeUInt8(kind, at);
  at = frame.writeUInt32LE(firstId, at);
  at = frame.writeUInt32LE(strings.length, at);
  for (const bytes of encoded) {
    at = frame.writeUInt16LE(bytes.length, at);
    at += bytes.copy(frame, at);
  }
  return sealFrame(frame, FRAME_DICTIONARY);
}

export interface DictionaryEntries {
  kind: number;
  firstId: number;
  strings: string[];
}

export function decodeDictionaryPayload(payload: Buffer): DictionaryEntries | null {
  if (payload.length < DICTIONARY_HEADER_BYTES) return null;
  const kind = payload.readUInt8(0);
  const firstId = payload.readUInt32LE(1);
  const count = payload.readUInt32LE(5);
  const strings: string[] = [];
  let at = DICTIONARY_HEADER_BYTES;
  for (let index = 0; index < count; index += 1) {
    if (at + 2 > payload.length) return null;
    const length = payload.readUInt16LE(at);
    at += 2;
    if (at + length > payload.length) return null;
    strings.push(payload.toString("utf8", at, at + length));
    at += length;
  }
  return at === payload.length ? { kind, firstId, strings } : null;
}
