import type { IntervalStats } from "@taillab/api";
import { describe, expect, it } from "vitest";
import {
  errorCodesOf,
  errorRatesStackedByCode,
  intervalCountsRecorded,
  intervalRates,
} from "./interval-rates.ts";

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

const MIB = 1024 * 1024;

describe("intervalRates", () => {
  it.each([
    ["a whole second", { startMs: 2000, requests: 300, errors: 7 }, [2.5, 300, 7]],
    ["half a second", { startMs: 0, lengthMs: 500, requests: 50, errors: 1 }, [0.25, 100, 2]],
    ["no length", { startMs: 1000, lengthMs: 0, requests: 5, errors: 5 }, [1, 0, 0]],
  ] as const)("%s", (_name, fields, [atS, opsPerSec, errorsPerSec]) => {
    expect(intervalRates(interval(fields))).toMatchObject({ atS, opsPerSec, errorsPerSec });
  });

  it.each([
    ["not recorded", {}, null, null],
    ["a whole second", { bytes: 3 * MIB, errorsByCode: { SlowDown: 4 } }, 3, { SlowDown: 4 }],
    [
      "half a second",
      { lengthMs: 500, bytes: MIB, errorsByCode: { "503": 1, Timeout: 2 } },
      2,
      { "503": 2, Timeout: 4 },
    ],
    ["nothing moved, nothing failed", { bytes: 0, errorsByCode: {} }, 0, {}],
  ] as const)(
    "MiB and errors by code per second: %s",
    (_name, fields, mibPerSec, errorsPerSecByCode) => {
      expect(intervalRates(interval(fields))).toMatchObject({ mibPerSec, errorsPerSecByCode });
    },
  );
});

describe("errorCodesOf", () => {
  it("orders a phase's codes by failures, most first, ties by code", () => {
    expect(
      errorCodesOf([
        interval({ errorsByCode: { Timeout: 1, SlowDown: 2 } }),
        interval({}),
        interval({ errorsByCode: { InternalError: 3, Timeout: 2 } }),
      ]),
    ).toEqual(["InternalError", "Timeout", "SlowDown"]);
  });
});

describe("intervalCountsRecorded", () => {
  it("is false for a run stored before seconds kept their bytes and codes", () => {
    expect(intervalCountsRecorded([interval({}), interval({})])).toBe(false);
    expect(intervalCountsRecorded([interval({ bytes: 0, errorsByCode: {} })])).toBe(true);
    expect(intervalCountsRecorded([])).toBe(false);
  });
});

describe("errorRatesStackedByCode", () => {
  it("stacks each second's codes, the most failures at the bottom, up to its errors per second", () => {
    const seconds = [
      interval({ errors: 3, bytes: 0, errorsByCode: { SlowDown: 2, Timeout: 1 } }),
      interval({
        startMs: 1000,
        lengthMs: 500,
        errors: 2,
        bytes: 0,
        errorsByCode: { SlowDown: 2 },
      }),
    ];
    expect(errorRatesStackedByCode(seconds)).toEqual([
      {
        code: "SlowDown",
        points: [
          { atS: 0.5, low: 0, high: 2 },
          { atS: 1.25, low: 0, high: 4 },
        ],
      },
      {
        code: "Timeout",
        points: [
          { atS: 0.5, low: 2, high: 3 },
          { atS: 1.25, low: 4, high: 4 },
        ],
      },
    ]);
  });

  it("is null where codes were not recorded", () => {
    expect(errorRatesStackedByCode([interval({ errors: 3 })])).toBeNull();
  });
});
