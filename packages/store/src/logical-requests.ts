import type { AttemptTimeline, LogicalRequest } from "@taillab/core";
import { attemptAt, OPERATIONS, TEXT_KEY_FLAG, type RecordColumns } from "./record-columns.ts";

/**
 * A run's records as the logical requests the engine folded: an attempt 1 and the attempts right
 * after it of the same point, operation, key, phase and client (its backups). Records are read
 * in batches; each request is handed over once the next one begins, the last one by `flush`.
 */
export class LogicalRequestReader {
  private readonly onRequest: (pointIndex: number, request: LogicalRequest) => void;
  private pending: { pointIndex: number; key: number; request: LogicalRequest } | null = null;

  constructor(onRequest: (pointIndex: number, request: LogicalRequest) => void) {
    this.onRequest = onRequest;
  }

  add(batch: RecordColumns): void {
    for (let row = 0; row < batch.count; row += 1) {
      const pointIndex = batch.pointIndex[row] ?? 0;
      const op = OPERATIONS[batch.op[row] ?? 0] ?? "PUT";
      const keyNumber = batch.keyNumber[row] ?? 0;
      const key = keyNumber >= TEXT_KEY_FLAG ? -1 - (keyNumber - TEXT_KEY_FLAG) : keyNumber;
      const phaseIndex = batch.phaseIndex[row] ?? 0;
      const client = batch.client[row] ?? 0;
      const attempt = attemptAt(batch, row);
      const pending = this.pending;
      const continues =
        pending !== null &&
        (batch.attempt[row] ?? 1) > 1 &&
        pending.pointIndex === pointIndex &&
        pending.request.op === op &&
        pending.key === key &&
        pending.request.phaseIndex === phaseIndex &&
        pending.request.client === client;
      if (continues) {
        const attempts = pending.request.attempts as AttemptTimeline[];
        if (batch.winner[row] === 1) pending.request.winner = attempts.length;
        attempts.push(attempt);
        continue;
      }
      this.flush();
      this.pending = {
        pointIndex,
        key,
        request: {
          op,
          intendedStartUs: batch.intendedStartUs[row] ?? 0,
          phaseIndex,
          client,
          measured: batch.measured[row] === 1,
          attempts: [attempt],
          winner: batch.winner[row] === 1 ? 0 : null,
        },
      };
    }
  }

  /** Hands over the request still open (the last of the records so far). */
  flush(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.onRequest(pending.pointIndex, pending.request);
  }
}
