import { STALL_PROBE_INTERVAL_MS } from "@taillab/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ClientProbe } from "./client-probe.ts";

describe("ClientProbe on a worker with nothing in flight", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("rests until the next request starts, and counts no stall for the rest", () => {
    vi.useFakeTimers();
    const clock = () => Date.now() * 1000;
    let inFlight = 0;
    const probe = new ClientProbe(clock, 0, () => inFlight > 0);
    try {
      expect(vi.getTimerCount()).toBe(1);
      // Its first run finds nothing in flight: no timer is left armed.
      vi.advanceTimersByTime(STALL_PROBE_INTERVAL_MS * 10);
      expect(vi.getTimerCount()).toBe(0);
      vi.advanceTimersByTime(1000);
      expect(vi.getTimerCount()).toBe(0);

      inFlight = 1;
      const sentUs = clock();
      probe.noteStart(sentUs, sentUs, false);
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(STALL_PROBE_INTERVAL_MS * 10);
      // While a request is out the probe keeps running, and the second it rested is no stall.
      expect(vi.getTimerCount()).toBe(1);
      expect(probe.stallWithin(sentUs, clock())).toBe(0);
    } finally {
      probe.stop();
    }
  });
});
