import { englishOf } from "@taillab/api";
import { describe, expect, it } from "vitest";
import {
  createOperationChooser,
  formatOperationMix,
  parseOperationMix,
  type OperationChoiceStrategy,
  type OperationWeight,
  type WorkloadOperation,
} from "./operation-mix.ts";
import { createRandom } from "./random.ts";

function mixOf(text: string): OperationWeight[] {
  const parsed = parseOperationMix(text);
  if (!parsed.ok) throw new Error(englishOf(parsed.reason));
  return parsed.value;
}

function shares(mix: readonly OperationWeight[]): Record<string, number> {
  return Object.fromEntries(mix.map(({ op, weightPct }) => [op, weightPct]));
}

function tally(ops: readonly WorkloadOperation[]): Map<WorkloadOperation, number> {
  const counts = new Map<WorkloadOperation, number>();
  for (const op of ops) counts.set(op, (counts.get(op) ?? 0) + 1);
  return counts;
}

function draw(
  mix: readonly OperationWeight[],
  count: number,
  seed: number,
  strategy?: OperationChoiceStrategy,
) {
  const chooser = createOperationChooser(mix, createRandom(seed), { strategy });
  return Array.from({ length: count }, () => chooser.next());
}

describe("parseOperationMix", () => {
  it.each([
    ["get:70,put:20,delete:5,list:5", { get: 70, put: 20, delete: 5, list: 5 }],
    ["get:7,put:2,delete:0.5,list:0.5", { get: 70, put: 20, delete: 5, list: 5 }],
    ["get:70%, put:30%", { get: 70, put: 30 }],
    [" GET:1 , Put:3 ", { get: 25, put: 75 }],
    ["get,put", { get: 50, put: 50 }],
    ["head", { head: 100 }],
    ["copy:1,multipart:1,head:2", { copy: 25, multipart: 25, head: 50 }],
  ])("reads %j", (text, expected) => {
    const parsed = mixOf(text);
    expect(Object.keys(shares(parsed))).toEqual(Object.keys(expected));
    for (const [op, pct] of Object.entries(expected)) {
      expect(shares(parsed)[op]).toBeCloseTo(pct, 10);
    }
  });

  it("keeps the order written", () => {
    expect(mixOf("list:1,get:1,put:1").map((entry) => entry.op)).toEqual(["list", "get", "put"]);
  });

  it.each([
    [
      "",
      "the operation mix is empty; expected operations with weights, e.g. get:70,put:20,delete:5,list:5",
    ],
    [
      "get:70,fetch:10",
      '"fetch:10" — unknown operation "fetch"; expected one of put, get, head, delete, copy, list, multipart, create-bucket, delete-bucket, list-buckets, delete-objects',
    ],
    ["get:0", '"get:0" — weight "0" must be greater than 0'],
    ["get:-5,put:5", '"get:-5" — weight "-5" must be greater than 0'],
    ["get:lots", '"get:lots" — weight "lots" is not a number; expected a positive number like 70'],
    ["get:70:1", '"get:70:1" — weight "70:1" is not a number; expected a positive number like 70'],
    [
      "get:70,put",
      '"put" — has no weight while others do; give every operation a weight, e.g. get:70,put:20,delete:5,list:5',
    ],
    ["get:70,GET:30", '"GET:30" — "get" appears twice; give each operation once'],
    ["get:70,,put:30", '"get:70,,put:30" — has an empty item; e.g. get:70,put:20,delete:5,list:5'],
  ])("rejects %j", (text, reason) => {
    const parsed = parseOperationMix(text);
    expect(parsed.ok ? parsed : englishOf(parsed.reason)).toBe(reason);
  });

  it.each(["get:70,put:20,delete:5,list:5", "get:1,put:2", "head,copy,multipart"])(
    "formats %j as text that reads back the same",
    (text) => {
      const mix = mixOf(text);
      expect(mixOf(formatOperationMix(mix))).toEqual(mix);
    },
  );
});

const MIXES = [
  "get:70,put:20,delete:5,list:5",
  "get:1,put:1,head:1",
  "get:97,put:2,delete:1",
  "get:33,put:33,delete:17,list:11,head:6",
  "get:50,put:30,delete:10,list:5,head:3,copy:1,multipart:1",
];
const SEEDS = [1, 7, 2024];

