/**
 * How far this machine's clock is from the storage server's, from an HTTP Date header (pure).
 * Shards agree on an absolute start time, so a shard whose clock is off starts off by as much.
 */

/** One response's Date header and when its request left and its answer came, in epoch ms. */
export interface ServerDateSample {
  dateHeader: string;
  sentAtMs: number;
  receivedAtMs: number;
}

export interface ClockOffset {
  /** Server minus local, the middle of what the sample allows. */
  offsetMs: number;
  /** The offset is within offsetMs ± boundMs. */
  boundMs: number;
}

/**
 * The Date header has whole seconds, so the server's clock read somewhere in
 * [date, date + 1 s) while the request was in flight: the offset lies in
 * [date - receivedAt, date + 1 s - sentAt]. Null when the header is missing or not a date.
 */
export function clockOffset(sample: ServerDateSample): ClockOffset | null {
  const dateMs = Date.parse(sample.dateHeader);
  if (!Number.isFinite(dateMs)) return null;
  const lowMs = dateMs - sample.receivedAtMs;
  const highMs = dateMs + 1_000 - sample.sentAtMs;
  return { offsetMs: (lowMs + highMs) / 2, boundMs: (highMs - lowMs) / 2 };
}

/**
 * What several samples allow together: the part of their ranges they share. Samples that
 * contradict each other (a clock stepped between them) leave the latest one's range.
 */
export function combinedClockOffset(offsets: readonly ClockOffset[]): ClockOffset | null {
  const latest = offsets.at(-1);
  if (latest === undefined) return null;
  const lowMs = Math.max(...offsets.map(({ offsetMs, boundMs }) => offsetMs - boundMs));
  const highMs = Math.min(...offsets.map(({ offsetMs, boundMs }) => offsetMs + boundMs));
  if (lowMs > highMs) return latest;
  return { offsetMs: (lowMs + highMs) / 2, boundMs: (highMs - lowMs) / 2 };
}

/**
 * When to send the next look at the server's clock (local epoch ms, not before nowMs): so it
 * reaches the server as the server's clock turns a second, if the offset is the middle of its
 * range. Its Date then tells which half of the range the offset is in: each look halves it, down
 * to about the round trip.
 */
export function nextProbeAtMs(offset: ClockOffset, nowMs: number, roundTripMs: number): number {
  const arrivesMs = nowMs + roundTripMs / 2;
  const serverSecondMs = Math.ceil((arrivesMs + offset.offsetMs) / 1000) * 1000;
  return Math.max(nowMs, serverSecondMs - offset.offsetMs - roundTripMs / 2);
}
