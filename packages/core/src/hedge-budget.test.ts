import { describe, expect, it } from "vitest";
import { adaptiveHedgeDelay } from "./hedge-delay.ts";
import { createBackupQueue, createHedgeBudget, type HedgeBudget } from "./hedge-budget.ts";
import { createRandom } from "./random.ts";

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

  it("takes back a refunded token, up to its burst", () => {
    const budget = createHedgeBudget({ percent: 1, burst: 1 });
    expect(budget.tryWithdraw()).toBe(true);
    expect(budget.tryWithdraw()).toBe(false);
    budget.refund();
    expect(budget.tryWithdraw()).toBe(true);
    budget.refund();
    budget.refund();
    expect(budget.balance).toBe(1);
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

describe("createBackupQueue", () => {
  it("pays at once while the budget has a token, then in the order requests asked", () => {
    const budget = createHedgeBudget({ percent: 10, burst: 1 });
    const queue = createBackupQueue(budget);
    const paid: string[] = [];
    const ask = (name: string) => queue.request(() => paid.push(name));
    ask("a");
    ask("b");
    const withdrawC = ask("c");
    ask("d");
    expect(paid).toEqual(["a"]);
    expect(queue.waiting).toBe(3);
    const deposit = (requests: number) => {
      for (let index = 0; index < requests; index += 1) {
        budget.onRequest();
        queue.serve();
      }
    };
    deposit(9);
    expect(paid).toEqual(["a"]);
    deposit(1);
    expect(paid).toEqual(["a", "b"]);
    // c answered before a token came: it is skipped, and its token goes to d.
    withdrawC();
    deposit(10);
    expect(paid).toEqual(["a", "b", "d"]);
    expect(queue.waiting).toBe(0);
    expect(budget.balance).toBe(0);
  });

  it("does not let a new request pass one that waits", () => {
    const budget = createHedgeBudget({ percent: 50, burst: 1 });
    const queue = createBackupQueue(budget);
    const paid: string[] = [];
    queue.request(() => paid.push("a"));
    queue.request(() => paid.push("b"));
    budget.onRequest();
    budget.onRequest();
    // A token is there, but b asked first: serve() has not run yet, and c still waits behind b.
    queue.request(() => paid.push("c"));
    queue.serve();
    expect(paid).toEqual(["a", "b"]);
  });

  /**
   * 1 % of requests stall for 1 s, the rest take ~5 ms; adaptive p99 delays with the floor at the
   * 3 % budget's percentile, so requests over the delay take the whole budget on average. One
   * request starts per 1/3 ms (16 clients). A request over its delay asks for a backup; an
   * ordinary one answers ~10 requests later and withdraws, a stall waits up to its whole second.
   */
  function stallsNeverPaid(seed: number): number {
    const random = createRandom(seed);
    const policy = adaptiveHedgeDelay({ percentile: 99, floorPercentile: 97 });
    const budget = createHedgeBudget({ percent: 3 });
    const queue = createBackupQueue(budget);
    const answers = new Map<number, (() => void)[]>();
    let unpaid = 0;
    for (let index = 0; index < 10_000; index += 1) {
      budget.onRequest();
      queue.serve();
      for (const answer of answers.get(index) ?? []) answer();
      answers.delete(index);
      const stalled = random.chance(0.01);
      const latencyMs = stalled ? 1000 : random.lognormal(5, 0.25);
      const delayMs = policy.delayMs("c");
      if (delayMs === null || latencyMs <= delayMs) {
        policy.observe("c", latencyMs);
        continue;
      }
      let paid = false;
      const withdraw = queue.request(() => (paid = true));
      const answeredAt = index + (stalled ? 3000 : 10);
      answers.set(answeredAt, [
        ...(answers.get(answeredAt) ?? []),
        () => {
          withdraw();
          if (stalled && !paid && index >= 1000) unpaid += 1;
        },
      ]);
      policy.observe("c", paid ? delayMs + random.lognormal(5, 0.25) : latencyMs);
    }
    return unpaid;
  }

  it.each([1, 2, 3, 4, 5])(
    "gets every stall its backup when ordinary requests use the whole budget (seed %d)",
    (seed) => {
      expect(stallsNeverPaid(seed)).toBe(0);
    },
  );
});
