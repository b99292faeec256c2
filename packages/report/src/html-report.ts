import {
  type Operation,
  type PhaseHistograms,
  type PhaseIntervals,
  type PhaseSummary,
  type PointSummary,
  type RunDamage,
  type RunMeta,
  type RunSummary,
} from "@taillab/api";
import {
  compareRuns,
  COMPARISON_METRICS,
  differsByMode,
  modeComparison,
  phaseLadder,
  type ComparisonCell,
  type ComparisonMetric,
  type DecimatedBucket,
  type PointParam,
  type RunComparison,
} from "@taillab/core";
import { analyseHistogram } from "./histogram-analysis.ts";
import { histogramSeries } from "./histogram-series.ts";
import { latencyIndexSeries } from "./latency-index-series.ts";
import { markup, trustedHtml, type HtmlValue, type SafeHtml } from "./html.ts";
import {
  cdfChart,
  cdfOverlayChart,
  fitSummary,
  ladderChart,
  latencyHistogramChart,
  latencyIndexChart,
  percentilesOverTimeChart,
  ratesOverTimeChart,
  dataOverTimeChart,
  errorsByCodeOverTimeChart,
  modeComparisonCharts,
  seriesColor,
  sweepCharts,
  type CdfLine,
  type LadderLine,
} from "./report-charts.ts";
import {
  formatDateTime,
  formatFixed,
  formatInteger,
  formatMs,
  formatPercent,
  formatSigned,
  formatSize,
} from "./report-format.ts";
import { reportMessages, type ReportLanguage, type ReportMessages } from "./report-messages.ts";
import { renderPage, type CjkFont } from "./report-page.ts";
import { PALETTES, runLooks } from "./palette.ts";
import {
  environmentRows,
  hasHedgeCost,
  clientHealthNotes,
  hedgeTable,
  tailTable,
  keyValueTable,
  overviewRows,
  pointParamsText,
  pointResultsTable,
  specRows,
  sweepOverviewTable,
  testbedTable,
  type Row,
} from "./report-tables.ts";

/** Latency against request index for one phase, already decimated (see core's decimateSeries). */
export interface LatencySeries {
  pointIndex: number;
  op: Operation;
  buckets: DecimatedBucket[];
}

/** Everything a report draws from: no raw records, so its size does not grow with the run. */
export interface RunReportInput {
  meta: RunMeta;
  summary: RunSummary;
  histograms: PhaseHistograms[];
  latencySeries: LatencySeries[];
  /** What was wrong with the run's folder, said at the top of the report; null when nothing. */
  damage: RunDamage | null;
  /** Percentiles over time per point and operation. */
  intervals: PhaseIntervals[];
}

export interface RunReportOptions {
  language: ReportLanguage;
  /** The app's CJK font, for a Chinese report to carry (see CjkFont). */
  cjkFont?: CjkFont | undefined;
}

export interface ComparisonReportOptions extends RunReportOptions {
  baselineIndex: number;
}

/** A phase's stored latency histogram (null when none was stored) and what it gives the charts. */
function analysePhase(histograms: readonly PhaseHistograms[], pointIndex: number, op: Operation) {
  const stored = histograms.find((entry) => entry.pointIndex === pointIndex && entry.op === op);
  return stored
    ? { histogram: stored.latency, analysis: analyseHistogram(stored.latency) }
    : { histogram: null, analysis: null };
}

/** Hands out ids that are unique within one document and carry no data. */
function idSource(prefix: string): (kind: string) => string {
  let next = 0;
  return (kind) => `${prefix}${(next += 1)}-${kind}`;
}

interface Section {
  id: string;
  title: string;
  body: HtmlValue;
  /** Folds under its heading (a sweep's points), open or closed to begin with. */
  fold?: "open" | "closed";
}

function renderSections(sections: readonly Section[]): SafeHtml {
  return markup`${sections.map((section) =>
    section.fold
      ? markup`<section id="${section.id}">
          <details class="fold"${section.fold === "open" ? markup` open` : ""}>
            <summary><h2>${section.title}</h2></summary>
            ${section.body}
          </details>
        </section>`
      : markup`<section id="${section.id}">
          <h2>${section.title}</h2>
          ${section.body}
        </section>`,
  )}`;
}

