import type { LiveTuning, RunMarker, RunSpec } from "@taillab/api";
import {
  changedKnobs,
  hedgeWithTuning,
  profileWithTuning,
  testbedProfileOf,
  tuningOf,
} from "@taillab/core";
import { epochNowMs, RunTuner, type EngineTuning } from "@taillab/engine";
import type { EmbeddedTestbed } from "./embedded-testbed.ts";
import type { RunTarget } from "./run-targets.ts";

/**
 * The live tail lab's side of a run: an open loop until stopped on the embedded testbed, whose
 * knobs move while it runs. A retune changes the testbed's profile and replica count and the
 * engine's mode, hedge options and replicas, and puts a marker on the run's timeline.
 */
export interface LiveSession {
  /** The knobs as they are now. */
  readonly tuning: LiveTuning;
  /** Every change so far, the first being the session's start. */
  readonly markers: readonly RunMarker[];
  /** What runPoint follows. */
  readonly tuner: RunTuner;
  /** Moves some knobs; resolves with the marker once the testbed and the engine have them. */
  retune(change: Partial<LiveTuning>): Promise<RunMarker>;
}

export interface LiveSessionOptions {
  spec: RunSpec;
  testbed: EmbeddedTestbed;
  /** The engine's target for each replica URL. */
  targetOf: (url: string) => RunTarget;
  /** The run clock's start: markers are placed on it, as intervals are. */
  runStartEpochMs: number;
  /** Told of every marker, the start's included. */
  onMarker?: (marker: RunMarker) => void;
}

export function startLiveSession(options: LiveSessionOptions): LiveSession {
  const { spec, testbed, targetOf, runStartEpochMs, onMarker } = options;
  const baseProfile = testbedProfileOf(spec);
  let tuning = tuningOf(spec);
  let urls = testbed.urls;
  const engineTuning = (): EngineTuning => ({
    mode: tuning.mode,
    hedge: hedgeWithTuning(spec.hedge, tuning),
    targets: urls.map(targetOf),
  });
  const tuner = new RunTuner(engineTuning());
  const markers: RunMarker[] = [];
  const mark = (changed: RunMarker["changed"]): RunMarker => {
    const marker = { atMs: Math.max(0, epochNowMs() - runStartEpochMs), tuning, changed };
    markers.push(marker);
    onMarker?.(marker);
    return marker;
  };
  mark([]);
  // One retune at a time: a replica count half applied must not meet the next change.
  let queue: Promise<unknown> = Promise.resolve();

  const apply = async (change: Partial<LiveTuning>): Promise<RunMarker> => {
    const before = tuning;
    const after = { ...before, ...change };
    const changed = changedKnobs(before, after);
    const profileMoved = changed.some((knob) => PROFILE_KNOBS.has(knob));
    if (profileMoved) testbed.setProfile(profileWithTuning(baseProfile, after));
    // New replicas serve before the engine sends to them; leaving ones stop once the engine's
    // requests to them are done.
    if (after.replicas > urls.length) urls = await testbed.setReplicas(after.replicas);
    const leaving = after.replicas < urls.length;
    if (leaving) urls = urls.slice(0, after.replicas);
    tuning = after;
    const applied = tuner.retune(engineTuning());
    // The engine's next requests follow the change: the marker is placed now.
    const marker = mark(changed);
    if (leaving) {
      await applied;
      await testbed.setReplicas(after.replicas);
    }
    return marker;
  };

  return {
    get tuning() {
      return tuning;
    },
    markers,
    tuner,
    retune(change) {
      const applied = queue.then(() => apply(change));
      queue = applied.catch(() => {});
      return applied;
    },
  };
}

const PROFILE_KNOBS: ReadonlySet<keyof LiveTuning> = new Set([
  "serviceMs",
  "stallProbability",
  "stallMs",
]);
