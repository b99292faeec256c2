import type {
  ClientSecond,
  ActiveRun,
  ApiError,
  IntervalStats,
  LiveIntervals,
  LivePercentiles,
  LiveTuning,
  Operation,
  RunEvent,
  RunPointParams,
  RunMarker,
  RunProgress,
  RunSeries,
  RunNotice,
  RunStatus,
  ShardsStatus,
} from "@taillab/api";
/**
 * What the live screen shows, folded from the run events by `reduceRunEvent`. Pure, so the
 * whole life of a run (and the percentiles over time's cap) is tested without a backend or a
 * clock.
 */

/** The percentiles per second of the phase running now, in time order. */
export type OverTimeSeries = LiveIntervals;

export interface FinishedRun {
  status: Extract<RunStatus, "complete" | "stopped" | "serverLost" | "failed">;
  /** Why a failed run failed, as the backend said it (fields and codes kept for the screen). */
  error: ApiError | null;
  series: RunSeries;
  seriesRunIds: string[];
}

export interface Notice {
  id: number;
  /** In English, as the backend wrote it. */
  message: string;
  /** The same as data, when the backend sent it: the screen says it in its language. */
  notice?: RunNotice;
}

/** One phase's figures as its last event left them. */
export interface PhaseFigures {
  progress: RunProgress;
  percentiles: LivePercentiles | null;
  /** Over the phase's newest seconds (null when the host does not send them). */
  recentPercentiles: LivePercentiles | null;
  overTime: OverTimeSeries | null;
}

export interface LiveRunState {
  /** starting: startRun answered but the run's first event has not arrived. */
  status: "idle" | "starting" | "running" | "finished";
  runId: string | null;
  name: string;
  points: RunPointParams[];
  /** Every request of the run (all points, phases and repetitions); 0 when not known. */
  requestCount: number;
  series: RunSeries | null;
  progress: RunProgress | null;
  percentiles: LivePercentiles | null;
  recentPercentiles: LivePercentiles | null;
  /** Requests and time of the phases finished before the current one (progress is per phase). */
  doneBefore: number;
  elapsedBefore: number;
  overTime: OverTimeSeries | null;
  /** The client's newest seconds (whether TailLab kept up), by start; the timeline's seconds. */
  client: ClientSecond[];
  /**
   * The latest phase that measured reads or writes (not the cleanup's DELETEs): what the screen
   * keeps showing once the run is over.
   */
  measured: PhaseFigures | null;
  /**
   * The runs of a mode series before this one: their requests, and their time (null when the
   * UI joined the series part way and did not see them).
   */
  seriesDoneBefore: number;
  seriesElapsedBefore: number | null;
  notices: Notice[];
  finished: FinishedRun | null;
  stopping: boolean;
  /** A live session's knobs as they are now; null for a run without knobs. */
  tuning: LiveTuning | null;
  /** A live session's knob changes so far (its start left out), in time order. */
  markers: RunMarker[];
  /** A distributed run's shards (pods ready, at the barrier, running, done, failed); else null. */
  shards: ShardsStatus | null;
}

/** An hour of seconds: older ones go, so a run left going all day stays cheap to draw. */
export const MAX_OVER_TIME_INTERVALS = 3600;
const MAX_NOTICES = 50;

export const IDLE_RUN: LiveRunState = {
  status: "idle",
  runId: null,
  name: "",
  points: [],
  requestCount: 0,
  series: null,
  progress: null,
  client: [],
  percentiles: null,
  recentPercentiles: null,
  doneBefore: 0,
  elapsedBefore: 0,
  overTime: null,
  measured: null,
  seriesDoneBefore: 0,
  seriesElapsedBefore: 0,
  notices: [],
  finished: null,
  stopping: false,
  tuning: null,
  markers: [],
  shards: null,
};

/** The cleanup phase's operation: its latencies say little about the server under test. */
const CLEANUP_OP: Operation = "DELETE";

