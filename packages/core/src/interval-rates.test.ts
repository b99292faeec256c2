import type { IntervalStats } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { intervalRates } from "./interval-rates.ts";

const interval = (fields: Partial<IntervalStats>): IntervalStats => ({
  startMs: 0,
  lengthMs: 1000,
  requests: 0,
  errors: 0,
  p50Ms: null,
  p99Ms: null,
  p999Ms: null,
  maxMs: null,
  ...fields,
});

describe("intervalRates", () => {
  it.each([
    ["a whole second", { startMs: 2000, requests: 300, errors: 7 }, [2.5, 300, 7]],
    ["half a second", { startMs: 0, lengthMs: 500, requests: 50, errors: 1 }, [0.25, 100, 2]],
    ["no length", { startMs: 1000, lengthMs: 0, requests: 5, errors: 5 }, [1, 0, 0]],
  ] as const)("%s", (_name, fields, [atS, opsPerSec, errorsPerSec]) => {
    expect(intervalRates(interval(fields))).toEqual({ atS, opsPerSec, errorsPerSec });
  });
});