describe("smooth operation choice", () => {
  describe.each(MIXES)("%s", (text) => {
    const mix = mixOf(text);

    it.each(SEEDS)("keeps every prefix within one request of the mix (seed %d)", (seed) => {
      const chooser = createOperationChooser(mix, createRandom(seed));
      const counts = new Map<WorkloadOperation, number>();
      let worst = 0;
      for (let drawn = 1; drawn <= 10_000; drawn += 1) {
        const op = chooser.next();
        counts.set(op, (counts.get(op) ?? 0) + 1);
        for (const { op: each, weightPct } of mix) {
          const error = Math.abs((counts.get(each) ?? 0) - (drawn * weightPct) / 100);
          worst = Math.max(worst, error);
        }
      }
      expect(worst).toBeLessThanOrEqual(1 + 1e-9);
    });

    it.each(SEEDS)(
      "is within ±2 % (in fact ±0.01 %) of the mix over 10 000 requests (seed %d)",
      (seed) => {
        const counts = tally(draw(mix, 10_000, seed));
        for (const { op, weightPct } of mix) {
          const realisedPct = ((counts.get(op) ?? 0) / 10_000) * 100;
          expect(Math.abs(realisedPct - weightPct)).toBeLessThanOrEqual(0.01);
        }
      },
    );
  });

  it("gives the exact mix over one cycle of 20", () => {
    const counts = tally(draw(mixOf("get:70,put:20,delete:5,list:5"), 20, 3));
    expect(Object.fromEntries(counts)).toEqual({ get: 14, put: 4, delete: 1, list: 1 });
  });

  it("breaks ties at random, so equal shares come out in either order", () => {
    const mix = mixOf("get:1,put:1");
    const firsts = new Set(SEEDS.concat([2, 3, 4, 5, 6]).map((seed) => draw(mix, 1, seed)[0]));
    expect(firsts).toEqual(new Set(["get", "put"]));
  });

  it("breaks ties fairly: over 2000 seeds, each of three equal shares comes first a third of the time", () => {
    const mix = mixOf("get:1,put:1,head:1");
    const firsts = Array.from({ length: 2000 }, (_, seed) => draw(mix, 1, seed)[0]);
    for (const op of ["get", "put", "head"]) {
      const firstShare = firsts.filter((first) => first === op).length / firsts.length;
      expect(Math.abs(firstShare - 1 / 3)).toBeLessThan(0.045);
    }
  });

  it("replays the same sequence from the same seed", () => {
    const mix = mixOf("get:70,put:20,delete:5,list:5");
    expect(draw(mix, 200, 11)).toEqual(draw(mix, 200, 11));
  });

  it("never repeats a 5 % operation back to back", () => {
    const ops = draw(mixOf("get:70,put:20,delete:5,list:5"), 10_000, 5);
    expect(ops.some((op, index) => op === "delete" && ops[index + 1] === "delete")).toBe(false);
  });
});

describe("independent operation choice", () => {
  describe.each(MIXES)("%s", (text) => {
    it.each(SEEDS)("is within ±2 % of the mix over 10 000 requests (seed %d)", (seed) => {
      const mix = mixOf(text);
      const counts = tally(draw(mix, 10_000, seed, "independent"));
      for (const { op, weightPct } of mix) {
        const realisedPct = ((counts.get(op) ?? 0) / 10_000) * 100;
        expect(Math.abs(realisedPct - weightPct)).toBeLessThan(2);
      }
    });
  });

  it("has bursts: a 5 % operation sometimes comes twice in a row", () => {
    // About 10 000 × 0.05² = 25 such pairs are expected.
    const ops = draw(mixOf("get:70,put:20,delete:5,list:5"), 10_000, 5, "independent");
    const pairs = ops.filter((op, index) => op === "delete" && ops[index + 1] === "delete").length;
    expect(pairs).toBeGreaterThan(10);
    expect(pairs).toBeLessThan(45);
  });
});

describe("createOperationChooser", () => {
  it.each([
    [[], /at least one operation/],
    [[{ op: "get", weightPct: 0 }], /share above 0 %/],
    [[{ op: "get", weightPct: Number.NaN }], /share above 0 %/],
    [[{ op: "fetch", weightPct: 100 }], /unknown operation "fetch"/],
  ])("rejects the mix %j", (mix, message) => {
    expect(() => createOperationChooser(mix as OperationWeight[], createRandom(1))).toThrow(
      message,
    );
  });

  it("accepts shares that do not add up to 100", () => {
    const counts = tally(
      draw(
        [
          { op: "get", weightPct: 3 },
          { op: "put", weightPct: 1 },
        ],
        400,
        1,
      ),
    );
    expect(Object.fromEntries(counts)).toEqual({ get: 300, put: 100 });
  });
});