export function reduceRunEvent(state: LiveRunState, event: RunEvent): LiveRunState {
  switch (event.type) {
    case "started":
      return {
        ...IDLE_RUN,
        ...seriesBefore(state, event),
        status: "running",
        runId: event.runId,
        name: event.name,
        points: event.points,
        requestCount: event.requestCount,
        series: event.series,
        tuning: event.tuning ?? null,
      };
    case "retuned":
      if (event.runId !== state.runId) return state;
      return withMarker(state, event.marker);
    case "progress":
      return applyProgress(state, event);
    case "shards":
      if (state.runId !== null && event.runId !== state.runId) return state;
      return { ...state, shards: event.status };
    case "notice":
      if (state.runId !== null && event.runId !== state.runId) return state;
      return { ...state, notices: withNotice(state.notices, event.message, event.notice) };
    case "finished": {
      const known = state.runId === event.runId;
      return {
        ...(known ? state : { ...IDLE_RUN, runId: event.runId }),
        status: "finished",
        series: event.series,
        stopping: false,
        finished: {
          status: event.status,
          error: event.error,
          series: event.series,
          seriesRunIds: event.seriesRunIds,
        },
      };
    }
  }
}

/** A knob change: the knobs as it left them, and its marker (once, whoever reports it first). */
export function withMarker(state: LiveRunState, marker: RunMarker): LiveRunState {
  const known = state.markers.some((each) => each.atMs === marker.atMs);
  return {
    ...state,
    tuning: marker.tuning,
    markers: known || marker.changed.length === 0 ? state.markers : [...state.markers, marker],
  };
}

/** The notices with one more at the end; the oldest go past MAX_NOTICES. */
export function withNotice(
  notices: readonly Notice[],
  message: string,
  notice?: RunNotice,
): Notice[] {
  const id = (notices.at(-1)?.id ?? 0) + 1;
  return [...notices, { id, message, ...(notice ? { notice } : {}) }].slice(-MAX_NOTICES);
}

function applyProgress(
  state: LiveRunState,
  event: Extract<RunEvent, { type: "progress" }>,
): LiveRunState {
  const { progress } = event;
  // A late event of a run already over must not bring it back to life.
  if (state.status === "finished" && state.runId === progress.runId) return state;
  // Joined mid-run (the UI opened while one ran): start from this event.
  const base = state.runId === progress.runId ? state : { ...IDLE_RUN, runId: progress.runId };
  const previous = base.progress;
  const newPhase =
    previous !== null &&
    (previous.pointIndex !== progress.pointIndex ||
      previous.op !== progress.op ||
      progress.done < previous.done);
  const percentiles = event.percentiles ?? (newPhase ? null : base.percentiles);
  const recentPercentiles = event.recentPercentiles ?? null;
  const current = newPhase ? null : base.overTime;
  const overTime = event.intervals ? mergeIntervals(current, event.intervals) : current;
  const client = mergeClientSeconds(newPhase ? [] : base.client, event.client ?? []);
  return {
    ...base,
    status: "running",
    progress,
    percentiles,
    recentPercentiles,
    client,
    doneBefore: base.doneBefore + (newPhase ? previous.done : 0),
    elapsedBefore: base.elapsedBefore + (newPhase ? previous.elapsedMs : 0),
    overTime,
    measured:
      progress.op === CLEANUP_OP
        ? base.measured
        : { progress, percentiles, recentPercentiles, overTime },
  };
}

/**
 * Where a run starts in its mode series: the next run of the series being followed adds the
 * previous run's requests and time; a run joined part way through a series only knows that the
 * runs before it did as many requests as it will.
 */
function seriesBefore(
  state: LiveRunState,
  event: Extract<RunEvent, { type: "started" }>,
): Pick<LiveRunState, "seriesDoneBefore" | "seriesElapsedBefore"> {
  const { index } = event.series;
  if (index === 0) return { seriesDoneBefore: 0, seriesElapsedBefore: 0 };
  const followed =
    state.runId !== event.runId &&
    state.series?.count === event.series.count &&
    state.series.index === index - 1;
  if (!followed) return { seriesDoneBefore: index * event.requestCount, seriesElapsedBefore: null };
  const previous = overallProgress(state);
  return {
    seriesDoneBefore: state.seriesDoneBefore + previous.done,
    seriesElapsedBefore:
      state.seriesElapsedBefore === null ? null : state.seriesElapsedBefore + previous.elapsedMs,
  };
}

/**
 * The phase the screen shows: the one running, or after the run, the last one that measured
 * reads or writes when the run ended with its cleanup. `kept` says it is not the last phase.
 */
