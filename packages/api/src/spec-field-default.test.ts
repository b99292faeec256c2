import { describe, expect, it } from "vitest";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "./run-spec.ts";
import { runSpecFieldDefault } from "./spec-field-default.ts";

describe("runSpecFieldDefault", () => {
  it.each([
    ["bucket", "loadgen"],
    ["phases", ["write", "read", "cleanup"]],
    ["requestTimeoutMs", DEFAULT_REQUEST_TIMEOUT_MS],
    ["hedge.budgetPercent", 10],
    ["hedge.delay", { kind: "percentile", percentile: 95 }],
    ["workload.multipartPartBytes", 8 * 1024 * 1024],
    ["untilSteady.holdMs", 2000],
    ["endpoints.region", "us-east-1"],
    ["testbed.replicas", 1],
  ])("%s defaults to %j, as validation applies it", (field, value) => {
    expect(runSpecFieldDefault(field)).toEqual(value);
  });

  it.each(["clients", "workers", "workload.totalBytes", "openLoop.rateHz"])(
    "%s has none (required, or absent means unused)",
    (field) => {
      expect(runSpecFieldDefault(field)).toBeUndefined();
    },
  );

  it("a field the spec does not have is a mistake in the caller", () => {
    expect(() => runSpecFieldDefault("workload.totalbytes")).toThrow(
      'the run spec has no field "workload.totalbytes"',
    );
  });
});