function tableOfContents(messages: ReportMessages, sections: readonly Section[]): SafeHtml {
  return markup`<nav class="toc" aria-label="${messages.contents}">
    <strong>${messages.contents}</strong>
    <ol>
      ${sections.map((section) => markup`<li><a href="#${section.id}">${section.title}</a></li>`)}
    </ol>
  </nav>`;
}

function footer(messages: ReportMessages, version: string): SafeHtml {
  return markup`<footer>
    <p>${messages.generatedBy(version)}</p>
    <p class="legend-hint">${messages.legendHint}</p>
  </footer>`;
}

/** Phases worth a ladder or a sweep line: cleanup (DELETE) only when nothing else ran. */
function chartedPhases(point: PointSummary): PhaseSummary[] {
  const main = point.phases.filter((phase) => phase.op !== "DELETE");
  return main.length > 0 ? main : point.phases;
}

function phaseCharts(
  messages: ReportMessages,
  nextId: (kind: string) => string,
  input: RunReportInput,
  pointIndex: number,
  phase: PhaseSummary,
  analysis: ReturnType<typeof analysePhase>,
): SafeHtml {
  const opLabel = messages.opNames[phase.op];
  const series = input.latencySeries.find(
    (entry) => entry.pointIndex === pointIndex && entry.op === phase.op,
  );
  const stats = phase.latencyMs;
  if (!stats)
    return markup`<h3>${opLabel}</h3><p class="note">${opLabel}: ${messages.noLatencies}</p>`;
  const parts: HtmlValue[] = [];
  if (series && series.buckets.length > 0) {
    parts.push(
      latencyIndexChart(nextId("index"), messages, latencyIndexSeries(series.buckets, stats)),
    );
  } else {
    parts.push(markup`<p class="note">${opLabel}: ${messages.noSeries}</p>`);
  }
  const overTime = input.intervals.find(
    (entry) => entry.pointIndex === pointIndex && entry.op === phase.op,
  );
  if (overTime && overTime.intervals.length > 0) {
    parts.push(
      percentilesOverTimeChart(
        nextId("time"),
        messages,
        overTime.intervals,
        phase.client?.seconds ?? [],
      ),
      ratesOverTimeChart(nextId("ops"), messages, overTime.intervals, "throughput"),
      dataOverTimeChart(nextId("data"), messages, overTime.intervals),
      errorsByCodeOverTimeChart(nextId("errors"), messages, overTime.intervals),
    );
  }
  if (phase.tail) parts.push(tailTable(messages, phase.tail));
  parts.push(clientHealthNotes(messages, phase));
  if (analysis.histogram === null) {
    parts.push(markup`<p class="note">${opLabel}: ${messages.noHistogram}</p>`);
  } else if (!analysis.analysis) {
    parts.push(markup`<p class="note">${opLabel}: ${messages.noLatencies}</p>`);
  } else {
    const measuredP99 = stats.p99;
    parts.push(
      latencyHistogramChart(nextId("hist"), messages, histogramSeries(analysis.analysis.view)),
      cdfChart(nextId("cdf"), messages, analysis.analysis, measuredP99),
      fitSummary(messages, analysis.analysis.fits, measuredP99),
    );
  }
  return markup`<h3>${opLabel}</h3>
    ${parts}`;
}

