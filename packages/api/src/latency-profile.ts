import { z } from "zod";
import { coded, codedIssue, codedRefinement, englishOf } from "./coded-message.ts";
import { issueMessage } from "./field-error.ts";
import { strictObject } from "./strict-object.ts";
import { checkedNumber, milliseconds, numberFrom, wholeCount } from "./checked-number.ts";

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

const durationMs = milliseconds(MAX_PROFILE_DURATION_MS);
const positiveDurationMs = milliseconds(MAX_PROFILE_DURATION_MS, { positive: true });
const rate = numberFrom(0, 1, coded("fractionRange"));

const ServiceTimeKindsSchema = z.discriminatedUnion("kind", [
  /** No added delay: the testbed answers as fast as it can. */
  strictObject({ kind: z.literal("none") }),
  strictObject({ kind: z.literal("fixed"), ms: durationMs }),
  /** Memoryless service, as in an M/M/c queue. */
  strictObject({ kind: z.literal("exponential"), meanMs: positiveDurationMs }),
  /** Half the requests take less than medianMs; sigma widens the tail (p99 = median·e^(2.33σ)). */
  strictObject({
    kind: z.literal("lognormal"),
    medianMs: positiveDurationMs,
    sigma: numberFrom(0, 3, coded("numberRange", { min: 0, max: 3 })),
  }),
]);
const SERVICE_TIME_KINDS: readonly unknown[] = ["none", "fixed", "exponential", "lognormal"];

/** A service time; what is not one is said as a coded message, so a UI can say it in its language. */
export const ServiceTimeSchema = z
  .custom<z.input<typeof ServiceTimeKindsSchema>>()
  .superRefine((value, context) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      context.addIssue(codedIssue(coded("serviceTimeExpected")));
    } else if (!SERVICE_TIME_KINDS.includes((value as { kind?: unknown }).kind)) {
      context.addIssue(codedIssue(coded("serviceTimeKind"), ["kind"]));
    }
  })
  .pipe(ServiceTimeKindsSchema);
export type ServiceTime = z.infer<typeof ServiceTimeSchema>;

/** A pause added to a request's service time, e.g. a GC pause or a slow disk. */
export const StallsSchema = strictObject({
  probability: rate,
  durationMs,
});

/** Each replica serves at most `slots` requests at once; the others wait in line (FIFO). */
export const QueueSchema = strictObject({
  slots: wholeCount("slots", 10_000),
});

/** Replica `replica` is `factor`× slower during `forMs` of every `everyMs`. */
export const NoisyNeighbourSchema = strictObject({
  replica: checkedNumber((value) =>
    Number.isInteger(value) && (value as number) >= 0 && (value as number) < MAX_TESTBED_REPLICAS
      ? null
      : coded("replicaIndexRange", { max: MAX_TESTBED_REPLICAS - 1 }),
  ).default(0),
  everyMs: positiveDurationMs,
  forMs: durationMs,
  factor: numberFrom(1, 1000, coded("slowdownFactorRange")),
}).refine(
  (noisy) => noisy.forMs <= noisy.everyMs,
  codedRefinement(coded("slowWindowLonger"), ["forMs"]),
);

export const ErrorInjectionSchema = strictObject({
  /** Answered at once with 503 SlowDown, as S3 does when throttling. */
  slowDownRate: rate.default(0),
  /** The TCP connection is reset instead of any answer. */
  resetRate: rate.default(0),
  /** A GET served in full but with a wrong byte: caught only by checking the content. */
  corruptRate: rate.default(0),
}).refine(
  (errors) => errors.slowDownRate + errors.resetRate <= 1,
  codedRefinement(coded("errorRatesSum")),
);

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
