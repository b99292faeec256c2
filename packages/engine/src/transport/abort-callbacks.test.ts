import { describe, expect, it } from "vitest";
import { onAbortOf } from "./abort-callbacks.ts";

describe("onAbortOf", () => {
  it("runs the callbacks still waiting when the signal aborts, through one listener", () => {
    const controller = new AbortController();
    const { signal } = controller;
    let listeners = 0;
    const add = signal.addEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners += 1;
      add(...args);
    }) as typeof signal.addEventListener;
    const ran: number[] = [];
    const takeBack = Array.from({ length: 1000 }, (_, index) =>
      onAbortOf(signal, () => ran.push(index)),
    );
    for (const [index, stop] of takeBack.entries()) if (index % 2 === 1) stop();
    controller.abort();
    expect(listeners).toBe(1);
    expect(ran).toEqual(Array.from({ length: 500 }, (_, index) => index * 2));
    controller.abort();
    expect(ran).toHaveLength(500);
  });

  it("keeps each signal's callbacks to itself", () => {
    const first = new AbortController();
    const second = new AbortController();
    const ran: string[] = [];
    onAbortOf(first.signal, () => ran.push("first"));
    onAbortOf(second.signal, () => ran.push("second"));
    second.abort();
    expect(ran).toEqual(["second"]);
  });
});
