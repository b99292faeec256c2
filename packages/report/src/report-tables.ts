import { fewBeyondLevels, formatIntervalMs, percentileLabel } from "./percentile-interval-text.ts";
import {
  PERCENTILE_LEVELS,
  isTiedMode,
  type CredentialsRef,
  type Endpoint,
  type LatencyStats,
  type PhaseSummary,
  type PointSummary,
  type RunMeta,
  type ToolLatencyFigure,
  type RunSpec,
  type RunSummary,
  type TailBreakdown,
} from "@taillab/api";
import {
  clientAdvice,
  coordinatedOmissionNote,
  p999IsMax,
  phaseLatencyFigureMs,
} from "@taillab/core";
import { markup, type HtmlValue, type SafeHtml } from "./html.ts";
import {
  formatDateTime,
  formatFixed,
  formatInteger,
  formatMiB,
  formatMs,
  formatPercent,
  formatSize,
} from "./report-format.ts";
import type { ReportMessages } from "./report-messages.ts";

export type Row = readonly [label: HtmlValue, value: HtmlValue];

/** A two-column table of labelled values. */
export function keyValueTable(rows: readonly Row[]): SafeHtml {
  return markup`<div class="table-wrap">
    <table class="kv">
      <tbody>
        ${rows.map(
          ([label, value]) =>
            markup`<tr>
              <th scope="row">${label}</th>
              <td>${value}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function lines(values: readonly HtmlValue[]): SafeHtml {
  return markup`${values.map((value, index) => markup`${index > 0 ? markup`<br />` : ""}${value}`)}`;
}

export function pointParamsText(messages: ReportMessages, point: PointSummary): string {
  const { clients, samples, objectSizeBytes } = point.params;
  return messages.pointParams(clients, samples, formatSize(objectSizeBytes));
}

export function overviewRows(messages: ReportMessages, meta: RunMeta, summary: RunSummary): Row[] {
  const rows: Row[] = [
    [messages.runName, meta.name || "—"],
    [messages.runId, markup`<span class="mono">${summary.runId}</span>`],
    [messages.status, messages.statusNames[meta.status] ?? meta.status],
    [messages.started, formatDateTime(summary.startedAt)],
    [messages.finished, formatDateTime(summary.finishedAt)],
    [messages.mode, messages.modeNames[summary.mode] ?? summary.mode],
    [messages.loop, messages.loopNames[summary.loop] ?? summary.loop],
    [
      messages.endpoints,
      summary.endpointUrls.length > 0
        ? lines(summary.endpointUrls.map((url) => markup`<span class="mono">${url}</span>`))
        : messages.none,
    ],
  ];
  if (meta.tags.length > 0) rows.push([messages.tags, meta.tags.join(", ")]);
  if (meta.notes) rows.push([messages.notes, markup`<div class="pre-wrap">${meta.notes}</div>`]);
  if (meta.error) rows.push([messages.failure, markup`<div class="pre-wrap">${meta.error}</div>`]);
  return rows;
}

function credentialsText(messages: ReportMessages, credentials: CredentialsRef): string {
  switch (credentials.kind) {
    case "env":
      return messages.credentialsEnv(credentials.accessKeyIdVar, credentials.secretAccessKeyVar);
    case "keychain":
      return messages.credentialsKeychain(credentials.id);
    case "anonymous":
      return messages.credentialsAnonymous;
  }
}

function endpointText(endpoint: Endpoint): SafeHtml {
  return markup`<span class="mono">${endpoint.url}</span> (${endpoint.region}, ${endpoint.addressing})`;
}

function hedgeText(messages: ReportMessages, spec: RunSpec): string {
  const hedge = spec.hedge;
  const delay =
    hedge.delay.kind === "fixed"
      ? `${formatMs(hedge.delay.delayMs)} ms`
      : `p${hedge.delay.percentile}`;
  return messages.hedgeSpec(
    delay,
    formatPercent(hedge.budgetPercent, 0),
    isTiedMode(spec.mode) ? `${formatMs(hedge.tiedDelayMs)} ms` : null,
    hedge.minSamples,
  );
}

function openLoopText(
  messages: ReportMessages,
  openLoop: NonNullable<RunSpec["openLoop"]>,
): string {
  return messages.openLoopSpec(
    formatFixed(openLoop.rateHz, Number.isInteger(openLoop.rateHz) ? 0 : 2),
    openLoop.arrivals,
    openLoop.durationMs === undefined ? null : formatFixed(openLoop.durationMs / 1000, 1),
    openLoop.seed,
  );
}

/** Spec keys with a readable rendering; any other key is shown as JSON so nothing is hidden. */
const HANDLED_SPEC_KEYS = new Set([
  "schemaVersion",
  "name",
  "endpoints",
  "bucket",
  "keyPrefix",
  "phases",
  "clients",
  "samples",
  "objectSize",
  "transport",
  "workers",
  "verify",
  "createBucket",
  "openLoop",
  "mode",
  "hedge",
  "replicaChoice",
  "testbed",
]);

/** The spec as a readable table. It holds credential references only, never secrets. */
export function specRows(messages: ReportMessages, spec: RunSpec): Row[] {
  const label = (key: string) => messages.specLabels[key] ?? key;
  const yesNo = (value: boolean) => (value ? messages.yes : messages.no);
  const rows: Row[] = [];
  if (spec.name) rows.push([label("name"), spec.name]);
  if (spec.endpoints) {
    rows.push([label("endpoints"), lines(spec.endpoints.map(endpointText))]);
    const credentials = [
      ...new Set(spec.endpoints.map((endpoint) => credentialsText(messages, endpoint.credentials))),
    ];
    rows.push([label("credentials"), lines(credentials)]);
  } else {
    const testbed = spec.testbed;
    const profile =
      typeof testbed.profile === "string" ? testbed.profile : JSON.stringify(testbed.profile);
    rows.push([label("testbed"), messages.testbedSpec(testbed.replicas, profile, testbed.seed)]);
  }
  rows.push(
    [label("bucket"), markup`<span class="mono">${spec.bucket}</span>`],
    [label("keyPrefix"), markup`<span class="mono">${spec.keyPrefix}</span>`],
    [label("phases"), spec.phases.join(", ")],
    [label("clients"), spec.clients.map(formatInteger).join(", ")],
    [label("samples"), spec.samples ? spec.samples.map(formatInteger).join(", ") : "—"],
    [label("objectSize"), spec.objectSize.map(formatSize).join(", ")],
    [label("transport"), spec.transport],
    [label("workers"), spec.workers ?? "—"],
    [label("verify"), yesNo(spec.verify)],
    [label("createBucket"), yesNo(spec.createBucket)],
  );
  if (spec.openLoop) rows.push([label("openLoop"), openLoopText(messages, spec.openLoop)]);
  rows.push([label("mode"), messages.modeNames[spec.mode] ?? spec.mode]);
  if (spec.mode !== "normal") rows.push([label("hedge"), hedgeText(messages, spec)]);
  const replicas = spec.endpoints ? spec.endpoints.length : spec.testbed.replicas;
  if (replicas > 1) rows.push([label("replicaChoice"), spec.replicaChoice]);
  for (const [key, value] of Object.entries(spec)) {
    if (HANDLED_SPEC_KEYS.has(key) || value === undefined) continue;
    rows.push([label(key), markup`<span class="mono">${JSON.stringify(value)}</span>`]);
  }
  return rows;
}

export function environmentRows(
  messages: ReportMessages,
  { environment, imported }: Pick<RunMeta, "environment" | "imported">,
  summary: RunSummary,
): Row[] {
  // No tool's file says which machine ran it: the rows say where the run came from instead.
  if (imported) {
    return [
      [messages.importedFrom, markup`<span class="mono" translate="no">${imported.tool}</span>`],
      [messages.importedFile, markup`<span class="mono" translate="no">${imported.file}</span>`],
      [messages.notInFile, messages.notInFileText(imported.notCarried)],
      [messages.serverHeader, summary.server ?? messages.none],
    ];
  }
  return [
    [messages.taillabVersion, environment.taillabVersion],
    [messages.operatingSystem, environment.os],
    [messages.cpu, `${environment.cpuModel} (${messages.cpuCores(environment.cpuCount)})`],
    [messages.memory, environment.memoryBytes > 0 ? formatSize(environment.memoryBytes) : "—"],
    [messages.nodeVersion, environment.node],
    [messages.serverHeader, environment.server ?? summary.server ?? messages.none],
  ];
}

function numberCell(text: string): SafeHtml {
  return markup`<td class="num">${text}</td>`;
}

function errorsText(phase: PhaseSummary): string {
  const codes = Object.entries(phase.errorsByCode)
    .map(([code, count]) => `${code} ${formatInteger(count)}`)
    .join(", ");
  return codes ? `${formatInteger(phase.errors)} (${codes})` : formatInteger(phase.errors);
}

const LATENCY_PERCENTILES = (
  Object.entries(PERCENTILE_LEVELS) as [keyof typeof PERCENTILE_LEVELS, number][]
).sort(([, a], [, b]) => b - a);

/** A figure of a time (ms), or "—" where the phase has none (no success, an older run). */
/** A latency figure of the phase (an imported tool's own where it printed only some), or a dash. */
function msOrDash(phase: PhaseSummary, figure: ToolLatencyFigure): string {
  const valueMs = phaseLatencyFigureMs(phase, figure);
  return valueMs === null ? "—" : formatMs(valueMs);
}

/** Connects and uploads: a run recorded before they were says so, rather than 0. */
function recordedMs<T>(
  messages: ReportMessages,
  figure: T | undefined,
  format: (recorded: T) => string,
): string {
  return figure === undefined ? messages.notRecorded : format(figure);
}

/** A phase's p99.9, marked * where it is only its slowest request (see p999Note). */
function p999Text(phase: PhaseSummary): string {
  return `${msOrDash(phase, "p999")}${p999IsMax(phase) ? "*" : ""}`;
}

function p999Note(messages: ReportMessages, phases: readonly PhaseSummary[]): SafeHtml | "" {
  return phases.some(p999IsMax) ? markup`<p class="note">${messages.p999Note}</p>` : "";
}

/**
 * s3bench's summary, one column per phase, with p99.9 and p99.99 added; then the parts of a
 * request's time (client queue, connect, service, upload, TTFB, transfer) and the steady throughput.
 */
export function pointResultsTable(messages: ReportMessages, point: PointSummary): SafeHtml {
  const phases = point.phases;
  const row = (label: string, value: (phase: PhaseSummary) => string, start = false) =>
    markup`<tr${start ? markup` class="group-start"` : ""}><th scope="row">${label}</th>${phases.map(
      (phase) => numberCell(value(phase)),
    )}</tr>`;
  const figureRows = (
    label: (percentile: string) => string,
    figure: (phase: PhaseSummary) => LatencyStats | null | undefined,
  ) =>
    (["p50", "p99", "p999"] as const).map((pick, index) =>
      row(
        label(pick === "p999" ? "p99.9" : pick),
        (phase) =>
          recordedMs(messages, figure(phase), (stats) => (stats ? formatMs(stats[pick]) : "—")),
        index === 0,
      ),
    );
  const openLoop = phases.some((phase) => phase.loop === "open");
  const stopped = phases.some((phase) => phase.cutOff !== undefined);
  const rows = [
    row(messages.requests, (phase) => formatInteger(phase.requests)),
    row(messages.transferred, (phase) => formatMiB(phase.bytes)),
    row(messages.throughput, (phase) => formatFixed(phase.throughputMBps, 2)),
    row(messages.opsPerSec, (phase) => formatFixed(phase.opsPerSec, 1)),
    row(messages.duration, (phase) => formatFixed(phase.durationMs / 1000, 3)),
    row(messages.errors, errorsText),
    ...(stopped ? [row(messages.cutOff, (phase) => formatInteger(phase.cutOff ?? 0))] : []),
    row(messages.steadyThroughput, (phase) =>
      phase.steady ? formatFixed(phase.steady.throughputMBps, 2) : "—",
    ),
    row(messages.steadyOps, (phase) =>
      phase.steady ? formatFixed(phase.steady.opsPerSec, 1) : "—",
    ),
    row(messages.latencyMax, (phase) => msOrDash(phase, "max"), true),
    // p99.99 down to p25, the order of s3bench's table.
    ...LATENCY_PERCENTILES.map(([key, level]) =>
      row(messages.latencyRow(`p${level}`), (phase) => {
        const figure = key === "p999" ? p999Text(phase) : msOrDash(phase, key);
        const interval = phase.latencyMs?.intervals?.byLevel[key];
        return interval ? `${figure} ${formatIntervalMs(interval)}` : figure;
      }),
    ),
    row(messages.latencyMin, (phase) => msOrDash(phase, "min")),
    row(messages.latencyMean, (phase) => msOrDash(phase, "mean")),
    ...figureRows(messages.clientQueueRow, (phase) => phase.clientQueueMs),
    ...figureRows(messages.connectRow, (phase) => phase.connectMs),
    ...figureRows(messages.serviceRow, (phase) => phase.serviceMs),
    ...figureRows(messages.uploadRow, (phase) => phase.uploadMs),
    ...figureRows(messages.ttfbRow, (phase) => phase.ttfbMs),
    ...figureRows(messages.transferRow, (phase) => phase.transferMs),
    ...(openLoop
      ? [row(messages.missedStarts, (phase) => formatInteger(phase.missedStarts), true)]
      : []),
  ];
  return markup`<div class="table-wrap">
      <table class="results">
        <thead>
          <tr>
            <th scope="col">${messages.metric}</th>
            ${phases.map(
              (phase) => markup`<th scope="col" class="num">${messages.opNames[phase.op]}</th>`,
            )}
          </tr>
        </thead>
        <tbody>
          ${rows}
        </tbody>
      </table>
    </div>
    ${openLoop ? markup`<p class="note">${messages.openLoopNote}</p>` : ""}
    ${point.finished ? "" : markup`<p class="note">${messages.pointStopped}</p>`}${p999Note(messages, phases)}${intervalNote(messages, phases)}`;
}

/** What the bracketed intervals are, and each phase's percentiles that rest on few requests. */
function intervalNote(messages: ReportMessages, phases: readonly PhaseSummary[]): SafeHtml | "" {
  const intervals = phases.find((phase) => phase.latencyMs?.intervals)?.latencyMs?.intervals;
  if (!intervals) return "";
  const few = phases.flatMap((phase) =>
    fewBeyondLevels(phase.latencyMs).map(({ name, count, beyond }) =>
      messages.restsOn(messages.opNames[phase.op], percentileLabel(name), count, beyond),
    ),
  );
  return markup`<p class="note">${messages.intervalNote(intervals.confidence * 100, intervals.precisionPct)}${few.length > 0 ? ` ${few.join("; ")}.` : ""}</p>`;
}

/** Where the slowest 1 % and 0.1 % of a phase's requests spent their time. */
export function tailTable(messages: ReportMessages, tail: TailBreakdown): SafeHtml {
  const rows = (
    [
      ["1 %", tail.p99],
      ["0.1 %", tail.p999],
    ] as const
  ).map(
    ([share, part]) =>
      markup`<tr><th scope="row">${messages.tailSlowest(share)}</th>${[
        formatInteger(part.requests),
        formatMs(part.fromMs),
        formatMs(part.meanMs),
        formatMs(part.clientQueueMs),
        recordedMs(messages, part.connectMs, formatMs),
        formatMs(part.hedgeWaitMs),
        recordedMs(messages, part.uploadMs, formatMs),
        formatMs(part.serverMs),
        formatMs(part.transferMs),
      ].map(numberCell)}</tr>`,
  );
  return markup`<div class="table-wrap">
    <table class="results">
      <caption>${messages.tailTitle}</caption>
      <thead>
        <tr>
          ${messages.tailHeaders.map(
            (label, index) =>
              markup`<th scope="col"${index === 0 ? "" : markup` class="num"`}>${label}</th>`,
          )}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>
  <p class="note">${messages.tailNote}</p>`;
}

/** One line per point and phase: the table a sweep ends with. */
export function sweepOverviewTable(messages: ReportMessages, summary: RunSummary): SafeHtml {
  const header = [
    messages.point,
    messages.clients,
    messages.samples,
    messages.objectSize,
    messages.operation,
    "MB/s",
    "ops/s",
    "p50 (ms)",
    "p99 (ms)",
    "p99.9 (ms)",
    messages.maxColumn,
    messages.errors,
  ];
  const body = summary.points.flatMap((point, pointIndex) =>
    point.phases.map(
      (phase, phaseIndex) =>
        markup`<tr${phaseIndex === 0 && pointIndex > 0 ? markup` class="group-start"` : ""}>${[
          numberCell(String(pointIndex + 1)),
          numberCell(String(point.params.clients)),
          numberCell(formatInteger(point.params.samples)),
          numberCell(formatSize(point.params.objectSizeBytes)),
          markup`<td class="nowrap">${phase.op}</td>`,
          numberCell(formatFixed(phase.throughputMBps, 2)),
          numberCell(formatFixed(phase.opsPerSec, 1)),
          numberCell(msOrDash(phase, "p50")),
          numberCell(msOrDash(phase, "p99")),
          numberCell(p999Text(phase)),
          numberCell(msOrDash(phase, "max")),
          numberCell(formatInteger(phase.errors)),
        ]}</tr>`,
    ),
  );
  return markup`<div class="table-wrap">
    <table class="results">
      <thead>
        <tr>
          ${header.map(
            (label, index) =>
              markup`<th scope="col" ${index === 4 ? "" : markup` class="num"`}>${label}</th>`,
          )}
        </tr>
      </thead>
      <tbody>
        ${body}
      </tbody>
    </table>
  </div>${p999Note(
    messages,
    summary.points.flatMap((point) => point.phases),
  )}`;
}

export function hasHedgeCost(summary: RunSummary): boolean {
  return summary.points.some((point) => point.phases.some((phase) => phase.hedge));
}

export function hedgeTable(messages: ReportMessages, summary: RunSummary): SafeHtml {
  const multiplePoints = summary.points.length > 1;
  const header = [
    ...(multiplePoints ? [messages.point] : []),
    messages.operation,
    messages.hedgeDelay,
    messages.hedgeBudget,
    messages.attempts,
    messages.extraRequests,
    messages.notSent,
    messages.cancelled,
    messages.reconnects,
    messages.wastedBytes,
    messages.wonByBackup,
  ];
  const body = summary.points.flatMap((point, pointIndex) =>
    point.phases.flatMap((phase) => {
      const hedge = phase.hedge;
      if (!hedge) return [];
      return [
        markup`<tr>
          ${multiplePoints ? numberCell(String(pointIndex + 1)) : ""}
          <td class="nowrap">${messages.opNames[phase.op]}</td>
          ${[
            hedge.delayMs === null ? messages.noneSent : formatMs(hedge.delayMs),
            formatPercent(hedge.budgetPct, 1),
            formatInteger(hedge.attempts),
            formatPercent(hedge.extraPct),
            hedge.notSent === undefined ? "—" : formatInteger(hedge.notSent),
            formatInteger(hedge.cancelled),
            hedge.reconnects === undefined
              ? "—"
              : `${formatInteger(hedge.reconnects)} (${formatMs(hedge.reconnectMeanMs ?? 0)})`,
            `${formatInteger(hedge.wastedBytes)} (${formatMiB(hedge.wastedBytes)} MB)`,
            formatInteger(hedge.wonByBackup),
          ].map(numberCell)}
        </tr>`,
      ];
    }),
  );
  const opColumn = multiplePoints ? 1 : 0;
  return markup`<div class="table-wrap">
    <table class="results">
      <thead>
        <tr>
          ${header.map(
            (label, index) =>
              markup`<th scope="col" ${index === opColumn ? "" : markup` class="num"`}>${label}</th>`,
          )}
        </tr>
      </thead>
      <tbody>
        ${body}
      </tbody>
    </table>
  </div>`;
}

export function testbedTable(messages: ReportMessages, summary: RunSummary): SafeHtml | null {
  const replicas = summary.testbed;
  if (!replicas || replicas.length === 0) return null;
  return markup`<div class="table-wrap">
    <table class="results">
      <thead>
        <tr>
          <th scope="col">${messages.replica}</th>
          <th scope="col" class="num">${messages.received}</th>
          <th scope="col" class="num">${messages.completed}</th>
          <th scope="col" class="num">${messages.abandoned}</th>
        </tr>
      </thead>
      <tbody>
        ${replicas.map(
          (replica) =>
            markup`<tr>
              <td class="mono">${replica.url}</td>
              ${numberCell(formatInteger(replica.received))}${numberCell(
                formatInteger(replica.completed),
              )}${numberCell(formatInteger(replica.aborted))}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** Whether TailLab's own client kept up in a phase, its arrivals, and a closed loop's omissions. */
export function clientHealthNotes(messages: ReportMessages, phase: PhaseSummary): SafeHtml {
  const words = messages.client;
  const client = phase.client;
  const lines: SafeHtml[] = [];
  if (client) {
    const { verdict, figures } = client;
    const reasons = verdict.reasons.map((reason) => words.reasons[reason]).join("; ");
    const advice = clientAdvice(verdict)
      .map((each) => words.advice[each])
      .join(words.or);
    lines.push(
      verdict.keptUp
        ? markup`<p class="note" data-client="kept-up">${words.keptUp}</p>`
        : markup`<p class="note warning" data-client="bottleneck"><strong>${words.bottleneck(reasons, advice)}</strong></p>`,
    );
    if (client.boundShards?.length) {
      lines.push(
        markup`<p class="note warning" data-client-shards="${client.boundShards.join(",")}">${words.boundShards(client.boundShards.join(", "))}</p>`,
      );
    }
    if (client.tailStallMs) {
      const { p99, p999 } = client.tailStallMs;
      lines.push(markup`<p class="note">${words.tailStall(formatMs(p99), formatMs(p999))}</p>`);
    }
    if (client.arrivals === "kept") {
      lines.push(
        markup`<p class="note">${words.arrivalsKept(formatInteger(figures.missedStarts))}</p>`,
      );
    } else if (client.arrivals === "shed") {
      lines.push(markup`<p class="note">${words.arrivalsShed(formatInteger(figures.shed))}</p>`);
    }
  }
  const note = coordinatedOmissionNote(phase);
  if (note) {
    const p99 = phase.latencyMs?.p99 ?? 0;
    const text =
      note.strength === "note"
        ? words.omissionNote
        : note.gapMs > 0 && note.gapMs >= 10 * p99
          ? words.omissionGap(formatInteger(note.gapMs), formatMs(p99))
          : words.omissionMax(String(note.maxOverP99));
    lines.push(
      markup`<p class="note${note.strength === "strong" ? " warning" : ""}" data-omission="${note.strength}">${text} ${words.rerun(note.flags)}</p>`,
    );
  }
  return markup`${lines}`;
}
