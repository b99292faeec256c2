import { allocateRecordArrays, layoutOfVersion, type RecordArrays } from "../record-columns.ts";
import {
  FRAME_HEADER_BYTES,
  FRAME_RECORDS,
  LOG_HEADER_BYTES,
  LOG_MAGIC,
  RECORDS_HEADER_BYTES,
  sealFrame,
} from "../record-log-format.ts";

/** A records log of an older format version: one frame of `rows`, laid out as that version did. */
export function olderLog(
  version: number,
  rows: Partial<Record<keyof RecordArrays, number>>[],
): Buffer {
  const header = Buffer.alloc(LOG_HEADER_BYTES);
  header.write(LOG_MAGIC, 0, "latin1");
  header.writeUInt32LE(version, 8);
  const arrays = allocateRecordArrays(rows.length);
  rows.forEach((row, index) => {
    for (const [name, value] of Object.entries(row)) {
      (arrays[name as keyof RecordArrays] as Float64Array)[index] = value;
    }
  });
  const columnBytes = layoutOfVersion(version).map(({ name, bytesPerElement }) => {
    const column = arrays[name];
    return Buffer.from(column.buffer, column.byteOffset, rows.length * bytesPerElement);
  });
  const payloadBytes = columnBytes.reduce((sum, bytes) => sum + bytes.length, RECORDS_HEADER_BYTES);
  const frame = Buffer.alloc(FRAME_HEADER_BYTES + payloadBytes);
  frame.writeUInt32LE(rows.length, FRAME_HEADER_BYTES);
  let at = FRAME_HEADER_BYTES + RECORDS_HEADER_BYTES;
  for (const bytes of columnBytes) at += bytes.copy(frame, at);
  return Buffer.concat([header, sealFrame(frame, FRAME_RECORDS)]);
}
