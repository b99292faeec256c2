import { z } from "zod";
import { coded, codedIssue, englishOf } from "./coded-message.ts";
import { issueMessage } from "./field-error.ts";
import { strictObject } from "./strict-object.ts";
import { checkedNumber, wholeCount } from "./checked-number.ts";

/**
 * Latency profiles for the embedded testbed: how long each replica takes to serve a request,
 * how often it stalls or fails, how many requests it serves at once. A run spec names one, the
 * desktop app lists them, and the testbed applies it per replica with a seed so a run can be
 * replayed.
 */

/** One sampled service time may not exceed this, nor may any configured duration. */
export const MAX_PROFILE_DURATION_MS = 60_000;
/** As many replicas as the testbed starts for one setup (one port each). */
export const MAX_TESTBED_REPLICAS = 16;

const durationMs = (what: string) =>
  z
    .number({ message: `${what}: expected a number of milliseconds` })
    .min(0, { message: `${what} must not be negative` })
    .max(MAX_PROFILE_DURATION_MS, {
      message: `${what} must be at most ${MAX_PROFILE_DURATION_MS} ms`,
    });

const positiveDurationMs = (what: string) =>
  durationMs(what).positive({ message: `${what} must be more than 0 ms` });

const rate = (what: string) =>
  z
    .number({ message: `${what}: expected a number from 0 to 1` })
    .min(0, { message: `${what} must be from 0 to 1 (0.01 is 1 %)` })
    .max(1, { message: `${what} must be from 0 to 1 (0.01 is 1 %)` });

export const ServiceTimeSchema = z.discriminatedUnion(
  "kind",
  [
    /** No added delay: the testbed answers as fast as it can. */
    strictObject({ kind: z.literal("none") }),
    strictObject({ kind: z.literal("fixed"), ms: durationMs("ms") }),
    /** Memoryless service, as in an M/M/c queue. */
    strictObject({ kind: z.literal("exponential"), meanMs: positiveDurationMs("meanMs") }),
    /** Half the requests take less than medianMs; sigma widens the tail (p99 = median·e^(2.33σ)). */
    strictObject({
      kind: z.literal("lognormal"),
      medianMs: positiveDurationMs("medianMs"),
      sigma: z
        .number({ message: "sigma: expected a number from 0 to 3" })
        .min(0, { message: "sigma must be from 0 to 3" })
        .max(3, { message: "sigma must be from 0 to 3" }),
    }),
  ],
  {
    error: (issue) =>
      typeof issue.input !== "object" || issue.input === null
        ? 'expected an object such as { "kind": "lognormal", "medianMs": 5, "sigma": 0.25 }'
        : 'expected "none", "fixed", "exponential" or "lognormal"',
  },
);
export type ServiceTime = z.infer<typeof ServiceTimeSchema>;

/** A pause added to a request's service time, e.g. a GC pause or a slow disk. */
export const StallsSchema = strictObject({
  probability: rate("probability"),
  durationMs: durationMs("durationMs"),
});

/** Each replica serves at most `slots` requests at once; the others wait in line (FIFO). */
export const QueueSchema = strictObject({
  slots: z
    .number({ message: "slots: expected a whole number of service slots" })
    .int({ message: "slots: expected a whole number of service slots" })
    .min(1, { message: "slots must be at least 1" })
    .max(10_000, { message: "slots must be at most 10000" }),
});

/** Replica `replica` is `factor`× slower during `forMs` of every `everyMs`. */
export const NoisyNeighbourSchema = strictObject({
  replica: z
    .number({ message: "replica: expected a replica index (0 is the first)" })
    .int({ message: "replica: expected a replica index (0 is the first)" })
    .min(0, { message: "replica: expected a replica index (0 is the first)" })
    .max(MAX_TESTBED_REPLICAS - 1, {
      message: `replica must be at most ${MAX_TESTBED_REPLICAS - 1}`,
    })
    .default(0),
  everyMs: positiveDurationMs("everyMs"),
  forMs: durationMs("forMs"),
  factor: z
    .number({ message: "factor: expected a number from 1 to 1000" })
    .min(1, { message: "factor must be from 1 to 1000 (10 is ten times slower)" })
    .max(1000, { message: "factor must be from 1 to 1000 (10 is ten times slower)" }),
}).refine((noisy) => noisy.forMs <= noisy.everyMs, {
  message: "forMs must be at most everyMs: the slow window is part of each period",
  path: ["forMs"],
});

export const ErrorInjectionSchema = strictObject({
  /** Answered at once with 503 SlowDown, as S3 does when throttling. */
  slowDownRate: rate("slowDownRate").default(0),
  /** The TCP connection is reset instead of any answer. */
  resetRate: rate("resetRate").default(0),
  /** A GET served in full but with a wrong byte: caught only by checking the content. */
  corruptRate: rate("corruptRate").default(0),
}).refine((errors) => errors.slowDownRate + errors.resetRate <= 1, {
  message: "slowDownRate + resetRate must be at most 1",
});

/**
 * Unknown keys are refused rather than dropped: a misspelt `stall` in a profile file would
 * otherwise silently run a different experiment.
 */
