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

  it("sends a kept value before the ones pushed after it, still one per interval", async () => {
    const sent: string[] = [];
    const throttle = createThrottle(
      100,
      (value: string) => sent.push(value),
      () => Date.now(),
    );
    throttle.push("a1");
    throttle.push("a2");
    throttle.keep((value) => `${value} (last of a)`);
    throttle.push("b1");
    throttle.push("b2");
    vi.advanceTimersByTime(99);
    expect(sent).toEqual(["a1"]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(["a1", "a2 (last of a)"]);
    throttle.keep();
    throttle.push("c1");
    const flushed = throttle.flush();
    await vi.advanceTimersByTimeAsync(100);
    expect(sent).toEqual(["a1", "a2 (last of a)", "b2"]);
    await vi.advanceTimersByTimeAsync(100);
    await flushed;
    expect(sent).toEqual(["a1", "a2 (last of a)", "b2", "c1"]);
    // Nothing held: keeping is a no-op.
    throttle.keep();
    await vi.advanceTimersByTimeAsync(500);
    expect(sent).toHaveLength(4);
  });
});