export function shownPhase(state: LiveRunState): (PhaseFigures & { kept: boolean }) | null {
  const { progress, percentiles, recentPercentiles, overTime, measured } = state;
  if (!progress) return null;
  const ended = state.status === "finished";
  if (ended && progress.op === CLEANUP_OP && measured) return { ...measured, kept: true };
  return { progress, percentiles, recentPercentiles, overTime, kept: false };
}

/** The seconds the live chart draws: the shown phase's percentiles and the client's health. */
export interface ChartSeconds {
  overTime: OverTimeSeries | null;
  client: readonly ClientSecond[];
}

/**
 * The seconds the live chart draws, renewed only when a second of latencies begins (of the
 * client's health, before there are any), the phase changes or the run ends. Events come several
 * times a second, each with the second still filling; redrawing for each adds nothing to a chart
 * of whole seconds and costs the page a chart's update each time. When a second begins the
 * seconds before it are complete; the newest shows its first figures until the next one begins.
 * One selector per chart (it keeps what it last answered).
 */
export function secondsAsTheyBegin(): (state: LiveRunState) => ChartSeconds {
  let kept: ChartSeconds = { overTime: null, client: [] };
  return (state) => {
    const overTime = shownPhase(state)?.overTime ?? null;
    const { client } = state;
    // The client's seconds begin on their own clock's tick: following them too would draw
    // twice a second.
    const begun =
      state.status === "finished" ||
      !sameSeconds(kept.overTime, overTime) ||
      (overTime === null && !sameStarts(kept.client, client));
    if (begun && (kept.overTime !== overTime || kept.client !== client))
      kept = { overTime, client };
    return kept;
  };
}

/** The same phase with the same seconds (their figures aside). */
function sameSeconds(a: OverTimeSeries | null, b: OverTimeSeries | null): boolean {
  if (a === null || b === null) return a === b;
  return a.pointIndex === b.pointIndex && a.op === b.op && sameStarts(a.intervals, b.intervals);
}

function sameStarts(a: readonly { startMs: number }[], b: readonly { startMs: number }[]) {
  return a.length === b.length && a.at(-1)?.startMs === b.at(-1)?.startMs;
}

/**
 * Why the shown phase has no latencies to draw yet: no answer has come back (waiting), every
 * request it sent failed (failed), or the run ended without timing one (none). Null when it has.
 */
export function missingLatencies(state: LiveRunState): "waiting" | "failed" | "none" | null {
  const shown = shownPhase(state);
  if ((shown?.percentiles?.count ?? 0) > 0) return null;
  const progress = shown?.progress;
  if (progress && progress.done > 0 && progress.errors >= progress.done) return "failed";
  return state.status === "finished" ? "none" : "waiting";
}

/**
 * Adds an event's intervals to the phase's: an interval seen before (the second still filling)
 * is replaced, a new one appended; another point or operation starts afresh. Past the cap the
 * oldest seconds go.
 */
export function mergeIntervals(
  current: OverTimeSeries | null,
  incoming: LiveIntervals,
  max = MAX_OVER_TIME_INTERVALS,
): OverTimeSeries {
  const continues =
    current !== null && current.pointIndex === incoming.pointIndex && current.op === incoming.op;
  const byStart = new Map<number, IntervalStats>(
    continues ? current.intervals.map((interval) => [interval.startMs, interval]) : [],
  );
  for (const interval of incoming.intervals) byStart.set(interval.startMs, interval);
  const intervals = [...byStart.values()].sort((a, b) => a.startMs - b.startMs).slice(-max);
  return { pointIndex: incoming.pointIndex, op: incoming.op, intervals };
}

/**
 * The run in progress when the UI (re)opens. Before any event was seen, the phases already done
 * are estimated from the points' sample counts, so the progress bar and ETA start near the truth.
 */
export function adoptActiveRun(
  state: LiveRunState,
  active: ActiveRun,
  nowMs: number,
): LiveRunState {
  if (state.runId !== null && state.runId !== active.runId) return state;
  if (state.status === "finished") return state;
  const progress = state.progress ?? active.lastProgress;
  const joinedNow = state.progress === null || state.doneBefore === 0;
  const estimate = progress && joinedNow ? estimateBefore(active, progress, nowMs) : null;
  // Its "started" event was not seen: the runs of the series before it were not either.
  const unseenSeries = state.series === null && active.series.index > 0;
  return {
    ...state,
    ...(unseenSeries
      ? { seriesDoneBefore: active.series.index * active.requestCount, seriesElapsedBefore: null }
      : {}),
    status: "running",
    runId: active.runId,
    name: active.name,
    points: active.points,
    requestCount: active.requestCount,
    series: active.series,
    tuning: active.tuning ?? state.tuning,
    markers: (active.markers ?? state.markers).filter((marker) => marker.changed.length > 0),
    progress,
    shards: state.shards ?? active.shards,
    doneBefore: estimate?.done ?? state.doneBefore,
    elapsedBefore: estimate?.elapsedMs ?? state.elapsedBefore,
  };
}