export const LatencyProfileSchema = strictObject({
  description: z.string().max(200).optional(),
  serviceTime: ServiceTimeSchema,
  stalls: StallsSchema.optional(),
  queue: QueueSchema.optional(),
  noisyNeighbour: NoisyNeighbourSchema.optional(),
  errors: ErrorInjectionSchema.optional(),
});
export type LatencyProfile = z.output<typeof LatencyProfileSchema>;
export type LatencyProfileInput = z.input<typeof LatencyProfileSchema>;

export const BUILTIN_PROFILE_NAMES = [
  "fast",
  "steady",
  "stalls",
  "queue",
  "noisy-neighbour",
] as const;
export type BuiltinProfileName = (typeof BUILTIN_PROFILE_NAMES)[number];

const STEADY_SERVICE_TIME: ServiceTime = { kind: "lognormal", medianMs: 5, sigma: 0.25 };

export const BUILTIN_PROFILES: Readonly<Record<BuiltinProfileName, LatencyProfile>> = {
  fast: { description: "no added delay", serviceTime: { kind: "none" } },
  steady: {
    description: "lognormal service time, median 5 ms (p99 ≈ 9 ms)",
    serviceTime: STEADY_SERVICE_TIME,
  },
  stalls: {
    description: "steady, and 1 % of requests stall for 1 s (a GC pause or a slow disk)",
    serviceTime: STEADY_SERVICE_TIME,
    stalls: { probability: 0.01, durationMs: 1_000 },
  },
  queue: {
    description: "steady, with 8 service slots per replica: latency grows with load (M/M/c)",
    serviceTime: STEADY_SERVICE_TIME,
    queue: { slots: 8 },
  },
  "noisy-neighbour": {
    description: "steady, but replica 0 is 10× slower for 2 s of every 10 s",
    serviceTime: STEADY_SERVICE_TIME,
    noisyNeighbour: { replica: 0, everyMs: 10_000, forMs: 2_000, factor: 10 },
  },
};

export function isBuiltinProfileName(name: string): name is BuiltinProfileName {
  return (BUILTIN_PROFILE_NAMES as readonly string[]).includes(name);
}

function unknownProfileMessage(name: string) {
  return coded("profileUnknown", { name, names: BUILTIN_PROFILE_NAMES.join(", ") });
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ` : "") + issue.message)
    .join("; ");
}

/**
 * A builtin profile by name, or a profile object validated (defaults filled in). Throws an Error
 * naming the builtin profiles for an unknown name, or naming the field of an invalid object.
 */
export function resolveLatencyProfile(nameOrProfile: string | LatencyProfileInput): LatencyProfile {
  if (typeof nameOrProfile === "string") {
    if (isBuiltinProfileName(nameOrProfile)) return BUILTIN_PROFILES[nameOrProfile];
    throw new Error(englishOf(unknownProfileMessage(nameOrProfile)));
  }
  const parsed = LatencyProfileSchema.safeParse(nameOrProfile);
  if (!parsed.success) {
    throw new Error(`invalid latency profile: ${describeIssues(parsed.error.issues)}`);
  }
  return parsed.data;
}

/** A builtin name (kept as the name, so it can be shown) or a profile object. */
const profileChoice = z
  .custom<BuiltinProfileName | LatencyProfileInput>()
  .transform((value, context): BuiltinProfileName | LatencyProfile => {
    if (typeof value === "string") {
      if (isBuiltinProfileName(value)) return value;
      context.addIssue(codedIssue(unknownProfileMessage(value)));
      return z.NEVER;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      context.addIssue(
        codedIssue(coded("profileExpected", { names: BUILTIN_PROFILE_NAMES.join(", ") })),
      );
      return z.NEVER;
    }
    // The input reported, so a value of the wrong kind is told apart from a missing one.
    const parsed = LatencyProfileSchema.safeParse(value, { reportInput: true });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const message = issueMessage(issue);
      context.addIssue(
        message
          ? codedIssue(message, issue.path)
          : { code: "custom", message: issue.message, path: issue.path },
      );
    }
    return z.NEVER;
  });

/** How the embedded testbed is started: replicas on as many ports, one profile, one seed. */
export const TestbedSetupSchema = strictObject({
  replicas: wholeCount("replicas", MAX_TESTBED_REPLICAS).default(1),
  profile: profileChoice.default("fast"),
  /** Replica r draws its delays from a random stream seeded by (seed, r). */
  seed: checkedNumber((seed) => {
    if (!Number.isInteger(seed)) return coded("wholeNumberExpected");
    return (seed as number) >= 0 && (seed as number) <= 0xffffffff ? null : coded("seedRange");
  }).default(1),
}).superRefine((setup, context) => {
  const profile =
    typeof setup.profile === "string" ? BUILTIN_PROFILES[setup.profile] : setup.profile;
  const noisy = profile.noisyNeighbour;
  if (noisy !== undefined && noisy.replica >= setup.replicas) {
    context.addIssue(
      codedIssue(
        setup.replicas === 1
          ? coded("replicaMissingOnlyOne", { replica: noisy.replica })
          : coded("replicaMissing", { replica: noisy.replica, replicas: setup.replicas }),
        ["profile", "noisyNeighbour", "replica"],
      ),
    );
  }
});
export type TestbedSetup = z.output<typeof TestbedSetupSchema>;
export type TestbedSetupInput = z.input<typeof TestbedSetupSchema>;