/** One self-contained HTML file for a run: opens offline, prints, reads on a projector. */
export function renderRunReport(input: RunReportInput, options: RunReportOptions): string {
  const messages = reportMessages(options.language);
  const { meta, summary } = input;
  const nextId = idSource("c");
  const isSweep = summary.points.length > 1;
  const analyses = summary.points.map((point, pointIndex) =>
    point.phases.map((phase) => analysePhase(input.histograms, pointIndex, phase.op)),
  );

  const results: HtmlValue[] = [markup`<p class="note">${messages.resultsIntro}</p>`];
  if (isSweep) {
    results.push(markup`<h3>${messages.sweepTable}</h3>`, sweepOverviewTable(messages, summary));
  }
  summary.points.forEach((point, pointIndex) => {
    if (isSweep) {
      results.push(
        markup`<h3>${messages.pointTitle(pointIndex + 1, pointParamsText(messages, point))}</h3>`,
      );
    } else {
      results.push(markup`<p><strong>${pointParamsText(messages, point)}</strong></p>`);
    }
    results.push(pointResultsTable(messages, point));
  });

  const sections: Section[] = [
    {
      id: "overview",
      title: messages.overview,
      body: keyValueTable(overviewRows(messages, meta, summary)),
    },
    { id: "spec", title: messages.spec, body: keyValueTable(specRows(messages, summary.spec)) },
    {
      id: "environment",
      title: messages.environment,
      body: keyValueTable(environmentRows(messages, meta, summary)),
    },
    { id: "results", title: messages.results, body: results },
  ];

  summary.points.forEach((point, pointIndex) => {
    sections.push({
      id: `point-${pointIndex + 1}`,
      // A sweep's points fold, the first open: five points of charts are 45 000 px tall.
      ...(isSweep ? { fold: pointIndex === 0 ? ("open" as const) : ("closed" as const) } : {}),
      title: isSweep
        ? `${messages.latency} — ${messages.pointTitle(pointIndex + 1, pointParamsText(messages, point))}`
        : `${messages.latency} — ${pointParamsText(messages, point)}`,
      body: point.phases
        .filter((phase) => phase.requests > 0)
        .map((phase) =>
          phaseCharts(
            messages,
            nextId,
            input,
            pointIndex,
            phase,
            analyses[pointIndex]?.[point.phases.indexOf(phase)] ??
              analysePhase([], pointIndex, phase.op),
          ),
        ),
    });
  });

  const ladderLines: LadderLine[] = [];
  summary.points.forEach((point, pointIndex) => {
    for (const phase of chartedPhases(point)) {
      const phaseIndex = point.phases.indexOf(phase);
      const histogram = analyses[pointIndex]?.[phaseIndex]?.histogram ?? null;
      const points = phaseLadder(histogram, phase.latencyMs);
      if (points.length === 0) continue;
      const colorIndex = isSweep ? pointIndex : ladderLines.length;
      ladderLines.push({
        label: isSweep
          ? `${phase.op} · ${pointParamsText(messages, point)}`
          : messages.opNames[phase.op],
        color: seriesColor(colorIndex),
        dash: isSweep && phase.op === "GET" ? "dash" : undefined,
        points,
      });
    }
  });
  if (ladderLines.length > 0) {
    sections.push({
      id: "ladder",
      title: messages.ladderTitle,
      body: ladderChart(nextId("ladder"), messages.ladderChartTitle, messages, ladderLines),
    });
  }

  if (isSweep) {
    const charts = sweepCharts(nextId("sweep"), messages, summary, (op) => messages.opNames[op]);
    if (charts.length > 0) sections.push({ id: "sweep", title: messages.sweepTitle, body: charts });
  }
  if (hasHedgeCost(summary)) {
    sections.push({
      id: "hedge",
      title: messages.hedgeTitle,
      body: markup`<p class="note">${messages.hedgeIntro}</p>
        ${hedgeTable(messages, summary)}`,
    });
  }
  const testbed = testbedTable(messages, summary);
  if (testbed) sections.push({ id: "testbed", title: messages.testbedTitle, body: testbed });

  const title = meta.name || summary.runId;
  const subtitle = [
    messages.modeNames[summary.mode],
    messages.loopNames[summary.loop],
    formatDateTime(summary.startedAt),
  ].join(" · ");
  const body = markup`<header class="report-header">
      <p class="eyebrow">${messages.runReportTitle}</p>
      <h1>${title}</h1>
      <p class="subtitle">${subtitle} · <span class="mono">${summary.runId}</span></p>
      ${
        meta.tags.length > 0
          ? markup`<ul class="tags">
              ${meta.tags.map((tag) => markup`<li class="tag">${tag}</li>`)}
            </ul>`
          : ""
      }
    </header>
    ${summary.status === "stopped" ? markup`<p class="callout">${messages.stoppedEarly}</p>` : ""}${
      summary.serverLosses?.length
        ? markup`<p class="callout" data-server-lost>${serverLostText(summary, messages)}</p>`
        : ""
    }${meta.error ? markup`<p class="callout error pre-wrap">${meta.error}</p>` : ""}${
      input.damage
        ? markup`<p class="callout error">${messages.damaged}</p>
          <ul>${input.damage.problems.map((problem) => markup`<li>${problem}</li>`)}</ul>`
        : ""
    }${tableOfContents(messages, sections)}${renderSections(sections)}${footer(messages, meta.environment.taillabVersion)}`;
  return renderPage({
    language: options.language,
    title: `${title} — ${messages.runReportTitle}`,
    body,
    cjkFont: options.cjkFont,
  });
}

const ALL_METRICS = COMPARISON_METRICS;

