import { describe, expect, it } from "vitest";
import { createServiceSlots } from "./service-slots.ts";

const never = new AbortController().signal;
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("service slots", () => {
  it("grants free slots at once and queues the rest in arrival order", async () => {
    const slots = createServiceSlots(2);
    const order: string[] = [];
    const take = (name: string) =>
      slots.acquire(never).then((granted) => order.push(`${name}:${granted}`));
    void take("a");
    void take("b");
    void take("c");
    void take("d");
    await settled();
    expect(order).toEqual(["a:true", "b:true"]);
    expect([slots.busy, slots.waiting]).toEqual([2, 2]);
    slots.release();
    await settled();
    expect(order).toEqual(["a:true", "b:true", "c:true"]);
    slots.release();
    slots.release();
    await settled();
    expect(order).toEqual(["a:true", "b:true", "c:true", "d:true"]);
    expect([slots.busy, slots.waiting]).toEqual([1, 0]);
    slots.release();
    expect(slots.busy).toBe(0);
  });

  it("lets an aborted waiter leave the line without taking a slot", async () => {
    const slots = createServiceSlots(1);
    await slots.acquire(never);
    const leaving = new AbortController();
    const left = slots.acquire(leaving.signal);
    const next = slots.acquire(never);
    expect(slots.waiting).toBe(2);
    leaving.abort();
    expect(await left).toBe(false);
    expect(slots.waiting).toBe(1);
    slots.release();
    expect(await next).toBe(true);
    expect([slots.busy, slots.waiting]).toEqual([1, 0]);
  });

  it("refuses a caller whose signal already aborted", async () => {
    const slots = createServiceSlots(1);
    expect(await slots.acquire(AbortSignal.abort())).toBe(false);
    expect(slots.busy).toBe(0);
  });

  it("does not let a newcomer overtake the line when a slot frees", async () => {
    const slots = createServiceSlots(1);
    await slots.acquire(never);
    const first = slots.acquire(never);
    slots.release();
    const newcomer = slots.acquire(never);
    expect(await first).toBe(true);
    expect(slots.waiting).toBe(1);
    slots.release();
    expect(await newcomer).toBe(true);
  });
});
