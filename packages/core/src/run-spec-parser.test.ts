import { describe, expect, it } from "vitest";
import { UNTIL_STOPPED_SAMPLES } from "@taillab/api";
import { parseRunSpec } from "./run-spec-parser.ts";
import { expandSweep } from "./sweep.ts";

const minimal = { clients: 8, samples: 256, objectSize: "32KiB" };

describe("parseRunSpec", () => {
  it("fills defaults and normalises single values to lists", () => {
    const result = parseRunSpec(minimal);
    expect(result).toEqual({
      ok: true,
      spec: {
        schemaVersion: 1,
        bucket: "loadgen",
        keyPrefix: "taillab",
        phases: ["write", "read", "cleanup"],
        clients: [8],
        samples: [256],
        objectSize: [32 * 1024],
        transport: "fast",
        verify: false,
        createBucket: false,
        mode: "normal",
        hedge: {
          delay: { kind: "percentile", percentile: 95 },
          budgetPercent: 10,
          tiedDelayMs: 0,
          minSamples: 20,
        },
        replicaChoice: "round-robin",
        requestTimeoutMs: 60_000,
        testbed: { replicas: 1, profile: "fast", seed: 1 },
        repeat: 1,
      },
    });
  });

  it.each([
    [
      { mode: "hedged", hedge: { delay: "30ms", budgetPercent: "3%" } },
      { kind: "fixed", delayMs: 30 },
      3,
    ],
    [{ mode: "adaptive", hedge: { delay: "p99" } }, { kind: "percentile", percentile: 99 }, 10],
  ])("reads hedge options %j", (override, delay, budgetPercent) => {
    const result = parseRunSpec({ ...minimal, ...override });
    expect(result.ok && result.spec.hedge).toMatchObject({ delay, budgetPercent });
  });

  it("reads an open loop, and takes rate × duration requests instead of samples", () => {
    const result = parseRunSpec({
      clients: 8,
      objectSize: "4KiB",
      openLoop: { rateHz: "500/s", arrivals: "poisson", durationMs: "30s" },
    });
    expect(result.ok && result.spec.openLoop).toEqual({
      rateHz: 500,
      arrivals: "poisson",
      durationMs: 30_000,
      seed: 1,
    });
  });

  it("reads an open loop until stopped: one point with no count, for a workload", () => {
    const result = parseRunSpec({
      clients: 16,
      objectSize: "4KiB",
      openLoop: { rateHz: 400, untilStopped: true },
      workload: { ops: "get:100" },
    });
    expect(result.ok && result.spec.openLoop).toMatchObject({ rateHz: 400, untilStopped: true });
    expect(result.ok && expandSweep(result.spec)).toEqual([
      { clients: 16, samples: UNTIL_STOPPED_SAMPLES, objectSizeBytes: 4096 },
    ]);
  });

  it.each([
    [{}, "openLoop.untilStopped", "needs a workload"],
    [{ workload: { ops: "get:100" }, samples: 100 }, "samples", "has no samples"],
    [
      { workload: { ops: "get:100" }, openLoop: { rateHz: 1, untilStopped: true, durationMs: 5 } },
      "openLoop.durationMs",
      "not both",
    ],
    [{ workload: { ops: "get:100" }, clients: [1, 2] }, "clients", "runs one point"],
    [{ workload: { ops: "get:100" }, repeat: 2 }, "repeat", "runs once"],
  ])("refuses an open loop until stopped with %j", (override, field, message) => {
    const result = parseRunSpec({
      clients: 4,
      objectSize: "4KiB",
      openLoop: { rateHz: 100, untilStopped: true },
      ...override,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toContainEqual(
      expect.objectContaining({ field, message: expect.stringContaining(message) }),
    );
  });

  it.each([
    [1024, 1024],
    ["1024", 1024],
    ["32KiB", 32768],
    ["32kib", 32768],
    ["1MiB", 1048576],
    ["4MB", 4_000_000],
    ["1.5KiB", 1536],
    ["2 MiB", 2 * 1048576],
  ])("accepts object size %j as %d bytes", (objectSize, bytes) => {
    const result = parseRunSpec({ ...minimal, objectSize });
    expect(result.ok && result.spec.objectSize).toEqual([bytes]);
  });

  it.each([
    ["0", "objectSize", "must be greater than 0 bytes"],
    [-5, "objectSize", "must be greater than 0 bytes"],
    ["abc", "objectSize", "is not a size"],
    ["1.5.3KiB", "objectSize", "is not a size"],
    ["3XB", "objectSize", "unknown unit"],
    ["6GiB", "objectSize", "at most 5GiB"],
  ])("rejects object size %j naming the field", (objectSize, field, message) => {
    const result = parseRunSpec({ ...minimal, objectSize });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]?.field).toBe(field);
    expect(result.errors[0]?.message).toContain(message);
  });

  it.each([
    [{ clients: 0 }, "clients", "at least 1 client"],
    [{ clients: 2.5 }, "clients", "whole number of clients"],
    [{ samples: 4 }, "samples", "samples (4) must be at least clients (8)"],
    [{ bucket: "Not_A_Bucket" }, "bucket", "lowercase"],
    [{ keyPrefix: "/abs" }, "keyPrefix", "must not start or end with '/'"],
    [{ phases: ["read"] }, "phases", "must include write"],
    [{ endpoints: [{ url: "ftp://x" }] }, "endpoints[0].url", "http:// or https://"],
    [{ endpoints: [{ url: "http://h:9000/path" }] }, "endpoints[0].url", "no path"],
    [{ mode: "speculative" }, "mode", "normal"],
    [
      { hedge: { delay: "soon" } },
      "hedge.delay",
      "expected a duration like 30ms or a percentile like p95",
    ],
    [{ hedge: { budgetPercent: "5" } }, "hedge.budgetPercent", "the % sign is required"],
    [{ openLoop: { rateHz: "0/s" } }, "openLoop.rateHz", "rate"],
    [{ openLoop: { rateHz: 100, durationMs: "10s" } }, "samples", "not both"],
    [{ testbed: { profile: "slow" } }, "testbed.profile", "expected one of fast, steady, stalls"],
  ])("rejects %j", (override, field, message) => {
    const result = parseRunSpec({ ...minimal, ...override });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toContainEqual(
      expect.objectContaining({ field, message: expect.stringContaining(message) }),
    );
  });

  it("names the value of a list that is wrong", () => {
    const result = parseRunSpec({ ...minimal, objectSize: ["1KiB", "2KiB", "abc"] });
    expect(result.ok === false && result.errors[0]?.field).toBe("objectSize[2]");
  });

  it("names a missing required field", () => {
    const result = parseRunSpec({ clients: 1, samples: 1 });
    expect(result).toEqual({
      ok: false,
      errors: [{ field: "objectSize", message: "is required", code: "required", params: {} }],
    });
  });

  it("orders phases write, read, cleanup whatever the input order", () => {
    const result = parseRunSpec({ ...minimal, phases: ["cleanup", "write"] });
    expect(result.ok && result.spec.phases).toEqual(["write", "cleanup"]);
  });

  it("keeps credentials as references only", () => {
    const result = parseRunSpec({ ...minimal, endpoints: [{ url: "http://127.0.0.1:9000" }] });
    expect(result.ok && result.spec.endpoints?.[0]).toEqual({
      url: "http://127.0.0.1:9000",
      region: "us-east-1",
      addressing: "path",
      credentials: {
        kind: "env",
        accessKeyIdVar: "AWS_ACCESS_KEY_ID",
        secretAccessKeyVar: "AWS_SECRET_ACCESS_KEY",
      },
      insecure: false,
    });
  });

  it("reads back the spec it produced", () => {
    const first = parseRunSpec({ ...minimal, clients: [1, 4], objectSize: ["1KiB", 2048] });
    if (!first.ok) throw new Error("expected a valid spec");
    expect(parseRunSpec(first.spec)).toEqual(first);
  });
});