function estimateBefore(active: ActiveRun, progress: RunProgress, nowMs: number) {
  const samples = active.points.map((point) => point.samples);
  const allSamples = samples.reduce((sum, value) => sum + value, 0);
  const perSample = allSamples > 0 ? active.requestCount / allSamples : 0;
  const samplesBefore = samples
    .slice(0, progress.pointIndex)
    .reduce((sum, value) => sum + value, 0);
  const runMs = nowMs - Date.parse(active.startedAt);
  return {
    done: Math.round(samplesBefore * perSample),
    elapsedMs: Math.max(0, runMs - progress.elapsedMs),
  };
}

export interface OverallProgress {
  done: number;
  /** 0: no total is known (an open loop until stopped): done only counts. */
  total: number;
  /** 0…1 */
  fraction: number;
  elapsedMs: number;
  /** null until there is a rate to go by. */
  etaMs: number | null;
}

/** The whole run's progress, from the phase's figures and the phases before it. */
export function overallProgress(state: LiveRunState): OverallProgress {
  const phase = state.progress;
  const total = state.requestCount > 0 ? state.requestCount : (phase?.total ?? 0);
  // Only a run that ran to its end did every request.
  const complete = state.finished?.status === "complete";
  const counted =
    state.requestCount > 0 ? state.doneBefore + (phase?.done ?? 0) : (phase?.done ?? 0);
  const done = total === 0 ? counted : complete ? total : Math.min(total, counted);
  // The run's clock when the host sends it: the one the timeline's seconds and markers are on.
  const elapsedMs = phase?.runElapsedMs ?? state.elapsedBefore + (phase?.elapsedMs ?? 0);
  const running = state.status === "running" && done > 0 && done < total;
  return {
    done,
    total,
    fraction: total > 0 ? done / total : 0,
    elapsedMs,
    etaMs: running ? (elapsedMs * (total - done)) / done : null,
  };
}

/**
 * The whole mode series' progress (the run's own when it is not part of one). The runs of a
 * series differ only in mode, so each does as many requests as the one running now. Without the
 * earlier runs' time (joined part way), the time left goes by this run's pace.
 */
export function seriesProgress(state: LiveRunState): OverallProgress {
  const run = overallProgress(state);
  const count = state.series?.count ?? 1;
  if (count <= 1) return run;
  const total = run.total * count;
  const done = Math.min(total, state.seriesDoneBefore + run.done);
  const elapsedMs =
    state.seriesElapsedBefore === null ? null : state.seriesElapsedBefore + run.elapsedMs;
  const msPerRequest =
    elapsedMs !== null && done > 0 ? elapsedMs / done : run.done > 0 ? run.elapsedMs / run.done : 0;
  const running = state.status === "running" && done > 0 && done < total && msPerRequest > 0;
  return {
    done,
    total,
    fraction: total > 0 ? done / total : 0,
    elapsedMs: elapsedMs ?? run.elapsedMs,
    etaMs: running ? msPerRequest * (total - done) : null,
  };
}

/**
 * Seconds of the client's health kept for the live view: as many as the timeline keeps, so its
 * client-bound marks cover every second it draws.
 */
const CLIENT_SECONDS_KEPT = MAX_OVER_TIME_INTERVALS;

/** Adds an event's client seconds: one seen before (still filling) takes its newest figures. */
function mergeClientSeconds(
  current: readonly ClientSecond[],
  incoming: readonly ClientSecond[],
): ClientSecond[] {
  if (incoming.length === 0) return current as ClientSecond[];
  const byStart = new Map(current.map((second) => [second.startMs, second]));
  for (const second of incoming) byStart.set(second.startMs, second);
  return [...byStart.values()].sort((a, b) => a.startMs - b.startMs).slice(-CLIENT_SECONDS_KEPT);
}