function formatMetric(metric: ComparisonMetric, value: number): string {
  switch (metric) {
    case "throughputMBps":
      return formatFixed(value, 2);
    case "opsPerSec":
      return formatFixed(value, 1);
    case "errors":
    case "hedgeWastedBytes":
      return formatInteger(value);
    case "hedgeExtraPct":
      return formatPercent(value);
    default:
      return formatMs(value);
  }
}

function deltaClass(cell: ComparisonCell, better: "lower" | "higher"): string {
  if (cell.delta === null || cell.delta === 0) return "";
  const improved = better === "lower" ? cell.delta < 0 : cell.delta > 0;
  return improved ? "delta-better" : "delta-worse";
}

function comparisonCell(
  messages: ReportMessages,
  metric: ComparisonMetric,
  better: "lower" | "higher",
  cell: ComparisonCell,
  isBaseline: boolean,
): SafeHtml {
  if (cell.value === null) return markup`<td class="num">${messages.missing}</td>`;
  const value = formatMetric(metric, cell.value);
  if (isBaseline || cell.delta === null) return markup`<td class="num">${value}</td>`;
  const pct =
    cell.deltaPct === null
      ? ""
      : ` (${formatSigned(formatFixed(cell.deltaPct, 1), cell.deltaPct)} %)`;
  const delta =
    cell.delta === 0 ? "±0" : `${formatSigned(formatMetric(metric, cell.delta), cell.delta)}${pct}`;
  const tone = deltaClass(cell, better);
  const judged =
    cell.significant === null
      ? ""
      : markup`<span class="significance" data-significant="${String(cell.significant)}">${cell.significant ? messages.significant : messages.notSignificant}</span>`;
  return markup`<td class="num">
    ${value}<span class="delta${tone ? ` ${tone}` : ""}">${delta}</span>${judged}
  </td>`;
}

/** How a percentile's change was judged, when any was. */
function significanceNote(messages: ReportMessages, comparison: RunComparison): SafeHtml | "" {
  const judged = comparison.rows.some((row) =>
    row.cells.p99Ms.some((cell) => cell.significant !== null),
  );
  return judged ? markup`<p class="note">${messages.significanceNote}</p>` : "";
}

/** A run's name (or id), numbered when two runs being compared share it. */
function runLabel(inputs: readonly RunReportInput[], index: number): string {
  const base = (input: RunReportInput) => input.meta.name || input.summary.runId;
  const own = base(inputs[index] as RunReportInput);
  const shared = inputs.some((other, otherIndex) => otherIndex !== index && base(other) === own);
  return shared ? `${own} (#${index + 1})` : own;
}

/** One line per run paired with the baseline in order, naming what differs. */
function pairingNotes(
  messages: ReportMessages,
  inputs: readonly RunReportInput[],
  comparison: RunComparison,
): SafeHtml[] {
  const shown = (param: PointParam, values: readonly number[]) =>
    values
      .map((value) => (param === "objectSizeBytes" ? formatSize(value) : formatInteger(value)))
      .join(", ");
  return comparison.pairings.flatMap(({ pairing, differingParams }, index) =>
    pairing === "in-order"
      ? [
          markup`<p class="note" data-pairing="in-order">${messages.pairedInOrder(
            runLabel(inputs, index),
            differingParams.map(({ param, values, baselineValues }) =>
              messages.paramDifference(param, shown(param, values), shown(param, baselineValues)),
            ),
          )}</p>`,
        ]
      : [],
  );
}

function comparisonTables(
  messages: ReportMessages,
  inputs: readonly RunReportInput[],
  comparison: RunComparison,
): SafeHtml[] {
  const hasHedge = inputs.some((input) => hasHedgeCost(input.summary));
  const metrics = ALL_METRICS.filter(
    ({ metric }) => hasHedge || (metric !== "hedgeExtraPct" && metric !== "hedgeWastedBytes"),
  );
  return comparison.rows.map((row) => {
    const params = messages.pointParams(
      row.params.clients,
      row.params.samples,
      formatSize(row.params.objectSizeBytes),
    );
    const header = markup`<tr>
      <th scope="col">${messages.metric}</th>
      ${inputs.map(
        (input, index) =>
          markup`<th scope="col" class="num">
            ${runLabel(inputs, index)}${
              index === comparison.baselineIndex
                ? markup`<span class="badge">${messages.baselineMark}</span>`
                : ""
            }
          </th>`,
      )}
    </tr>`;
    const body = metrics.map(
      ({ metric, better }) =>
        markup`<tr>
          <th scope="row">${messages.metricNames[metric] ?? metric}</th>
          ${row.cells[metric].map((cell, index) =>
            comparisonCell(messages, metric, better, cell, index === comparison.baselineIndex),
          )}
        </tr>`,
    );
    return markup`<h3>${messages.opNames[row.op]} — ${params}</h3>
      <div class="table-wrap">
        <table class="results comparison">
          <thead>
            ${header}
          </thead>
          <tbody>
            ${body}
          </tbody>
        </table>
      </div>`;
  });
}

