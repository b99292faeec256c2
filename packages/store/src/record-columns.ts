import { OperationSchema, type Operation, type RequestRecord } from "@taillab/api";
import type { AttemptTimeline } from "@taillab/core";

/** Operation codes in the records log and in `RecordColumns.op`. */
export const OPERATIONS: readonly Operation[] = OperationSchema.options;

/** Histograms in the order a run folder keeps them: by point, then by operation code. */
export function byPointThenOp(
  a: { pointIndex: number; op: Operation },
  b: { pointIndex: number; op: Operation },
): number {
  return a.pointIndex - b.pointIndex || OPERATIONS.indexOf(a.op) - OPERATIONS.indexOf(b.op);
}

/**
 * A key that is not `<keyPrefix><number>` is kept as text: its keyNumber has this bit set and
 * the rest is its index in `textKeys`.
 */
export const TEXT_KEY_FLAG = 0x8000_0000;

/** One typed array per field of RequestRecord (plus the run point), all `count` long. */
export interface RecordArrays {
  pointIndex: Uint16Array;
  /** Index into OPERATIONS. */
  op: Uint8Array;
  /** The number after the run's keyPrefix, or TEXT_KEY_FLAG | index into textKeys. */
  keyNumber: Uint32Array;
  bytes: Float64Array;
  intendedStartUs: Float64Array;
  readyUs: Float64Array;
  sentUs: Float64Array;
  headersUs: Float64Array;
  firstByteUs: Float64Array;
  endUs: Float64Array;
  bodySentUs: Float64Array;
  connectUs: Uint32Array;
  client: Uint32Array;
  phaseIndex: Uint16Array;
  status: Uint16Array;
  /** Index into errorCodes; 0 is no error. */
  errorId: Uint16Array;
  attempt: Uint8Array;
  replica: Uint8Array;
  /** 1 for the winning attempt, else 0. */
  winner: Uint8Array;
  /** 1 for a measured request, else 0. */
  measured: Uint8Array;
}

/**
 * A run's records, column by column, for charts: a million records are a few typed arrays, not
 * a million objects, and they cross a worker or IPC boundary as they are. `recordAt` rebuilds
 * one RequestRecord when a row is needed (CSV export, a tooltip).
 */
export interface RecordColumns extends RecordArrays {
  count: number;
  /**
   * False for records of a log written before connects and uploads were recorded (format
   * version < 3): their connectUs read as 0 and bodySentUs as sentUs, which is not a measurement.
   */
  slicesRecorded: boolean;
  keyPrefix: string;
  /** errorCodes[errorId[i]]; errorCodes[0] is null (no error). */
  errorCodes: (string | null)[];
  textKeys: string[];
}

export interface ColumnSlot {
  name: keyof RecordArrays;
  bytesPerElement: 1 | 2 | 4 | 8;
}

/**
 * Column order in a records frame of the current format (version 3): widest first, so every
 * column can be a typed-array view.
 */
export const COLUMN_LAYOUT: readonly ColumnSlot[] = [
  { name: "bytes", bytesPerElement: 8 },
  { name: "intendedStartUs", bytesPerElement: 8 },
  { name: "readyUs", bytesPerElement: 8 },
  { name: "sentUs", bytesPerElement: 8 },
  { name: "bodySentUs", bytesPerElement: 8 },
  { name: "headersUs", bytesPerElement: 8 },
  { name: "firstByteUs", bytesPerElement: 8 },
  { name: "endUs", bytesPerElement: 8 },
  { name: "keyNumber", bytesPerElement: 4 },
  { name: "connectUs", bytesPerElement: 4 },
  { name: "client", bytesPerElement: 4 },
  { name: "pointIndex", bytesPerElement: 2 },
  { name: "phaseIndex", bytesPerElement: 2 },
  { name: "status", bytesPerElement: 2 },
  { name: "errorId", bytesPerElement: 2 },
  { name: "op", bytesPerElement: 1 },
  { name: "attempt", bytesPerElement: 1 },
  { name: "replica", bytesPerElement: 1 },
  { name: "winner", bytesPerElement: 1 },
  { name: "measured", bytesPerElement: 1 },
];

/**
 * Version 2's frames: version 3's columns without connectUs and bodySentUs, which
 * `fillUnrecordedSlices` fills. Written out, not derived from COLUMN_LAYOUT: a stored format must
 * not change when the current one does.
 */
export const COLUMN_LAYOUT_V2: readonly ColumnSlot[] = [
  { name: "bytes", bytesPerElement: 8 },
  { name: "intendedStartUs", bytesPerElement: 8 },
  { name: "readyUs", bytesPerElement: 8 },
  { name: "sentUs", bytesPerElement: 8 },
  { name: "headersUs", bytesPerElement: 8 },
  { name: "firstByteUs", bytesPerElement: 8 },
  { name: "endUs", bytesPerElement: 8 },
  { name: "keyNumber", bytesPerElement: 4 },
  { name: "client", bytesPerElement: 4 },
  { name: "pointIndex", bytesPerElement: 2 },
  { name: "phaseIndex", bytesPerElement: 2 },
  { name: "status", bytesPerElement: 2 },
  { name: "errorId", bytesPerElement: 2 },
  { name: "op", bytesPerElement: 1 },
  { name: "attempt", bytesPerElement: 1 },
  { name: "replica", bytesPerElement: 1 },
  { name: "winner", bytesPerElement: 1 },
  { name: "measured", bytesPerElement: 1 },
];

