import {
  operationLabels,
  type ClientBottleneck,
  type Operation,
  type RequestMode,
  type RunStatus,
} from "@taillab/api";
import { MISSED_START_TOLERANCE_MS, type ClientAdvice, type PointParam } from "@taillab/core";
import { formatInteger } from "./report-format.ts";

export type ReportLanguage = "en" | "zh-CN";
export const REPORT_LANGUAGES: readonly ReportLanguage[] = ["en", "zh-CN"];

/** Every word a report shows; numbers and units are formatted the same in every language. */
export interface ReportMessages {
  runReportTitle: string;
  comparisonTitle: (runs: number) => string;
  generatedBy: (version: string) => string;
  legendHint: string;
  stoppedEarly: string;
  /**
   * The server stopped answering at `at` (HH:MM:SS UTC) and ended `phases` early; `notRun`:
   * the phases the run then never started (empty when it went on, or ended at its last phase).
   */
  serverLost: (at: string, phases: string, notRun: string) => string;
  /** Followed by the store's own lines saying what is wrong. */
  damaged: string;
  contents: string;

  overview: string;
  runName: string;
  runId: string;
  status: string;
  statusNames: Record<RunStatus, string>;
  failure: string;
  created: string;
  started: string;
  finished: string;
  tags: string;
  notes: string;
  mode: string;
  modeNames: Record<RequestMode, string>;
  /** For chart ticks: one word. */
  modeShort: Record<RequestMode, string>;
  loop: string;
  loopNames: Record<"closed" | "open", string>;
  endpoints: string;
  none: string;

  spec: string;
  setting: string;
  value: string;
  specLabels: Record<string, string>;
  credentialsEnv: (accessKeyVar: string, secretVar: string) => string;
  credentialsKeychain: (id: string) => string;
  credentialsAnonymous: string;
  embeddedTestbed: string;
  testbedSpec: (replicas: number, profile: string, seed: number) => string;
  hedgeSpec: (
    delay: string,
    budgetPct: string,
    tiedDelay: string | null,
    minSamples: number,
  ) => string;
  openLoopSpec: (
    rateHz: string,
    arrivals: string,
    durationS: string | null,
    seed: number,
  ) => string;
  yes: string;
  no: string;

  environment: string;
  taillabVersion: string;
  operatingSystem: string;
  cpu: string;
  cpuCores: (count: number) => string;
  memory: string;
  nodeVersion: string;
  serverHeader: string;
  /** An imported run's origin (`taillab runs import`). */
  importedFrom: string;
  importedFile: string;
  notInFile: string;
  /** What the file does not carry, as the store words it (English), or counted. */
  notInFileText: (lines: readonly string[]) => string;

  results: string;
  resultsIntro: string;
  sweepTable: string;
  point: string;
  pointTitle: (index: number, params: string) => string;
  pointParams: (clients: number, samples: number, size: string) => string;
  clients: string;
  samples: string;
  objectSize: string;
  operation: string;
  opNames: Record<Operation, string>;
  requests: string;
  transferred: string;
  throughput: string;
  opsPerSec: string;
  duration: string;
  errors: string;
  errorsByCode: string;
  /** Requests a stop cut off in flight (PhaseSummary.cutOff): recorded, not in the figures. */
  cutOff: string;
  latencyRow: (percentile: string) => string;
  latencyMin: string;
  latencyMax: string;
  latencyMean: string;
  ttfbRow: (percentile: string) => string;
  serviceRow: (percentile: string) => string;
  missedStarts: string;
  openLoopNote: string;
  clientQueueRow: (percentile: string) => string;
  /** The first attempt's wait for a new connection (TCP + TLS). */
  connectRow: (percentile: string) => string;
  /** The answering attempt's request body on the wire. */
  uploadRow: (percentile: string) => string;
  /** A figure a run recorded before it existed does not have (connects and uploads). */
  notRecorded: string;
  transferRow: (percentile: string) => string;
  steadyThroughput: string;
  steadyOps: string;
  pointStopped: string;

