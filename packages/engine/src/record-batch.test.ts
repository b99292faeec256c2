import type { RequestRecord } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { RecordBatchWriter, recordsOf } from "./record-batch.ts";
import type { RequestOutcome } from "./transport/object-transport.ts";

function recordNumber(index: number): RequestRecord {
  return {
    op: index % 2 === 0 ? "GET" : "PUT",
    key: `run/${index}`,
    bytes: 4096 + index,
    // Past 2^32, as a run clock in µs is after 72 minutes.
    intendedStartUs: 5_000_000_000 + index,
    readyUs: 5_000_000_010 + index,
    sentUs: 5_000_000_020 + index,
    headersUs: 5_000_000_030 + index,
    firstByteUs: 5_000_000_040 + index,
    endUs: 5_000_000_050 + index,
    connectUs: index % 3,
    bodySentUs: 5_000_000_025 + index,
    status: index % 5 === 0 ? 503 : 200,
    error: index % 5 === 0 ? "SlowDown" : null,
    attempt: 1 + (index % 2),
    replica: index % 3,
    winner: index % 5 !== 0,
    phaseIndex: 7,
    client: index % 64,
    measured: index % 7 !== 0,
  };
}

function outcomeOf(record: RequestRecord): RequestOutcome {
  const { readyUs, sentUs, headersUs, firstByteUs, endUs, status, error, bytes } = record;
  return {
    readyUs,
    sentUs,
    headersUs,
    firstByteUs,
    endUs,
    status,
    error,
    bytes,
    connectUs: record.connectUs ?? 0,
    bodySentUs: record.bodySentUs ?? sentUs,
  };
}

describe("a record batch", () => {
  it("gives back every record as it was added, in order, past its first capacity", () => {
    const writer = new RecordBatchWriter();
    const records = Array.from({ length: 1000 }, (_, index) => recordNumber(index));
    for (const record of records) {
      const { op, key, intendedStartUs, phaseIndex, client, measured, attempt, replica } = record;
      writer.add(
        { op, key, intendedStartUs, phaseIndex, client, measured },
        attempt,
        replica,
        outcomeOf(record),
        record.winner,
      );
    }
    expect(writer.size).toBe(1000);
    expect(recordsOf(writer.take())).toEqual(records);
    expect(writer.size).toBe(0);
  });

  it("records a missing connect as 0 and a missing upload end at the send", () => {
    const writer = new RecordBatchWriter();
    const { readyUs, sentUs, headersUs, firstByteUs, endUs, status, error, bytes } =
      recordNumber(1);
    const outcome: RequestOutcome = {
      readyUs,
      sentUs,
      headersUs,
      firstByteUs,
      endUs,
      status,
      error,
      bytes,
    };
    writer.add(
      { op: "GET", key: "k", intendedStartUs: 0, phaseIndex: 0, client: 0, measured: true },
      1,
      0,
      outcome,
      true,
    );
    const [record] = recordsOf(writer.take());
    expect(record?.connectUs).toBe(0);
    expect(record?.bodySentUs).toBe(outcome.sentUs);
  });

  it("hands its numbers over in a buffer of their own, so a transfer leaves the writer whole", () => {
    const writer = new RecordBatchWriter();
    const record = recordNumber(2);
    const context = { ...record };
    writer.add(context, 1, 0, outcomeOf(record), true);
    const first = writer.take();
    structuredClone(first, { transfer: [first.numbers.buffer] });
    writer.add(context, 1, 0, outcomeOf(record), true);
    expect(recordsOf(writer.take())).toEqual([{ ...record, attempt: 1, replica: 0 }]);
  });
});
