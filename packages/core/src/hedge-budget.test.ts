import { describe, expect, it } from "vitest";
import { createHedgeBudget, type HedgeBudget } from "./hedge-budget.ts";

/** Every logical request wants a backup attempt: the worst case the budget must hold. */
function hedgesWhenAllWant(budget: HedgeBudget, requests: number): number {
  let hedges = 0;
  for (let index = 0; index < requests; index += 1) {
    budget.onRequest();
    if (budget.tryWithdraw()) hedges += 1;
  }
  return hedges;
}

describe("createHedgeBudget", () => {
  const REQUESTS = 100_000;

  it.each([
    [0.5, 1],
    [1, 1],
    [5, 5],
    [20, 20],
    [100, 100],
  ])("at %d% allows percent × requests + burst (%d) hedges, and no fewer", (percent, burst) => {
    const budget = createHedgeBudget({ percent });
    expect(budget.balance).toBe(burst);
    const hedges = hedgesWhenAllWant(budget, REQUESTS);
    const earned = (REQUESTS * percent) / 100;
    expect(hedges).toBeLessThanOrEqual(earned + burst);
    expect(hedges).toBeGreaterThanOrEqual(Math.min(REQUESTS, earned));
  });

  it("never hedges at 0 %, whatever the burst", () => {
    expect(hedgesWhenAllWant(createHedgeBudget({ percent: 0 }), REQUESTS)).toBe(0);
    expect(hedgesWhenAllWant(createHedgeBudget({ percent: 0, burst: 10 }), REQUESTS)).toBe(0);
  });

  it("always hedges at 100 %", () => {
    const budget = createHedgeBudget({ percent: 100, burst: 1 });
    expect(hedgesWhenAllWant(budget, REQUESTS)).toBe(REQUESTS);
  });

  it("makes exactly one token from 20 requests at 5 %", () => {
    const budget = createHedgeBudget({ percent: 5, burst: 1 });
    expect(budget.tryWithdraw()).toBe(true);
    for (let index = 0; index < 19; index += 1) budget.onRequest();
    expect(budget.tryWithdraw()).toBe(false);
    budget.onRequest();
    expect(budget.balance).toBe(1);
    expect(budget.tryWithdraw()).toBe(true);
  });

  it("saves unused budget only up to the burst", () => {
    const budget = createHedgeBudget({ percent: 10, burst: 3 });
    for (let index = 0; index < 1000; index += 1) budget.onRequest();
    expect(budget.balance).toBe(3);
    expect([1, 2, 3, 4].map(() => budget.tryWithdraw())).toEqual([true, true, true, false]);
  });

  it.each([
    [{ percent: -1 }, /from 0% to 100%/],
    [{ percent: 101 }, /from 0% to 100%/],
    [{ percent: Number.NaN }, /from 0% to 100%/],
    [{ percent: 5, burst: 0.5 }, /at least 1 token/],
  ])("rejects %j", (options, message) => {
    expect(() => createHedgeBudget(options)).toThrow(message);
  });
});
