import { z } from "zod";
import { milliseconds, numberFrom, wholeCount } from "./checked-number.ts";
import { coded } from "./coded-message.ts";
import { MAX_TESTBED_REPLICAS } from "./latency-profile.ts";
import { HedgeDelaySchema, RequestModeSchema } from "./run-spec.ts";
import { strictObject } from "./strict-object.ts";

/**
 * The live tail lab's knobs: what a teacher moves while an open loop runs until stopped on the
 * embedded testbed. The testbed's profile (service time, stalls) and replica count change at
 * once; the engine's workers take the mode and hedge options at their next request.
 */

/** Service times a knob may set (ms): past a second the lab is watching a stall, not a service. */
export const MAX_LIVE_SERVICE_MS = 1_000;
/** Stalls a knob may set (ms). */
export const MAX_LIVE_STALL_MS = 10_000;

export const LiveTuningSchema = strictObject({
  /** The replicas' typical service time: the profile's median (lognormal), mean or fixed time. */
  serviceMs: milliseconds(MAX_LIVE_SERVICE_MS),
  /** Share of requests that stall (0.01 is 1 %). */
  stallProbability: numberFrom(0, 1, coded("fractionRange")),
  stallMs: milliseconds(MAX_LIVE_STALL_MS),
  replicas: wholeCount("replicas", MAX_TESTBED_REPLICAS),
  mode: RequestModeSchema,
  /** When a hedged request sends its backup: `30ms`, or a percentile of recent latencies `p95`. */
  hedgeDelay: HedgeDelaySchema,
  /** Backups may add at most this % of extra requests (hedged and adaptive). */
  hedgeBudgetPercent: numberFrom(0, 100, coded("percentageRange")),
});
export type LiveTuning = z.output<typeof LiveTuningSchema>;
export type LiveTuningInput = z.input<typeof LiveTuningSchema>;
export type LiveKnob = keyof LiveTuning;
export const LIVE_KNOBS = Object.keys(LiveTuningSchema.shape) as LiveKnob[];

/**
 * One moment of a live session on its timeline: the knobs as they were from then on, and which
 * of them changed (none for the first marker, the session's start).
 */
export const RunMarkerSchema = z.object({
  /** ms of the run clock (as intervals' startMs) when the change took effect. */
  atMs: z.number().min(0),
  tuning: LiveTuningSchema,
  changed: z.array(z.enum(LIVE_KNOBS as [LiveKnob, ...LiveKnob[]])),
});
export type RunMarker = z.infer<typeof RunMarkerSchema>;
