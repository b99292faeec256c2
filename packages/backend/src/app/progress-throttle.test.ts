import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createThrottle } from "./progress-throttle.ts";

describe("createThrottle", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends at most one value per interval, always the latest, and never loses the last", async () => {
    const sent: number[] = [];
    const throttle = createThrottle(
      100,
      (value: number) => sent.push(value),
      () => Date.now(),
    );
    for (let value = 1; value <= 30; value += 1) {
      throttle.push(value);
      vi.advanceTimersByTime(10);
    }
    // 300 ms of pushes every 10 ms: the first at once, then the latest every 100 ms.
    expect(sent).toEqual([1, 10, 20, 30]);
    throttle.push(31);
    const flushed = throttle.flush();
    await vi.advanceTimersByTimeAsync(99);
    expect(sent).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    await flushed;
    expect(sent).toEqual([1, 10, 20, 30, 31]);
  });

  it("drops a held value on cancel", () => {
    const sent: number[] = [];
    const throttle = createThrottle(
      100,
      (value: number) => sent.push(value),
      () => Date.now(),
    );
    throttle.push(1);
    throttle.push(2);
    throttle.cancel();
    vi.advanceTimersByTime(500);
    expect(sent).toEqual([1]);
  });
});
