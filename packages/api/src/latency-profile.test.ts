import { describe, expect, it } from "vitest";
import {
  BUILTIN_PROFILE_NAMES,
  BUILTIN_PROFILES,
  LatencyProfileSchema,
  resolveLatencyProfile,
  TestbedSetupSchema,
} from "./latency-profile.ts";
import { parseFields } from "./field-error.ts";

const messagesOf = (input: unknown) => {
  const result = LatencyProfileSchema.safeParse(input);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("LatencyProfileSchema", () => {
  it.each(BUILTIN_PROFILE_NAMES)("accepts the builtin profile %s as it is", (name) => {
    expect(LatencyProfileSchema.parse(BUILTIN_PROFILES[name])).toEqual(BUILTIN_PROFILES[name]);
  });

  it("has the builtin values the docs promise", () => {
    expect(BUILTIN_PROFILES.fast.serviceTime).toEqual({ kind: "none" });
    expect(BUILTIN_PROFILES.steady.serviceTime).toEqual({
      kind: "lognormal",
      medianMs: 5,
      sigma: 0.25,
    });
    expect(BUILTIN_PROFILES.stalls.stalls).toEqual({ probability: 0.01, durationMs: 1000 });
    expect(BUILTIN_PROFILES.queue.queue).toEqual({ slots: 8 });
    expect(BUILTIN_PROFILES["noisy-neighbour"].noisyNeighbour).toEqual({
      replica: 0,
      everyMs: 10_000,
      forMs: 2_000,
      factor: 10,
    });
  });

  it("fills in defaults", () => {
    expect(
      LatencyProfileSchema.parse({
        serviceTime: { kind: "fixed", ms: 5 },
        noisyNeighbour: { everyMs: 400, forMs: 200, factor: 10 },
        errors: { slowDownRate: 0.1 },
      }),
    ).toEqual({
      serviceTime: { kind: "fixed", ms: 5 },
      noisyNeighbour: { replica: 0, everyMs: 400, forMs: 200, factor: 10 },
      errors: { slowDownRate: 0.1, resetRate: 0, corruptRate: 0 },
    });
  });

  it.each([
    [
      {},
      'serviceTime: expected an object such as { "kind": "lognormal", "medianMs": 5, "sigma": 0.25 }',
    ],
    [
      { serviceTime: { kind: "gamma" } },
      'serviceTime.kind: expected "none", "fixed", "exponential" or "lognormal"',
    ],
    [{ serviceTime: { kind: "fixed", ms: -1 } }, "serviceTime.ms: must not be negative"],
    [
      { serviceTime: { kind: "fixed", ms: "5" } },
      "serviceTime.ms: expected a number of milliseconds",
    ],
    [{ serviceTime: { kind: "fixed", ms: 120_000 } }, "serviceTime.ms: must be at most 60000 ms"],
    [
      { serviceTime: { kind: "exponential", meanMs: 0 } },
      "serviceTime.meanMs: must be more than 0",
    ],
    [
      { serviceTime: { kind: "lognormal", medianMs: 5, sigma: 4 } },
      "serviceTime.sigma: expected a number from 0 to 3",
    ],
    [{ serviceTime: { kind: "lognormal", medianMs: 5 } }, "serviceTime.sigma: is required"],
    [
      { serviceTime: { kind: "none" }, stalls: { probability: 1.5, durationMs: 10 } },
      "stalls.probability: must be from 0 to 1 (0.01 is 1 %)",
    ],
    [
      { serviceTime: { kind: "none" }, queue: { slots: 0 } },
      "queue.slots: expected at least 1 service slot",
    ],
    [
      { serviceTime: { kind: "none" }, queue: { slots: 2.5 } },
      "queue.slots: expected a whole number of service slots",
    ],
    [
      { serviceTime: { kind: "none" }, noisyNeighbour: { everyMs: 100, forMs: 200, factor: 10 } },
      "noisyNeighbour.forMs: forMs must be at most everyMs: the slow window is part of each period",
    ],
    [
      { serviceTime: { kind: "none" }, noisyNeighbour: { everyMs: 100, forMs: 50, factor: 0.5 } },
      "noisyNeighbour.factor: must be from 1 to 1000 (10 is ten times slower)",
    ],
    [
      { serviceTime: { kind: "none" }, errors: { slowDownRate: 0.6, resetRate: 0.6 } },
      "errors: slowDownRate + resetRate must be at most 1",
    ],
    [
      { serviceTime: { kind: "none" }, stall: { probability: 0.1, durationMs: 10 } },
      ': unknown field "stall" - did you mean "stalls"?',
    ],
  ])("refuses %j with %j", (input, message) => {
    expect(messagesOf(input)).toContain(message);
  });
});

describe("resolveLatencyProfile", () => {
  it("returns a builtin profile by name", () => {
    expect(resolveLatencyProfile("steady")).toBe(BUILTIN_PROFILES.steady);
  });

  it("validates a profile object", () => {
    expect(resolveLatencyProfile({ serviceTime: { kind: "fixed", ms: 3 } })).toEqual({
      serviceTime: { kind: "fixed", ms: 3 },
    });
    expect(() => resolveLatencyProfile({ serviceTime: { kind: "fixed", ms: -3 } })).toThrow(
      "invalid latency profile: serviceTime.ms: must not be negative",
    );
  });

  it("names the builtin profiles when the name is unknown", () => {
    expect(() => resolveLatencyProfile("slow")).toThrow(
      'unknown latency profile "slow"; expected one of fast, steady, stalls, queue, noisy-neighbour',
    );
  });
});

describe("TestbedSetupSchema", () => {
  const issuesOf = (input: unknown) => {
    const result = TestbedSetupSchema.safeParse(input);
    return result.success
      ? []
      : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  };

  it("defaults to one fast replica with seed 1", () => {
    expect(TestbedSetupSchema.parse({})).toEqual({ replicas: 1, profile: "fast", seed: 1 });
  });

  it("keeps a builtin name as the name and validates a profile object", () => {
    expect(TestbedSetupSchema.parse({ replicas: 3, profile: "queue", seed: 7 })).toEqual({
      replicas: 3,
      profile: "queue",
      seed: 7,
    });
    expect(
      TestbedSetupSchema.parse({ profile: { serviceTime: { kind: "exponential", meanMs: 2 } } })
        .profile,
    ).toEqual({ serviceTime: { kind: "exponential", meanMs: 2 } });
  });

  it.each([
    [{ replicas: 0 }, "replicas: expected at least 1 replica"],
    [{ replicas: 17 }, "replicas: expected at most 16 replicas"],
    [{ replicas: 1.5 }, "replicas: expected a whole number of replicas"],
    [{ seed: -1 }, "seed: expected a whole number from 0 to 4294967295"],
    [
      { profile: "slow" },
      'profile: unknown latency profile "slow"; expected one of fast, steady, stalls, queue, noisy-neighbour',
    ],
    [
      { profile: 5 },
      "profile: expected a builtin profile name (fast, steady, stalls, queue, noisy-neighbour) or a profile object",
    ],
    [
      { profile: { serviceTime: { kind: "fixed", ms: -1 } } },
      "profile.serviceTime.ms: must not be negative",
    ],
    [
      {
        replicas: 2,
        profile: {
          serviceTime: { kind: "none" },
          noisyNeighbour: { replica: 2, everyMs: 10, forMs: 5, factor: 2 },
        },
      },
      "profile.noisyNeighbour.replica: replica 2 does not exist: there are 2 replicas (0 is the first)",
    ],
  ])("refuses %j with %j", (input, message) => {
    expect(issuesOf(input)).toContain(message);
  });
});

describe("an unknown field's message", () => {
  it("travels as a code a UI can translate, its English unchanged", () => {
    const parsed = parseFields(LatencyProfileSchema, {
      serviceTime: { kind: "none" },
      stall: { probability: 0.1 },
      qeue: { slots: 2 },
    });
    if (parsed.ok) throw new Error("a profile with unknown fields was accepted");
    const [error] = parsed.errors;
    expect(error?.message).toBe(
      'unknown field "stall" - did you mean "stalls"?; unknown field "qeue" - did you mean "queue"?',
    );
    expect(error?.code).toBe("problemAndMore");
    expect(error?.params).toEqual({
      problem: { code: "unknownFieldNear", params: { field: "stall", nearest: "stalls" } },
      more: { code: "unknownFieldNear", params: { field: "qeue", nearest: "queue" } },
    });
  });
});