function specComparisonTable(
  messages: ReportMessages,
  inputs: readonly RunReportInput[],
  rowsOf: (input: RunReportInput) => Row[],
): SafeHtml {
  // Rows are matched by their rendered (already escaped) label.
  const perRun = inputs.map((input) =>
    rowsOf(input).map(([label, value]) => [markup`${label}`.text, markup`${value}`] as const),
  );
  const labels: string[] = [];
  for (const rows of perRun)
    for (const [label] of rows) if (!labels.includes(label)) labels.push(label);
  const body = labels.map((label) => {
    const values = perRun.map(
      (rows) => rows.find(([candidate]) => candidate === label)?.[1] ?? null,
    );
    const texts = values.map((value) => value?.text ?? "");
    const differs = texts.some((text) => text !== texts[0]);
    return markup`<tr${differs ? markup` class="differs"` : ""}><th scope="row">${trustedHtml(label)}</th>${values.map(
      (value) => markup`<td>${value ?? messages.missing}</td>`,
    )}</tr>`;
  });
  return markup`<div class="table-wrap">
    <table class="kv comparison">
      <thead>
        <tr>
          <th scope="col">${messages.setting}</th>
          ${inputs.map((input, index) => markup`<th scope="col">${runLabel(inputs, index)}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${body}
      </tbody>
    </table>
  </div>`;
}

/** Several runs side by side against a baseline: tables with deltas, ladders and CDFs per point. */
export function renderComparisonReport(
  inputs: readonly RunReportInput[],
  options: ComparisonReportOptions,
): string {
  const messages = reportMessages(options.language);
  const comparison = compareRuns(
    inputs.map((input) => input.summary),
    options.baselineIndex,
  );
  const nextId = idSource("k");

  const runsTable = markup`<div class="table-wrap">
    <table class="results">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">${messages.runName}</th>
          <th scope="col">${messages.runId}</th>
          <th scope="col">${messages.mode}</th>
          <th scope="col">${messages.loop}</th>
          <th scope="col">${messages.started}</th>
          <th scope="col">${messages.tags}</th>
        </tr>
      </thead>
      <tbody>
        ${inputs.map(
          (input, index) =>
            markup`<tr>
              <td class="num">${index + 1}</td>
              <td>
                ${runLabel(inputs, index)}${
                  index === comparison.baselineIndex
                    ? markup`<span class="badge">${messages.baselineMark}</span>`
                    : ""
                }${input.summary.status === "stopped" ? markup`<br /><span class="note">${messages.stoppedEarly}</span>` : ""}
              </td>
              <td class="mono">${input.summary.runId}</td>
              <td>${messages.modeNames[input.summary.mode]}</td>
              <td>${messages.loopNames[input.summary.loop]}</td>
              <td>${formatDateTime(input.summary.startedAt)}</td>
              <td>${input.meta.tags.join(", ")}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;

  const ladders: HtmlValue[] = [];
  const cdfs: HtmlValue[] = [];
  const looks = runLooks(
    PALETTES.light,
    inputs.map((input) => input.summary.mode),
  );
  for (const row of comparison.rows) {
    if (row.op === "DELETE" && comparison.rows.some((other) => other.op !== "DELETE")) continue;
    const params = messages.pointParams(
      row.params.clients,
      row.params.samples,
      formatSize(row.params.objectSizeBytes),
    );
    const ladderLines: LadderLine[] = [];
    const cdfLines: CdfLine[] = [];
    row.pointIndexes.forEach((pointIndex, runIndex) => {
      if (pointIndex === null) return;
      const input = inputs[runIndex] as RunReportInput;
      const phase = input.summary.points[pointIndex]?.phases.find((entry) => entry.op === row.op);
      if (!phase?.latencyMs) return;
      const { histogram, analysis } = analysePhase(input.histograms, pointIndex, row.op);
      const label = runLabel(inputs, runIndex);
      const { color, dash } = looks[runIndex]!;
      ladderLines.push({ label, color, dash, points: phaseLadder(histogram, phase.latencyMs) });
      if (analysis) cdfLines.push({ label, color, dash, view: analysis.view });
    });
    const title = messages.ladderOpTitle(messages.opNames[row.op], params);
    if (ladderLines.length > 0)
      ladders.push(ladderChart(nextId("ladder"), title, messages, ladderLines));
    if (cdfLines.length > 0) {
      const cdfTitle = messages.cdfOverlayTitle(messages.opNames[row.op], params);
      cdfs.push(cdfOverlayChart(nextId("cdf"), cdfTitle, messages, cdfLines));
    }
  }

  const sections: Section[] = [
    { id: "runs", title: messages.comparedRuns, body: runsTable },
    {
      id: "side-by-side",
      title: messages.comparisonTable,
      body: markup`<p class="note">${messages.comparisonIntro}</p>
        ${pairingNotes(messages, inputs, comparison)}${significanceNote(messages, comparison)}${comparisonTables(messages, inputs, comparison)}`,
    },
  ];
  if (ladders.length > 0)
    sections.push({ id: "ladder", title: messages.ladderTitle, body: ladders });
  const summaries = inputs.map((input) => input.summary);
  if (differsByMode(summaries)) {
    const charts = comparison.rows
      .filter((row) => row.op !== "DELETE")
      .flatMap((row) => {
        const entries = modeComparison(summaries, row);
        const shared = (mode: string) => entries.filter((entry) => entry.mode === mode).length > 1;
        const params = messages.pointParams(
          row.params.clients,
          row.params.samples,
          formatSize(row.params.objectSizeBytes),
        );
        const op = messages.opNames[row.op];
        return modeComparisonCharts(
          nextId("modes"),
          messages,
          { tail: messages.modeTailTitle(op, params), cost: messages.modeCostTitle(op, params) },
          entries.map((entry) => ({
            ...entry,
            label: shared(entry.mode)
              ? `${messages.modeShort[entry.mode]} #${entry.runIndex + 1}`
              : messages.modeShort[entry.mode],
          })),
        );
      });
    sections.push({
      id: "modes",
      title: messages.modesSection,
      body: [markup`<p class="note">${messages.modesIntro}</p>`, ...charts],
    });
  }
  if (cdfs.length > 0) sections.push({ id: "cdf", title: messages.cdfComparisonTitle, body: cdfs });
  sections.push(
    {
      id: "spec",
      title: messages.specComparison,
      body: specComparisonTable(messages, inputs, (input) =>
        specRows(messages, input.summary.spec),
      ),
    },
    {
      id: "environment",
      title: messages.environment,
      body: specComparisonTable(messages, inputs, (input) =>
        environmentRows(messages, input.meta, input.summary),
      ),
    },
  );

  const title = messages.comparisonTitle(inputs.length);
  const baseline = inputs[comparison.baselineIndex] as RunReportInput;
  const body = markup`<header class="report-header">
      <p class="eyebrow">TailLab</p>
      <h1>${title}</h1>
      <p class="subtitle">${messages.baseline}: ${runLabel(inputs, comparison.baselineIndex)}</p>
    </header>
    ${tableOfContents(messages, sections)}${renderSections(sections)}${footer(messages, baseline.meta.environment.taillabVersion)}`;
  return renderPage({ language: options.language, title, body, cjkFont: options.cjkFont });
}

/** A run's server stopped answering: when, what ended early, what never ran. */
function serverLostText(summary: RunSummary, messages: ReportMessages): string {
  const named = (phase: string, pointIndex: number) =>
    summary.pointCount > 1 ? `${phase} (${pointIndex + 1})` : phase;
  const losses = summary.serverLosses ?? [];
  const at = losses[0]?.at.slice(11, 19) ?? "";
  const phases = losses.map((loss) => named(loss.phase, loss.pointIndex)).join(", ");
  const notRun = (summary.serverGone?.notRun ?? [])
    .map((phase) => {
      const name = named(phase.phase, phase.pointIndex);
      return phase.repetition === undefined ? name : `${name} #${phase.repetition + 1}`;
    })
    .join(", ");
  return messages.serverLost(`${at} UTC`, phases, notRun);
}