  overTimeTitle: string;
  overTimeAxis: string;
  overTimeNote: string;
  /** The legend entry of the seconds whose client was the bottleneck. */
  overTimeClientBound: string;
  /** The legend entry of each second's percentile intervals. */
  overTimeInterval: string;
  /** What the shaded intervals are, and where they stop where the requests do not bound them. */
  overTimeIntervalNote: string;
  /** A second's percentile with fewer than FEW_REQUESTS_BEYOND requests slower than it. */
  overTimeRestsOn: (beyond: number) => string;
  /** How many seconds' `percentile` rest on fewer than `fewBelow` slower requests. */
  overTimeFewSeconds: (
    percentile: string,
    few: number,
    seconds: number,
    fewBelow: number,
  ) => string;
  /**
   * Throughput, data moved and errors over time: each second's answers, MiB and failures per
   * second; `byCode` says the errors are stacked by code, `notRecorded` that a run stored before
   * seconds kept their bytes and codes has neither.
   */
  ratesOverTime: Record<
    "throughput" | "errors" | "data",
    { title: string; axis: string; line: string; note: string }
  > & { byCode: string; notRecorded: string };
  tailTitle: string;
  tailSlowest: (share: string) => string;
  tailHeaders: readonly [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  tailNote: string;
  /** Whether TailLab's own client kept up in a phase, and what a closed loop leaves out. */
  client: {
    keptUp: string;
    bottleneck: (reasons: string, advice: string) => string;
    /** A distributed run: the shards whose client was the bottleneck. */
    boundShards: (shards: string) => string;
    reasons: Record<ClientBottleneck, string>;
    advice: Record<ClientAdvice, string>;
    or: string;
    tailStall: (p99Ms: string, p999Ms: string) => string;
    arrivalsKept: (missed: string) => string;
    arrivalsShed: (shed: string) => string;
    omissionNote: string;
    omissionGap: (gapMs: string, p99Ms: string) => string;
    omissionMax: (ratio: string) => string;
    rerun: (flags: string) => string;
  };
  /** Under a table whose p99.9 of some phase is marked * (fewer than 1 000 answered requests). */
  p999Note: string;
  /** What the [lo, hi] beside each percentile is. */
  intervalNote: (confidencePct: number, precisionPct: number) => string;
  /** `GET p99.9 from 4,000 requests rests on 4`. */
  restsOn: (op: string, percentile: string, count: number, beyond: number) => string;
  maxColumn: string;

  latency: string;
  latencyMs: string;
  requestIndex: string;
  latencyByIndexTitle: string;
  latencyByIndexNote: (requests: string, buckets: string) => string;
  bandLabel: string;
  meanLabel: string;
  p99Label: string;
  histogramTitle: string;
  requestsLogScale: string;
  cdfTitle: string;
  cdfAxis: string;
  measuredCdf: string;
  exponentialModel: string;
  lognormalModel: string;
  measuredP99: string;
  modelP99: string;
  fitExponential: (
    t0: string,
    alpha: string,
    ks: string,
    predicted: string,
    measured: string,
  ) => string;
  fitLognormal: (median: string, sigma: string, ks: string, predicted: string) => string;
  fitExplanation: string;
  noLatencies: string;
  noSeries: string;
  noHistogram: string;

  ladderTitle: string;
  ladderOpTitle: (op: string, point: string) => string;
  percentile: string;
  ladderNote: string;
  ladderChartTitle: string;

  sweepTitle: string;
  againstSize: string;
  againstConcurrency: string;
  throughputMBps: string;
  opsPerSecAxis: string;
  sweepThroughputTitle: (axis: string) => string;
  sweepOpsTitle: (axis: string) => string;
  sweepLatencyTitle: (op: string, axis: string) => string;
  concurrencyAxis: string;
  objectSizeAxis: string;
  /** What a sweep line holds fixed, one part each; the parts are joined by `seriesJoin`. */
  seriesClients: (clients: number) => string;
  seriesSamples: (samples: number) => string;
  seriesPerPoint: (size: string) => string;
  seriesJoin: string;

  hedgeTitle: string;
  hedgeIntro: string;
  hedgeDelay: string;
  hedgeBudget: string;
  attempts: string;
  extraRequests: string;
  cancelled: string;
  notSent: string;
  reconnects: string;
  wastedBytes: string;
  wonByBackup: string;
  noneSent: string;

  testbedTitle: string;
  replica: string;
  received: string;
  completed: string;
  abandoned: string;

  comparedRuns: string;
  baseline: string;
  baselineMark: string;
  comparisonTable: string;
  comparisonIntro: string;
  /** A run sharing no point with the baseline, paired with it in order: what differs. */
  pairedInOrder: (run: string, differences: string[]) => string;
  paramDifference: (param: PointParam, values: string, baselineValues: string) => string;
  metric: string;
  delta: string;
  missing: string;
  /** Beside a percentile's change: whether it is beyond chance, and how that was judged. */
  significant: string;
  notSignificant: string;
  significanceNote: string;
  metricNames: Record<string, string>;
  specComparison: string;
  cdfComparisonTitle: string;
  cdfOverlayTitle: (op: string, point: string) => string;
  modesSection: string;
  modesIntro: string;
  modeTailTitle: (op: string, point: string) => string;
  modeCostTitle: (op: string, point: string) => string;
  wastedMiB: string;
}

const en: ReportMessages = {
  runReportTitle: "TailLab run report",
  comparisonTitle: (runs) => `TailLab comparison of ${runs} runs`,
  generatedBy: (version) =>
    `Generated by TailLab ${version}. Opens offline; no data leaves this file.`,
  legendHint: "Click a legend entry to hide or show its line.",
  stoppedEarly: "This run was stopped early: the figures cover what was measured before the stop.",
  serverLost: (at, phases, notRun) =>
    `The server stopped answering at ${at}: ${phases} ended early.${notRun ? ` It did not answer again, so the run ended there; not run: ${notRun}.` : ""}`,
  damaged: "This run's folder is damaged: the figures cover what could be read.",
  contents: "Contents",

  overview: "Overview",
  runName: "Run name",
  runId: "Run ID",
  status: "Status",
  statusNames: {
    running: "running",
    complete: "complete",
    stopped: "stopped",
    serverLost: "server stopped answering",
    interrupted: "interrupted",
    failed: "failed",
  },
  failure: "Failure",
  created: "Created",
  started: "Started",
  finished: "Finished",
  tags: "Tags",
  notes: "Notes",
  mode: "Request mode",
  modeNames: {
    normal: "normal (one attempt)",
    hedged: "hedged requests",
    tied: "tied requests (client cancel)",
    adaptive: "adaptive hedging",
    "tied-server": "tied requests (server cancel)",
  },
  modeShort: {
    normal: "normal",
    hedged: "hedged",
    tied: "tied",
    adaptive: "adaptive",
    "tied-server": "tied (server)",
  },
  loop: "Load model",
  loopNames: { closed: "closed loop", open: "open loop" },
  endpoints: "Endpoints",
  none: "none",

  spec: "Workload specification",
  setting: "Setting",
  value: "Value",
  specLabels: {
    name: "Name",
    endpoints: "Endpoints",
    bucket: "Bucket",
    keyPrefix: "Key prefix",
    phases: "Phases",
    clients: "Clients",
    samples: "Samples (requests per phase)",
    objectSize: "Object size",
    transport: "Transport",
    workers: "Worker threads",
    verify: "Verify reads",
    createBucket: "Create bucket",
    openLoop: "Open loop",
    mode: "Request mode",
    hedge: "Hedging",
    replicaChoice: "Replica choice",
    testbed: "Embedded testbed",
    credentials: "Credentials",
  },
  credentialsEnv: (accessKeyVar, secretVar) =>
    `from environment variables ${accessKeyVar} and ${secretVar}`,
  credentialsKeychain: (id) => `from the OS keychain (entry ${id})`,
  credentialsAnonymous: "anonymous",
  embeddedTestbed: "embedded testbed",
  testbedSpec: (replicas, profile, seed) =>
    `embedded testbed: ${replicas} replica${replicas === 1 ? "" : "s"}, latency profile "${profile}", seed ${seed}`,
  hedgeSpec: (delay, budgetPct, tiedDelay, minSamples) =>
    `backup after ${delay}, budget ${budgetPct} % extra requests${tiedDelay === null ? "" : `, tied copy after ${tiedDelay}`}, hedging from ${minSamples} samples on`,
  openLoopSpec: (rateHz, arrivals, durationS, seed) =>
    `${rateHz} requests/s, ${arrivals === "poisson" ? "Poisson" : "fixed-rate"} arrivals${durationS === null ? "" : `, for ${durationS} s`}, seed ${seed}`,
  yes: "yes",
  no: "no",

  environment: "Environment",
  taillabVersion: "TailLab version",
  operatingSystem: "Operating system",
  cpu: "CPU",
  cpuCores: (count) => `${count} logical cores`,
  memory: "Memory",
  nodeVersion: "Node.js",
  serverHeader: "Server header",
  importedFrom: "Imported from",
  importedFile: "Imported file",
  notInFile: "Not in the file",
  notInFileText: (lines) => `${lines.join("; ")}. These figures are left blank, never made up.`,

  results: "Results",
  resultsIntro:
    "s3bench-style summary per point and phase. Latencies are of successful requests, in milliseconds; MB means MiB (2²⁰ bytes), as s3bench prints it.",
  sweepTable: "All points at a glance",
  point: "Point",
  pointTitle: (index, params) => `Point ${index}: ${params}`,
  pointParams: (clients, samples, size) =>
    `${clients} ${clients === 1 ? "client" : "clients"} × ${formatInteger(samples)} ${samples === 1 ? "sample" : "samples"} × ${size}`,
  clients: "Clients",
  samples: "Samples",
  objectSize: "Object size",
  operation: "Operation",
  opNames: operationLabels("en", "report"),
  requests: "Requests",
  transferred: "Total transferred (MB)",
  throughput: "Total throughput (MB/s)",
  opsPerSec: "Operations per second",
  duration: "Total duration (s)",
  errors: "Number of errors",
  errorsByCode: "Errors by code",
  cutOff: "Cut off by the stop (recorded, not in the figures)",
  latencyRow: (percentile) => `Latency ${percentile} (ms)`,
  latencyMin: "Latency min (ms)",
  latencyMax: "Latency max (ms)",
  maxColumn: "max (ms)",
  latencyMean: "Latency mean (ms)",
  ttfbRow: (percentile) => `Time to first byte ${percentile} (ms)`,
  serviceRow: (percentile) => `Service time ${percentile} (ms)`,
  missedStarts: `Missed starts (> ${MISSED_START_TOLERANCE_MS} ms late)`,
  p999Note:
    "* p99.9 needs ≥ 1,000 requests. A phase marked * answered fewer, so its p99.9 is its slowest request (the max), not a tail estimate.",
  intervalNote: (confidencePct, precisionPct) =>
    `[lo, hi] beside a percentile: its ${confidencePct} % confidence interval from order statistics (distribution-free; 0 or ∞ where the requests do not bound it); the histogram adds ±${precisionPct} %.`,
  restsOn: (op, percentile, count, beyond) =>
    `${op} ${percentile} from ${formatInteger(count)} requests rests on ${formatInteger(beyond)}`,
  openLoopNote:
    "Open loop: latencies count from each request's scheduled start (no coordinated omission); service times count from the actual send.",
  clientQueueRow: (percentile) => `Client queue ${percentile} (ms)`,
  connectRow: (percentile) => `Connect, TCP + TLS ${percentile} (ms)`,
  uploadRow: (percentile) => `Upload ${percentile} (ms)`,
  notRecorded: "not recorded",
  transferRow: (percentile) => `Transfer ${percentile} (ms)`,
  steadyThroughput: "Steady throughput, every client busy (MB/s)",
  steadyOps: "Steady operations per second",
  pointStopped: "stopped in this point: the figures cover what was measured",

  overTimeTitle: "Percentiles over time",
  overTimeAxis: "Seconds since the run started",
  overTimeNote:
    "Each second's successful requests, by when they were answered (HdrHistogram interval histograms).",
  overTimeClientBound: "client was the bottleneck",
  overTimeInterval: "95 % interval",
  overTimeIntervalNote:
    "Shaded: each second's 95 % interval of each percentile (order statistics), drawn up to the second's slowest request where the requests do not bound it.",
  overTimeRestsOn: (beyond) => `rests on ${formatInteger(beyond)} slower requests`,
  overTimeFewSeconds: (percentile, few, seconds, fewBelow) =>
    `${percentile} rests on fewer than ${fewBelow} slower requests in ${formatInteger(few)} of ${formatInteger(seconds)} seconds.`,
  ratesOverTime: {
    throughput: {
      title: "Throughput over time",
      axis: "Requests per second",
      line: "answered",
      note: "Successful requests answered in each second, by when they were answered.",
    },
    errors: {
      title: "Errors over time",
      axis: "Errors per second",
      line: "failed",
      note: "Requests that failed in each second, by when they failed.",
    },
    data: {
      title: "Data moved over time",
      axis: "MB/s",
      line: "moved",
      note: "MiB that successful requests moved in each second (MB means MiB), by when they were answered.",
    },
    byCode: "Stacked by error code.",
    notRecorded:
      "Not recorded: this run was stored before TailLab kept each second's bytes and error codes.",
  },
  tailTitle: "Where the tail went",
  tailSlowest: (share) => `slowest ${share}`,
  tailHeaders: [
    "",
    "Requests",
    "From (ms)",
    "Mean (ms)",
    "Client queue (ms)",
    "Connect (ms)",
    "Backup wait (ms)",
    "Upload (ms)",
    "Server (ms)",
    "Transfer (ms)",
  ],
  tailNote:
    "The slowest requests' time, part by part: waiting in the client (schedule, signing, a free connection), opening a new connection (TCP + TLS), waiting for a backup to be sent, sending the request body (upload), waiting for the server's first byte, and receiving the body (download). The parts add up to the mean.",
  client: {
    keptUp: "TailLab's client kept up.",
    bottleneck: (reasons, advice) =>
      `TailLab's own client was the bottleneck in this phase, not the server: ${reasons}. Try ${advice}.`,
    boundShards: (shards) => `The shards whose client was the bottleneck: ${shards}.`,
    reasons: {
      cpu: "its CPU use was near the cores it may use",
      "clients-per-worker":
        "a worker thread was busy nearly all the time (too many clients per worker)",
      "event-loop-delay": "its workers could not run for a tenth or more of the latency measured",
      "schedule-behind": "the open loop fell behind its schedule",
    },
    advice: {
      "fewer-clients": "fewer clients or a lower rate",
      "more-workers": "more workers",
      "server-elsewhere": "running the server on another machine",
    },
    or: ", or ",
    tailStall: (p99Ms, p999Ms) =>
      `Of the slowest requests' server time, the client's own stall (its worker could not run while the answer waited): ${p99Ms} ms for the slowest 1 %, ${p999Ms} ms for the slowest 0.1 %.`,
    arrivalsKept: (missed) =>
      `Every arrival was kept: the ${missed} that started late count from their schedule (the open loop's point).`,
    arrivalsShed: (shed) =>
      `${shed} arrivals were shed: the live lab drops arrivals more than a second behind, so it keeps answering its knobs.`,
    omissionNote:
      "Closed loop: each client waits for its answer, so slow moments send fewer requests and weigh less (coordinated omission).",
    omissionGap: (gapMs, p99Ms) =>
      `Coordinated omission: nothing completed for ${gapMs} ms while every client waited (p99 ${p99Ms} ms); the percentiles leave out what requests arriving then would have seen.`,
    omissionMax: (ratio) =>
      `Coordinated omission: the slowest request took ${ratio}× the p99; the percentiles leave out what requests arriving during it would have seen.`,
    rerun: (flags) => `The open-loop equivalent, just under this throughput: taillab run ${flags}`,
  },

  latency: "Latency",
  latencyMs: "Latency (ms)",
  requestIndex: "Request index",
  latencyByIndexTitle: "Latency by request index",
  latencyByIndexNote: (requests, buckets) =>
    `${requests} requests in ${buckets} columns: the band spans each column's fastest and slowest request, so a single stall still shows as a spike.`,
  bandLabel: "min–max",
  meanLabel: "mean",
  p99Label: "p99",
  histogramTitle: "Latency distribution",
  requestsLogScale: "Requests (log scale)",
  cdfTitle: "Cumulative distribution (CDF) and queueing-model fit",
  cdfAxis: "Fraction of requests at or below",
  measuredCdf: "measured",
  exponentialModel: "exponential model",
  lognormalModel: "lognormal model",
  measuredP99: "measured p99",
  modelP99: "model p99",
  fitExponential: (t0, alpha, ks, predicted, measured) =>
    `Shifted exponential F(t) = 1 − e^(−α(t − t₀)): t₀ = ${t0} ms, α = ${alpha} per ms, KS distance ${ks}. Predicted p99 ${predicted} ms; measured p99 ${measured} ms.`,
  fitLognormal: (median, sigma, ks, predicted) =>
    `Lognormal: median e^μ = ${median} ms, σ = ${sigma}, KS distance ${ks}, predicted p99 ${predicted} ms.`,
  fitExplanation:
    "Maximum-likelihood fits: t₀ is the fastest request and 1/α the mean time above it; μ and σ are the mean and standard deviation of ln t. The KS distance is the largest vertical gap between the measured and the model CDF (smaller fits better).",
  noLatencies: "No successful requests: nothing to chart.",
  noSeries: "No per-request series was stored for this phase.",
  noHistogram: "No histogram was stored for this phase.",

  ladderTitle: "Percentile ladder",
  ladderOpTitle: (op, point) => `${op} — ${point}`,
  percentile: "Percentile",
  ladderNote:
    "Each step right adds a nine (p90, p99, p99.9 …); a flat line means a short tail, a steep rise a long one.",
  ladderChartTitle: "Latency at each percentile",

  sweepTitle: "Sweep",
  againstSize: "against object size",
  againstConcurrency: "against concurrency",
  throughputMBps: "Throughput (MB/s)",
  opsPerSecAxis: "Operations per second",
  sweepThroughputTitle: (axis) => `Throughput ${axis}`,
  sweepOpsTitle: (axis) => `Operations per second ${axis}`,
  sweepLatencyTitle: (op, axis) => `${op}: latency ${axis}`,
  concurrencyAxis: "Concurrent clients",
  objectSizeAxis: "Object size",
  seriesClients: (clients) => `${formatInteger(clients)} ${clients === 1 ? "client" : "clients"}`,
  seriesSamples: (samples) => `${formatInteger(samples)} ${samples === 1 ? "sample" : "samples"}`,
  seriesPerPoint: (size) => `${size} per point`,
  seriesJoin: ", ",

  hedgeTitle: "Cost of backup requests",
  hedgeIntro:
    "What hedged or tied requests cost: backups sent beyond the logical requests (backups refused or cancelled before they were written on a connection are not sent, counted apart), attempts cancelled because another answered first, the new connections that replaced those a cancel closed (their connect time is paid by the next request), and bytes moved by attempts that lost (for one cancelled on the wire, all its connection moved both ways).",
  hedgeDelay: "Mean wait before a backup (ms)",
  hedgeBudget: "Budget (%)",
  attempts: "Attempts",
  extraRequests: "Extra requests (%)",
  cancelled: "Cancelled attempts",
  notSent: "Backups not sent",
  reconnects: "Reconnects after a cancel (mean connect ms)",
  wastedBytes: "Wasted bytes",
  wonByBackup: "Won by a backup",
  noneSent: "none sent",

  testbedTitle: "Embedded testbed replicas",
  replica: "Replica",
  received: "Received",
  completed: "Completed",
  abandoned: "Abandoned by the client",

  comparedRuns: "Runs compared",
  baseline: "Baseline",
  baselineMark: "baseline",
  comparisonTable: "Side by side",
  comparisonIntro:
    "Each run's figure, then its difference from the baseline (absolute and %). Points are matched by clients, samples, object size and operation; a run that shares no point with the baseline is paired with it point by point, in order. — marks a point a run does not have. Green is better, red worse.",
  pairedInOrder: (run, differences) =>
    `Run ${run} paired in order with the baseline: differs in ${differences.join(", ")}`,
  paramDifference: (param, values, baselineValues) =>
    `${{ clients: "clients", samples: "samples", objectSizeBytes: "object size" }[param]} (${values} vs ${baselineValues})`,
  metric: "Metric",
  delta: "Δ",
  missing: "—",
  significant: "significant",
  notSignificant: "n.s.",
  significanceNote:
    "A percentile's change is significant when the two runs' 95 % order-statistic intervals do not overlap; n.s.: not significant (within chance).",
  metricNames: {
    p50Ms: "Latency p50 (ms)",
    p90Ms: "Latency p90 (ms)",
    p99Ms: "Latency p99 (ms)",
    p999Ms: "Latency p99.9 (ms)",
    p9999Ms: "Latency p99.99 (ms)",
    maxMs: "Latency max (ms)",
    ttfbP50Ms: "Time to first byte p50 (ms)",
    ttfbP99Ms: "Time to first byte p99 (ms)",
    throughputMBps: "Throughput (MB/s)",
    opsPerSec: "Operations per second",
    errors: "Errors",
    hedgeExtraPct: "Extra requests (%)",
    hedgeWastedBytes: "Wasted bytes",
  },
  specComparison: "Specifications",
  cdfComparisonTitle: "Cumulative distributions",
  cdfOverlayTitle: (op, point) => `${op} — ${point}: CDF`,
  modesSection: "Normal vs hedged vs tied",
  modesIntro:
    "The tail each request mode reached (p50, p99, p99.9) beside what its backups cost: extra requests as a % of the logical ones, and the payload losing attempts moved.",
  modeTailTitle: (op, point) => `${op} — ${point}: tail by mode`,
  modeCostTitle: (op, point) => `${op} — ${point}: cost of backups`,
  wastedMiB: "Wasted (MB)",
};

const zhCN: ReportMessages = {
  runReportTitle: "TailLab 测试报告",
  comparisonTitle: (runs) => `TailLab 对比报告(${runs} 次运行)`,
  generatedBy: (version) => `由 TailLab ${version} 生成。可离线打开,数据不会离开本文件。`,
  legendHint: "点击图例可隐藏或显示对应曲线。",
  stoppedEarly: "本次运行被提前停止:结果仅包含停止前已测得的部分。",
  serverLost: (at, phases, notRun) =>
    `服务器自 ${at} 起不再应答:${phases} 提前结束。${notRun ? `之后仍未应答,运行到此结束;未运行:${notRun}。` : ""}`,
  damaged: "本次运行的文件夹已损坏:结果仅包含可读取的部分。",
  contents: "目录",

  overview: "概览",
  runName: "运行名称",
  runId: "运行 ID",
  status: "状态",
  statusNames: {
    running: "运行中",
    complete: "已完成",
    stopped: "已停止",
    serverLost: "服务器不再应答",
    interrupted: "已中断",
    failed: "失败",
  },
  failure: "失败原因",
  created: "创建时间",
  started: "开始时间",
  finished: "结束时间",
  tags: "标签",
  notes: "备注",
  mode: "请求模式",
  modeNames: {
    normal: "普通(单次请求)",
    hedged: "对冲请求",
    tied: "绑定请求(客户端取消)",
    adaptive: "自适应对冲",
    "tied-server": "绑定请求(服务端取消)",
  },
  modeShort: {
    normal: "普通",
    hedged: "对冲",
    tied: "绑定",
    adaptive: "自适应",
    "tied-server": "绑定(服务端)",
  },
  loop: "负载模型",
  loopNames: { closed: "闭环", open: "开环" },
  endpoints: "服务端点",
  none: "无",

  spec: "负载配置",
  setting: "配置项",
  value: "取值",
  specLabels: {
    name: "名称",
    endpoints: "服务端点",
    bucket: "存储桶",
    keyPrefix: "键前缀",
    phases: "阶段",
    clients: "客户端数",
    samples: "样本数(每阶段请求数)",
    objectSize: "对象大小",
    transport: "传输实现",
    workers: "工作线程数",
    verify: "校验读取内容",
    createBucket: "自动创建存储桶",
    openLoop: "开环负载",
    mode: "请求模式",
    hedge: "对冲设置",
    replicaChoice: "副本选择策略",
    testbed: "内置测试服务器",
    credentials: "凭据",
  },
  credentialsEnv: (accessKeyVar, secretVar) => `来自环境变量 ${accessKeyVar} 与 ${secretVar}`,
  credentialsKeychain: (id) => `来自系统钥匙串(条目 ${id})`,
  credentialsAnonymous: "匿名",
  embeddedTestbed: "内置测试服务器",
  testbedSpec: (replicas, profile, seed) =>
    `内置测试服务器:${replicas} 个副本,延迟配置 "${profile}",随机种子 ${seed}`,
  hedgeSpec: (delay, budgetPct, tiedDelay, minSamples) =>
    `等待 ${delay} 后发送备份请求,额外请求预算 ${budgetPct} %${tiedDelay === null ? "" : `,绑定副本延迟 ${tiedDelay}`},累计 ${minSamples} 个样本后开始对冲`,
  openLoopSpec: (rateHz, arrivals, durationS, seed) =>
    `每秒 ${rateHz} 个请求,${arrivals === "poisson" ? "泊松到达" : "固定速率到达"}${durationS === null ? "" : `,持续 ${durationS} s`},随机种子 ${seed}`,
  yes: "是",
  no: "否",

  environment: "运行环境",
  taillabVersion: "TailLab 版本",
  operatingSystem: "操作系统",
  cpu: "CPU",
  cpuCores: (count) => `${count} 个逻辑核心`,
  memory: "内存",
  nodeVersion: "Node.js",
  serverHeader: "Server 响应头",
  importedFrom: "导入自",
  importedFile: "导入的文件",
  notInFile: "文件未包含",
  notInFileText: (lines) => `文件未包含的 ${lines.length} 项数据留空，不做推测。`,

  results: "测试结果",
  resultsIntro:
    "按测试点和阶段给出的 s3bench 风格汇总。延迟只统计成功的请求,单位为毫秒;MB 指 MiB(2²⁰ 字节),与 s3bench 的输出一致。",
  sweepTable: "全部测试点一览",
  point: "测试点",
  pointTitle: (index, params) => `测试点 ${index}:${params}`,
  pointParams: (clients, samples, size) =>
    `${clients} 个客户端 × ${formatInteger(samples)} 个样本 × ${size}`,
  clients: "客户端数",
  samples: "样本数",
  objectSize: "对象大小",
  operation: "操作",
  opNames: operationLabels("zh", "report"),
  requests: "请求数",
  transferred: "传输总量 (MB)",
  throughput: "总吞吐量 (MB/s)",
  opsPerSec: "每秒操作数",
  duration: "总耗时 (s)",
  errors: "错误数",
  errorsByCode: "按错误码统计",
  cutOff: "停止时中断的在途请求（已记录，不计入数据）",
  latencyRow: (percentile) => `延迟 ${percentile} (ms)`,
  latencyMin: "最小延迟 (ms)",
  latencyMax: "最大延迟 (ms)",
  maxColumn: "最大值 (ms)",
  latencyMean: "平均延迟 (ms)",
  ttfbRow: (percentile) => `首字节时间 ${percentile} (ms)`,
  serviceRow: (percentile) => `服务时间 ${percentile} (ms)`,
  missedStarts: `未按时发出的请求(晚于 ${MISSED_START_TOLERANCE_MS} ms)`,
  p999Note:
    "* p99.9 需要至少 1,000 个请求。标 * 的阶段成功请求不足 1,000 个，其 p99.9 就是最慢的请求（最大值），而不是尾延迟的估计。",
  intervalNote: (confidencePct, precisionPct) =>
    `百分位旁的 [下限, 上限]:由顺序统计量得出的 ${confidencePct} % 置信区间(不依赖分布;请求数不足以界定时写作 0 或 ∞);直方图本身另有 ±${precisionPct} % 的精度。`,
  restsOn: (op, percentile, count, beyond) =>
    `${op} 的 ${percentile} 来自 ${formatInteger(count)} 个请求,仅由其中最慢的 ${formatInteger(beyond)} 个决定`,
  openLoopNote:
    "开环负载:延迟从每个请求的计划发送时刻算起(避免协调遗漏);服务时间从实际发送时刻算起。",
  clientQueueRow: (percentile) => `客户端排队 ${percentile} (ms)`,
  connectRow: (percentile) => `建立连接 ${percentile} (ms)`,
  uploadRow: (percentile) => `上传 ${percentile} (ms)`,
  notRecorded: "未记录",
  transferRow: (percentile) => `传输 ${percentile} (ms)`,
  steadyThroughput: "稳定吞吐量,所有客户端均忙碌 (MB/s)",
  steadyOps: "稳定每秒操作数",
  pointStopped: "在此测试点中停止:数据只涵盖已测量的部分",

  overTimeTitle: "百分位数随时间的变化",
  overTimeAxis: "运行开始后的秒数",
  overTimeNote: "每秒内成功完成的请求,按应答时刻统计(HdrHistogram 区间直方图)。",
  overTimeClientBound: "客户端是瓶颈",
  overTimeInterval: "95 % 置信区间",
  overTimeIntervalNote:
    "阴影:每秒各百分位的 95 % 置信区间(顺序统计量);请求数不足以界定时,画到该秒最慢的请求为止。",
  overTimeRestsOn: (beyond) => `仅由 ${formatInteger(beyond)} 个更慢的请求决定`,
  overTimeFewSeconds: (percentile, few, seconds, fewBelow) =>
    `${formatInteger(seconds)} 秒中有 ${formatInteger(few)} 秒的 ${percentile} 仅由不到 ${fewBelow} 个更慢的请求决定。`,
  ratesOverTime: {
    throughput: {
      title: "吞吐量随时间的变化",
      axis: "每秒请求数",
      line: "成功应答",
      note: "每秒成功应答的请求,按应答时刻统计。",
    },
    errors: {
      title: "错误随时间的变化",
      axis: "每秒错误数",
      line: "失败",
      note: "每秒失败的请求,按失败时刻统计。",
    },
    data: {
      title: "传输量随时间的变化",
      axis: "MB/s",
      line: "传输量",
      note: "每秒成功请求传输的数据量(MB 指 MiB),按应答时刻统计。",
    },
    byCode: "按错误代码堆叠。",
    notRecorded: "未记录:此运行保存时,TailLab 尚未按秒记录字节数和错误代码。",
  },
  tailTitle: "尾部延迟的去向",
  tailSlowest: (share) => `最慢的 ${share}`,
  tailHeaders: [
    "",
    "请求数",
    "起点 (ms)",
    "平均 (ms)",
    "客户端排队 (ms)",
    "建立连接 (ms)",
    "等待备份 (ms)",
    "上传 (ms)",
    "服务器 (ms)",
    "传输 (ms)",
  ],
  tailNote:
    "最慢请求的时间按阶段拆分:在客户端等待(调度、签名、空闲连接)、建立新连接(传输层连接与加密握手)、等待备份请求发出、发送请求体(上传)、等待服务器的首字节、接收响应体(下载)。各部分之和等于平均值。",
  client: {
    keptUp: "TailLab 的客户端跟上了。",
    bottleneck: (reasons, advice) =>
      `在这个阶段,瓶颈是 TailLab 自己的客户端,而不是服务器:${reasons}。建议:${advice}。`,
    boundShards: (shards) => `客户端是瓶颈的分片:${shards}。`,
    reasons: {
      cpu: "它的 CPU 使用接近可用的核心数",
      "clients-per-worker": "某个工作线程几乎一直忙碌(每个工作线程的客户端太多)",
      "event-loop-delay": "在测得的延迟中,有十分之一以上的时间它的工作线程无法运行",
      "schedule-behind": "开环落后于它的调度",
    },
    advice: {
      "fewer-clients": "减少客户端或降低速率",
      "more-workers": "增加工作线程",
      "server-elsewhere": "把服务器放到另一台机器上运行",
    },
    or: ",或",
    tailStall: (p99Ms, p999Ms) =>
      `最慢请求的服务器时间中,客户端自身停顿(应答到达时工作线程无法运行)的部分:最慢的 1 % 为 ${p99Ms} ms,最慢的 0.1 % 为 ${p999Ms} ms。`,
    arrivalsKept: (missed) =>
      `保留了每一个到达请求:迟到启动的 ${missed} 个从其调度时间开始计时(这正是开环的意义)。`,
    arrivalsShed: (shed) =>
      `丢弃了 ${shed} 个到达请求:实验室会丢弃落后超过一秒的到达请求,以便继续响应旋钮。`,
    omissionNote:
      "闭环:每个客户端都要等到响应才发下一个请求,所以慢的时刻发出的请求更少、权重更低(协调遗漏)。",
    omissionGap: (gapMs, p99Ms) =>
      `协调遗漏:在所有客户端都在等待时,${gapMs} ms 内没有任何请求完成(p99 ${p99Ms} ms);这些百分位数没有包含那时到达的请求会经历的延迟。`,
    omissionMax: (ratio) =>
      `协调遗漏:最慢的请求用了 p99 的 ${ratio} 倍;这些百分位数没有包含在此期间到达的请求会经历的延迟。`,
    rerun: (flags) => `等效的开环,速率略低于此吞吐量:taillab run ${flags}`,
  },

  latency: "延迟",
  latencyMs: "延迟 (ms)",
  requestIndex: "请求序号",
  latencyByIndexTitle: "延迟随请求序号的变化",
  latencyByIndexNote: (requests, buckets) =>
    `${requests} 个请求合并为 ${buckets} 列:色带覆盖每列中最快与最慢的请求,因此单次卡顿也会显示为尖峰。`,
  bandLabel: "最小–最大",
  meanLabel: "平均值",
  p99Label: "p99",
  histogramTitle: "延迟分布",
  requestsLogScale: "请求数(对数刻度)",
  cdfTitle: "累积分布函数 (CDF) 与排队模型拟合",
  cdfAxis: "延迟不超过该值的请求比例",
  measuredCdf: "实测",
  exponentialModel: "指数模型",
  lognormalModel: "对数正态模型",
  measuredP99: "实测 p99",
  modelP99: "模型 p99",
  fitExponential: (t0, alpha, ks, predicted, measured) =>
    `平移指数分布 F(t) = 1 − e^(−α(t − t₀)):t₀ = ${t0} ms,α = ${alpha} /ms,KS 距离 ${ks}。模型预测 p99 为 ${predicted} ms,实测 p99 为 ${measured} ms。`,
  fitLognormal: (median, sigma, ks, predicted) =>
    `对数正态分布:中位数 e^μ = ${median} ms,σ = ${sigma},KS 距离 ${ks},预测 p99 为 ${predicted} ms。`,
  fitExplanation:
    "采用最大似然估计:t₀ 取最快的请求,1/α 为超出 t₀ 部分的平均值;μ、σ 为 ln t 的均值与标准差。KS 距离是实测 CDF 与模型 CDF 之间的最大纵向差距,越小拟合越好。",
  noLatencies: "没有成功的请求,无法绘图。",
  noSeries: "该阶段没有保存逐请求序列。",
  noHistogram: "该阶段没有保存直方图。",

  ladderTitle: "百分位阶梯图",
  ladderOpTitle: (op, point) => `${op} — ${point}`,
  percentile: "百分位",
  ladderNote: "每向右一格多一个 9(p90、p99、p99.9 …);曲线平坦说明尾部短,陡升说明长尾明显。",
  ladderChartTitle: "各百分位的延迟",

  sweepTitle: "参数扫描",
  againstSize: "随对象大小变化",
  againstConcurrency: "随并发数变化",
  throughputMBps: "吞吐量 (MB/s)",
  opsPerSecAxis: "每秒操作数",
  sweepThroughputTitle: (axis) => `吞吐量${axis}`,
  sweepOpsTitle: (axis) => `每秒操作数${axis}`,
  sweepLatencyTitle: (op, axis) => `${op}:延迟${axis}`,
  concurrencyAxis: "并发客户端数",
  objectSizeAxis: "对象大小",
  seriesClients: (clients) => `${formatInteger(clients)} 个客户端`,
  seriesSamples: (samples) => `${formatInteger(samples)} 个样本`,
  seriesPerPoint: (size) => `每个测试点 ${size}`,
  seriesJoin: ",",

  hedgeTitle: "备份请求的开销",
  hedgeIntro:
    "对冲或绑定请求的代价:超出逻辑请求数的备份请求(在写入连接之前被拒绝或取消的备份未发出,单独计数)、因其他副本先返回而被取消的请求、为替换被取消关闭的连接而新建的连接(其连接时间由下一个请求承担),以及落败请求传输的字节数(对已在连接上被取消的请求,计其连接双向传输的全部字节)。",
  hedgeDelay: "备份请求前的平均等待 (ms)",
  hedgeBudget: "预算 (%)",
  attempts: "实际发出请求数",
  extraRequests: "额外请求 (%)",
  cancelled: "被取消的请求",
  notSent: "未发出的备份请求",
  reconnects: "取消后的重新连接(平均连接 ms)",
  wastedBytes: "浪费的字节数",
  wonByBackup: "由备份请求胜出",
  noneSent: "未发出",

  testbedTitle: "内置测试服务器副本",
  replica: "副本",
  received: "收到",
  completed: "完成",
  abandoned: "被客户端放弃",

  comparedRuns: "参与对比的运行",
  baseline: "基线",
  baselineMark: "基线",
  comparisonTable: "逐项对比",
  comparisonIntro:
    "先列出每次运行的数值,再给出与基线的差值(绝对值与百分比)。测试点按客户端数、样本数、对象大小和操作对齐;与基线没有相同测试点的运行按顺序逐点与基线配对。— 表示该运行没有这个测试点。绿色表示更好,红色表示更差。",
  pairedInOrder: (run, differences) =>
    `运行 ${run} 与基线按顺序配对,不同之处:${differences.join("、")}`,
  paramDifference: (param, values, baselineValues) =>
    `${{ clients: "客户端数", samples: "样本数", objectSizeBytes: "对象大小" }[param]} (${values},基线 ${baselineValues})`,
  metric: "指标",
  delta: "差值",
  missing: "—",
  significant: "显著",
  notSignificant: "不显著",
  significanceNote:
    "百分位的变化在两次运行的 95 % 顺序统计量置信区间互不重叠时为显著；不显著表示变化在随机波动范围内。",
  metricNames: {
    p50Ms: "延迟 p50 (ms)",
    p90Ms: "延迟 p90 (ms)",
    p99Ms: "延迟 p99 (ms)",
    p999Ms: "延迟 p99.9 (ms)",
    p9999Ms: "延迟 p99.99 (ms)",
    maxMs: "最大延迟 (ms)",
    ttfbP50Ms: "首字节时间 p50 (ms)",
    ttfbP99Ms: "首字节时间 p99 (ms)",
    throughputMBps: "吞吐量 (MB/s)",
    opsPerSec: "每秒操作数",
    errors: "错误数",
    hedgeExtraPct: "额外请求 (%)",
    hedgeWastedBytes: "浪费的字节数",
  },
  specComparison: "配置对比",
  cdfComparisonTitle: "累积分布函数对比",
  cdfOverlayTitle: (op, point) => `${op} — ${point}:CDF`,
  modesSection: "普通、对冲与绑定请求对比",
  modesIntro:
    "各请求模式达到的尾延迟（p50、p99、p99.9）及其备份请求的开销：额外请求占逻辑请求的百分比，以及落败请求传输的数据量。",
  modeTailTitle: (op, point) => `${op} — ${point}:各模式的尾延迟`,
  modeCostTitle: (op, point) => `${op} — ${point}:备份请求的开销`,
  wastedMiB: "浪费 (MB)",
};

export const REPORT_MESSAGES: Record<ReportLanguage, ReportMessages> = { en, "zh-CN": zhCN };

export function reportMessages(language: ReportLanguage): ReportMessages {
  const messages = REPORT_MESSAGES[language];
  if (!messages) {
    throw new RangeError(
      `report language "${String(language)}" is not supported; use one of ${REPORT_LANGUAGES.join(", ")}`,
    );
  }
  return messages;
}
