import { describe, expect, it } from "vitest";
import { sleepAtLeast } from "./sleep-at-least.ts";

describe("sleepAtLeast", () => {
  it("never returns before its delay has passed on performance.now()", async () => {
    for (const delayMs of [0.3, 1, 2.5, 3.7, 5.05]) {
      for (let round = 0; round < 10; round++) {
        const startedMs = performance.now();
        // A busy moment right before sleeping is what makes a bare timer fire early.
        while (performance.now() - startedMs < 1.5);
        const sleptFromMs = performance.now();
        await sleepAtLeast(delayMs);
        expect(performance.now() - sleptFromMs).toBeGreaterThanOrEqual(delayMs);
      }
    }
  });

  it("rejects at once when its signal aborts", async () => {
    const controller = new AbortController();
    const sleeping = sleepAtLeast(60_000, controller.signal);
    controller.abort();
    await expect(sleeping).rejects.toMatchObject({ name: "AbortError" });
  });

  it("does not wait for nothing", async () => {
    await sleepAtLeast(0);
    await sleepAtLeast(-1);
  });
});