/**
 * Version 1's frames, read into version 2's arrays: its startUs (taken before signing) lands in
 * readyUs, its firstByteUs (the response headers') in firstByteUs; `fillVersion1Columns` fills
 * what it did not record.
 */
export const COLUMN_LAYOUT_V1: readonly ColumnSlot[] = [
  { name: "bytes", bytesPerElement: 8 },
  { name: "intendedStartUs", bytesPerElement: 8 },
  { name: "readyUs", bytesPerElement: 8 },
  { name: "firstByteUs", bytesPerElement: 8 },
  { name: "endUs", bytesPerElement: 8 },
  { name: "keyNumber", bytesPerElement: 4 },
  { name: "pointIndex", bytesPerElement: 2 },
  { name: "status", bytesPerElement: 2 },
  { name: "errorId", bytesPerElement: 2 },
  { name: "op", bytesPerElement: 1 },
  { name: "attempt", bytesPerElement: 1 },
  { name: "replica", bytesPerElement: 1 },
  { name: "winner", bytesPerElement: 1 },
];

/**
 * Rows `from` … `from + count - 1` of version-1 records: sent when they started, headers with
 * the first byte, every request measured (version 1 recorded only measured ones), one client,
 * and the point as the phase (its repetitions then read as one).
 */
export function fillVersion1Columns(arrays: RecordArrays, from: number, count: number): void {
  for (let row = from; row < from + count; row += 1) {
    arrays.sentUs[row] = arrays.readyUs[row] ?? 0;
    arrays.headersUs[row] = arrays.firstByteUs[row] ?? 0;
    arrays.phaseIndex[row] = arrays.pointIndex[row] ?? 0;
    arrays.measured[row] = 1;
  }
}

/**
 * Rows `from` … `from + count - 1` of records from before connects and uploads were recorded
 * (versions 1 and 2): no connect, and the body sent when the request was.
 */
export function fillUnrecordedSlices(arrays: RecordArrays, from: number, count: number): void {
  for (let row = from; row < from + count; row += 1) {
    arrays.connectUs[row] = 0;
    arrays.bodySentUs[row] = arrays.sentUs[row] ?? 0;
  }
}

/** Whether a log of this format version records connects and uploads. */
export function recordsSlices(version: number): boolean {
  return version >= 3;
}

export function layoutOfVersion(version: number): readonly ColumnSlot[] {
  if (version === 1) return COLUMN_LAYOUT_V1;
  return version === 2 ? COLUMN_LAYOUT_V2 : COLUMN_LAYOUT;
}

/** Bytes one record takes in a records frame of a format version. */
export function recordBytesOf(layout: readonly ColumnSlot[]): number {
  return layout.reduce((sum, column) => sum + column.bytesPerElement, 0);
}

export function allocateRecordArrays(count: number): RecordArrays {
  return {
    pointIndex: new Uint16Array(count),
    op: new Uint8Array(count),
    keyNumber: new Uint32Array(count),
    bytes: new Float64Array(count),
    intendedStartUs: new Float64Array(count),
    readyUs: new Float64Array(count),
    sentUs: new Float64Array(count),
    headersUs: new Float64Array(count),
    firstByteUs: new Float64Array(count),
    endUs: new Float64Array(count),
    bodySentUs: new Float64Array(count),
    connectUs: new Uint32Array(count),
    client: new Uint32Array(count),
    phaseIndex: new Uint16Array(count),
    status: new Uint16Array(count),
    errorId: new Uint16Array(count),
    attempt: new Uint8Array(count),
    replica: new Uint8Array(count),
    winner: new Uint8Array(count),
    measured: new Uint8Array(count),
  };
}

export function keyAt(columns: RecordColumns, index: number): string {
  const keyNumber = columns.keyNumber[index] ?? 0;
  if (keyNumber >= TEXT_KEY_FLAG) return columns.textKeys[keyNumber - TEXT_KEY_FLAG] ?? "";
  return `${columns.keyPrefix}${keyNumber}`;
}

export function errorAt(columns: RecordColumns, index: number): string | null {
  return columns.errorCodes[columns.errorId[index] ?? 0] ?? null;
}

/** One record's attempt: its timeline, bytes and outcome (what the accounting reads). */
export function attemptAt(columns: RecordColumns, index: number): AttemptTimeline {
  return {
    replica: columns.replica[index] ?? 0,
    readyUs: columns.readyUs[index] ?? 0,
    sentUs: columns.sentUs[index] ?? 0,
    headersUs: columns.headersUs[index] ?? 0,
    firstByteUs: columns.firstByteUs[index] ?? 0,
    endUs: columns.endUs[index] ?? 0,
    connectUs: columns.connectUs[index] ?? 0,
    bodySentUs: columns.bodySentUs[index] ?? 0,
    bytes: columns.bytes[index] ?? 0,
    error: errorAt(columns, index),
  };
}

export function recordAt(columns: RecordColumns, index: number): RequestRecord {
  return {
    ...attemptAt(columns, index),
    connectUs: columns.slicesRecorded ? (columns.connectUs[index] ?? 0) : null,
    bodySentUs: columns.slicesRecorded ? (columns.bodySentUs[index] ?? 0) : null,
    op: OPERATIONS[columns.op[index] ?? 0] ?? "PUT",
    key: keyAt(columns, index),
    intendedStartUs: columns.intendedStartUs[index] ?? 0,
    status: columns.status[index] ?? 0,
    attempt: columns.attempt[index] ?? 1,
    winner: columns.winner[index] === 1,
    phaseIndex: columns.phaseIndex[index] ?? 0,
    client: columns.client[index] ?? 0,
    measured: columns.measured[index] === 1,
  };
}
