/** A request a RequestDeadlines watches. */
export interface Deadlined {
  /** When it started, on the transport's clock (µs). */
  readonly startUs: number;
  /** Cuts it off: its deadline passed. It is no longer watched by then. */
  deadlinePassed(): void;
}

/**
 * The request timeout of every request of one transport, with one timer rather than one per
 * request: all share the same timeout, so the order they started in is the order their deadlines
 * fall in, and only the oldest one's needs a timer. A Set keeps that order and forgets a finished
 * request at once. The timer is unref'd: a request in flight holds the event loop through its
 * connection, and a timer left armed once the last one ended must not.
 */
export class RequestDeadlines {
  private readonly watched = new Set<Deadlined>();
  private timer: NodeJS.Timeout | null = null;
  private readonly timeoutUs: number;
  private readonly clock: () => number;

  constructor(timeoutMs: number, clock: () => number) {
    this.timeoutUs = timeoutMs * 1000;
    this.clock = clock;
  }

  watch(request: Deadlined): void {
    this.watched.add(request);
    if (this.timer === null) this.arm(request.startUs);
  }

  forget(request: Deadlined): void {
    this.watched.delete(request);
  }

  /** Cuts off every request whose deadline has passed, then waits for the oldest one left. */
  private expire(): void {
    this.timer = null;
    const nowUs = this.clock();
    for (const request of this.watched) {
      if (request.startUs + this.timeoutUs > nowUs) {
        this.arm(request.startUs);
        return;
      }
      this.watched.delete(request);
      request.deadlinePassed();
    }
  }

  private arm(startUs: number): void {
    const waitMs = Math.max(1, Math.ceil((startUs + this.timeoutUs - this.clock()) / 1000));
    this.timer = setTimeout(() => this.expire(), waitMs);
    this.timer.unref();
  }
}
