/**
 * The open loop's one schedule, shared by the coordinator's pacer thread and every worker through
 * shared memory: the pacer computes request i's intended start (run µs), writes it in a ring and
 * releases the request when its moment comes; workers claim released requests in order, each
 * exactly once. So the requests of all workers together follow the one intended schedule (evenly
 * spaced, or one Poisson process), never W copies of a slower one started together.
 */

/** Slots of intended starts kept; the pacer never runs further than this ahead of the claims. */
export const SCHEDULE_RING_SLOTS = 1 << 16;

/** Int32 slots of `counters`. */
export const SCHEDULE = {
  /** Requests released so far: requests 0 … released − 1 may be sent. */
  released: 0,
  /** Requests claimed by a worker so far. */
  claimed: 1,
  /** 1 once the pacer will release no more (count reached, deadline passed, or stopped). */
  ended: 2,
  /** 1 when the run is stopped. */
  stop: 3,
  /**
   * Bumped (and notified) after every release, the end and a stop: workers wait on it, so a
   * change between their look at the counters and their wait cannot be missed.
   */
  generation: 4,
} as const;

export interface ScheduleBuffers {
  /** Int32Array over it, indexed by SCHEDULE. */
  counters: SharedArrayBuffer;
  /** Float64Array of SCHEDULE_RING_SLOTS intended starts: request i at i % SCHEDULE_RING_SLOTS. */
  intendedStarts: SharedArrayBuffer;
}

export function createScheduleBuffers(): ScheduleBuffers {
  return {
    counters: new SharedArrayBuffer(5 * Int32Array.BYTES_PER_ELEMENT),
    intendedStarts: new SharedArrayBuffer(SCHEDULE_RING_SLOTS * Float64Array.BYTES_PER_ELEMENT),
  };
}

/** A worker's side of the schedule: takes the next released request, if any. */
export class ScheduleClaims {
  private readonly counters: Int32Array;
  private readonly intendedStarts: Float64Array;

  constructor(buffers: ScheduleBuffers) {
    this.counters = new Int32Array(buffers.counters);
    this.intendedStarts = new Float64Array(buffers.intendedStarts);
  }

  /**
   * The next released request not yet claimed: its index and intended start, or null. The slot
   * is read before the claim: once claimed, it is free, and a pacer SCHEDULE_RING_SLOTS ahead
   * writes the start of the request that many later into it (17 of 3 M requests took that start
   * when the slot was read after the claim).
   */
  claim(): { index: number; intendedStartUs: number } | null {
    for (;;) {
      const claimed = Atomics.load(this.counters, SCHEDULE.claimed);
      if (claimed >= Atomics.load(this.counters, SCHEDULE.released)) return null;
      const intendedStartUs = this.intendedStarts[claimed % SCHEDULE_RING_SLOTS] as number;
      if (
        Atomics.compareExchange(this.counters, SCHEDULE.claimed, claimed, claimed + 1) === claimed
      ) {
        return { index: claimed, intendedStartUs };
      }
    }
  }

  /** True when every request the pacer will release has been claimed. */
  get exhausted(): boolean {
    return (
      Atomics.load(this.counters, SCHEDULE.ended) === 1 &&
      Atomics.load(this.counters, SCHEDULE.claimed) >=
        Atomics.load(this.counters, SCHEDULE.released)
    );
  }

  /**
   * Resolves when the pacer releases more, ends or is stopped, without blocking the event loop
   * (Atomics.waitAsync: the pacer's notify wakes one waiting worker per release).
   */
  async nextRelease(): Promise<void> {
    const generation = Atomics.load(this.counters, SCHEDULE.generation);
    if (
      Atomics.load(this.counters, SCHEDULE.claimed) < Atomics.load(this.counters, SCHEDULE.released)
    )
      return;
    if (Atomics.load(this.counters, SCHEDULE.ended) === 1) return;
    const wait = Atomics.waitAsync(this.counters, SCHEDULE.generation, generation);
    if (wait.async) await wait.value;
  }
}

/** The pacer's side of the schedule: a request's start goes in its slot, then it is released. */
export class ScheduleReleases {
  private readonly counters: Int32Array;
  private readonly intendedStarts: Float64Array;

  constructor(buffers: ScheduleBuffers) {
    this.counters = new Int32Array(buffers.counters);
    this.intendedStarts = new Float64Array(buffers.intendedStarts);
  }

  /** Whether request `index` has a slot: the one SCHEDULE_RING_SLOTS before it was claimed. */
  hasSlotFor(index: number): boolean {
    return index - Atomics.load(this.counters, SCHEDULE.claimed) < SCHEDULE_RING_SLOTS;
  }

  /** Writes request `index`'s intended start in its slot (it must have one). */
  write(index: number, intendedStartUs: number): void {
    this.intendedStarts[index % SCHEDULE_RING_SLOTS] = intendedStartUs;
  }

  /** Releases requests 0 … count − 1 and wakes one waiting worker. */
  release(count: number): void {
    Atomics.store(this.counters, SCHEDULE.released, count);
    Atomics.add(this.counters, SCHEDULE.generation, 1);
    Atomics.notify(this.counters, SCHEDULE.generation, 1);
  }

  /** No more releases: every waiting worker wakes and finds the schedule ended. */
  end(): void {
    Atomics.store(this.counters, SCHEDULE.ended, 1);
    announceToAll(this.counters);
  }
}

/** Marks a change every waiting worker must see (the end, a stop) and wakes them all. */
export function announceToAll(counters: Int32Array): void {
  Atomics.add(counters, SCHEDULE.generation, 1);
  Atomics.notify(counters, SCHEDULE.generation);
}
