import { createHash } from "node:crypto";
import { createLatencyHistogram, encodeHistogram } from "@taillab/core";
import { describe, expect, it } from "vitest";
import { escapeHtml } from "./html.ts";
import { renderComparisonReport, renderRunReport, type RunReportInput } from "./html-report.ts";
import { REPORT_LANGUAGES, REPORT_MESSAGES, type ReportLanguage } from "./report-messages.ts";
import { syntheticRun } from "./test-support/synthetic-run.ts";

const MB = 1024 * 1024;
const hash = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");
const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
const ids = (page: string) => [...page.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);

const hostile = '<script>alert("pwned")</script>';

function hostileRun(): RunReportInput {
  const run = syntheticRun({
    name: `Lab 3 ${hostile}`,
    notes: `line one\n<img src=x onerror=alert(1)>`,
    tags: ["<b>bold</b>", "tail & hedge"],
    mode: "hedged",
    spec: { name: `spec ${hostile}` },
  });
  run.meta.environment.cpuModel = "<svg onload=alert(1)>";
  run.meta.environment.server = "nginx</td><script>x()</script>";
  run.summary.runId = `run-"quoted"-<id>`;
  return run;
}

describe("a report's CJK font", () => {
  const cjkFont = { regular: "UkVHVUxBUg==", bold: "Qk9MRA==" };

  it.each([
    ["run", (language: ReportLanguage) => renderRunReport(syntheticRun({}), { language, cjkFont })],
    [
      "comparison",
      (language: ReportLanguage) =>
        renderComparisonReport([syntheticRun({}), syntheticRun({ seed: 2 })], {
          baselineIndex: 0,
          language,
          cjkFont,
        }),
    ],
  ])(
    "a %s report carries the font it is given inline, allowed by hash, and nothing else",
    (_kind, render) => {
      const page = render("zh-CN");
      const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
        (match) => match[1] ?? "",
      );
      expect(styles).toHaveLength(2);
      const faces = styles[1] ?? "";
      expect(count(faces, /@font-face\{font-family:"TailLab CJK"/g)).toBe(2);
      expect(faces).toContain(
        'src:url(data:font/woff2;base64,UkVHVUxBUg==) format("woff2");font-weight:100 500',
      );
      expect(faces).toContain(
        'src:url(data:font/woff2;base64,Qk9MRA==) format("woff2");font-weight:600 900',
      );
      expect(faces).toContain("unicode-range:U+2E80-2FDF,U+3000-303F,U+3400-4DBF,U+4E00-9FFF");
      const policy = (/content="([^"]+)">/.exec(page)?.[1] ?? "").replaceAll("&#39;", "'");
      expect(policy).toContain(
        `style-src 'sha256-${hash(styles[0] ?? "")}' 'sha256-${hash(faces)}'`,
      );
      expect(policy).toContain("font-src data:");
      expect(styles[0]).toContain('font-family:"TailLab CJK",system-ui');
    },
  );

  it("a report without one has no font face and no font source", () => {
    const page = renderRunReport(syntheticRun({}), { language: "en" });
    expect(page).not.toContain("@font-face");
    expect(page).not.toContain("font-src");
  });
});

describe("renderRunReport", () => {
  it("a damaged run's report says so at the top, with each problem (escaped)", () => {
    const problems = [
      "records.log: the 812 bytes after record 5000 could not be read (cut short or damaged); the records in them are lost",
      `summary.json is not valid JSON (${hostile}); the summary is rebuilt from the records`,
    ];
    const page = renderRunReport(
      { ...syntheticRun({}), damage: { problems, skippedLogBytes: 812, lostRecords: null } },
      { language: "en" },
    );
    expect(page).toContain("folder is damaged: the figures cover what could be read.");
    expect(page).toContain("<li>records.log: the 812 bytes after record 5000 could not be read");
    expect(count(page, /<script/g)).toBe(1);
    expect(renderRunReport(syntheticRun({}), { language: "en" })).not.toContain(
      "folder is damaged",
    );
  });

  describe.each(REPORT_LANGUAGES)("in %s", (language) => {
    const page = renderRunReport(hostileRun(), { language });

    it("escapes every value that came from data", () => {
      expect(count(page, /<script/g)).toBe(1);
      expect(page).not.toMatch(/<img|<b>bold|<svg onload|<\/td><script/);
      // Attributes only ever come from the report itself: no handler or source slipped in.
      expect(page).not.toMatch(/<[^>]*\son[a-z]+=/);
      expect(page).toContain("Lab 3 &lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;");
      expect(page).toContain("spec &lt;script&gt;");
      expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;");
      expect(page).toContain("tail &amp; hedge");
      expect(page).toContain("run-&quot;quoted&quot;-&lt;id&gt;");
    });

    it("allows exactly its own style and script, by hash, and nothing from the network", () => {
      const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(
        page,
      )?.[1];
      expect(policy).toBeDefined();
      const directives = policy!.replaceAll("&#39;", "'");
      const script = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] ?? "";
      const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? "";
      expect(directives).toContain("default-src 'none'");
      expect(directives).toContain(`script-src 'sha256-${hash(script)}'`);
      expect(directives).toContain(`style-src 'sha256-${hash(style)}'`);
      expect(directives).not.toContain("unsafe-inline");
      expect(page.indexOf("Content-Security-Policy")).toBeLessThan(page.indexOf("<style>"));
      expect(page).not.toMatch(
        /<[^>]*\s(src|style)=|https?:\/\/(?!127\.0\.0\.1)|@import|url\((?!#)/,
      );
      for (const [, target] of page.matchAll(/href="([^"]*)"/g)) expect(target).toMatch(/^#/);
    });

    it("gives every element id once and links the contents to real sections", () => {
      const all = ids(page);
      expect(new Set(all).size).toBe(all.length);
      for (const [, target] of page.matchAll(/href="#([^"]*)"/g)) expect(all).toContain(target);
    });

    it("draws the charts of a single-point run and the hedge-cost table", () => {
      // Per phase: latency by index, percentiles, throughput, data moved and errors over time,
      // histogram, CDF; then the ladder.
      expect(count(page, /<svg class="chart"/g)).toBe(2 * 7 + 1);
      // Where each phase's slowest 1 % and 0.1 % spent their time.
      expect(count(page, /<table class="results">\s*<caption>/g)).toBe(2);
      expect(page).toContain('id="hedge"');
      expect(page).not.toContain('id="sweep"');
      expect(page).toContain(`lang="${language}"`);
    });
  });

  it("names things naturally in Chinese", () => {
    const page = renderRunReport(syntheticRun(), { language: "zh-CN" });
    for (const word of ["延迟", "吞吐量", "百分位", "请求序号", "累积分布函数", "排队模型"]) {
      expect(page).toContain(word);
    }
    expect(page).not.toContain("Latency by request index");
  });

  it("says where an imported run came from, and shows the figures its tool printed", () => {
    const run = syntheticRun({});
    run.meta.imported = {
      tool: "s3bench",
      file: "s3bench-output.txt",
      importedAt: "2025-03-02T10:00:00.000Z",
      notCarried: ["per-request data", "the machine s3bench ran on"],
    };
    const [phase] = run.summary.points[0]?.phases ?? [];
    if (!phase) throw new Error("the synthetic run has no phase");
    phase.latencyMs = null;
    phase.toolLatencyMs = { p50: 7, p99: 21, max: 21 };
    const english = renderRunReport(run, { language: "en" });
    expect(english).toContain(
      '<th scope="row">Imported from</th><td><span class="mono" translate="no">s3bench</span>',
    );
    expect(english).toContain("the machine s3bench ran on");
    expect(english).not.toContain("TailLab version");
    expect(english).toMatch(/<td class="num">21\.0+<\/td>/);
    const chinese = renderRunReport(run, { language: "zh-CN" });
    expect(chinese).toContain("文件未包含的 2 项数据留空，不做推测。");
    expect(chinese).not.toContain("the machine s3bench ran on");
  });

  it("says whether TailLab's client kept up, and what the closed loop left out, in both languages", () => {
    const run = syntheticRun({});
    const [phase] = run.summary.points[0]?.phases ?? [];
    if (!phase) throw new Error("the synthetic run has no phase");
    phase.client = {
      version: 1,
      verdict: { keptUp: false, reasons: ["cpu"] },
      figures: {
        cpuCores: 1.9,
        availableCores: 2,
        busiestWorkerCpu: 0.95,
        eventLoopDelayP99Ms: 3,
        stallShare: 0.05,
        starts: 100,
        missedStarts: 0,
        behindMs: 0,
        shed: 0,
      },
      workers: 2,
      clientsPerWorker: 2,
      tailStallMs: { p99: 12.5, p999: 40 },
      arrivals: null,
      seconds: [],
    };
    const english = renderRunReport(run, { language: "en" });
    expect(english).toContain('data-client="bottleneck"');
    expect(english).toContain("own client was the bottleneck in this phase");
    expect(english).toContain("running the server on another machine");
    expect(english).toMatch(/data-omission="(note|strong)"/);
    expect(english).toMatch(/taillab run --rate \d+\/s/);
    const chinese = renderRunReport(run, { language: "zh-CN" });
    expect(chinese).toContain("瓶颈是 TailLab 自己的客户端");
    expect(chinese).toContain("协调遗漏");
    expect(english).not.toContain("data-client-shards");
  });

  it("names the shards of a distributed run whose client was the bottleneck, in both languages", () => {
    const run = syntheticRun({});
    const [phase] = run.summary.points[0]?.phases ?? [];
    if (!phase) throw new Error("the synthetic run has no phase");
    const figures = {
      cpuCores: 1.9,
      availableCores: 2,
      busiestWorkerCpu: 0.5,
      eventLoopDelayP99Ms: 1,
      stallShare: 0,
      starts: 100,
      missedStarts: 0,
      behindMs: 0,
      shed: 0,
    };
    phase.client = {
      version: 1,
      verdict: { keptUp: false, reasons: ["cpu"] },
      figures,
      workers: 1,
      clientsPerWorker: 2,
      tailStallMs: null,
      arrivals: null,
      seconds: [],
      boundShards: [1, 3],
    };
    expect(renderRunReport(run, { language: "en" })).toContain(
      'data-client-shards="1,3">The shards whose client was the bottleneck: 1, 3.</p>',
    );
    expect(renderRunReport(run, { language: "zh-CN" })).toContain("客户端是瓶颈的分片:1, 3。");
  });

  it("shades the seconds whose client was the bottleneck in percentiles over time, in both languages", () => {
    const run = syntheticRun({});
    const [phase] = run.summary.points[0]?.phases ?? [];
    if (!phase) throw new Error("the synthetic run has no phase");
    const figures = {
      cpuCores: 0.5,
      availableCores: 2,
      busiestWorkerCpu: 0.5,
      eventLoopDelayP99Ms: 1,
      stallShare: 0,
      starts: 100,
      missedStarts: 0,
      behindMs: 0,
      shed: 0,
    };
    const second = (startMs: number, keptUp: boolean) => ({
      startMs,
      ...figures,
      verdict: { keptUp, reasons: keptUp ? [] : (["cpu"] as ["cpu"]) },
    });
    phase.client = {
      version: 1,
      verdict: { keptUp: false, reasons: ["cpu"] },
      figures,
      workers: 1,
      clientsPerWorker: 2,
      tailStallMs: null,
      arrivals: null,
      seconds: [second(0, true), second(1000, false), second(2000, false), second(3000, true)],
    };
    const english = renderRunReport(run, { language: "en" });
    // One shaded stretch (seconds 1–3), behind the lines, with its legend entry.
    expect(english.match(/<path class="bars"[^>]*fill-opacity="0.3"/g)).toHaveLength(1);
    expect(english).toContain("<span>client was the bottleneck</span>");
    const chinese = renderRunReport(run, { language: "zh-CN" });
    expect(chinese).toContain("<span>客户端是瓶颈</span>");
    phase.client = { ...phase.client, seconds: [second(0, true)] };
    const keptUp = renderRunReport(run, { language: "en" });
    expect(keptUp).not.toContain("<span>client was the bottleneck</span>");
    expect(keptUp).not.toMatch(/<path class="bars"[^>]*fill-opacity="0.3"/);
  });

  it("draws each second's percentile intervals as bands and says which seconds' tails rest on few, in both languages", () => {
    const run = syntheticRun({});
    const english = renderRunReport(run, { language: "en" });
    for (const label of ["p50", "p99", "p99.9"]) {
      expect(english).toContain(`<span>${label} 95 % interval</span>`);
    }
    // The synthetic run's seconds hold a few hundred requests each: p99.9 rests on fewer than 10.
    const seconds = run.intervals[0]?.intervals.length ?? 0;
    expect(english).toMatch(
      new RegExp(`p99\\.9 rests on fewer than 10 slower requests in \\d+ of ${seconds} seconds`),
    );
    const chinese = renderRunReport(run, { language: "zh-CN" });
    expect(chinese).toContain("<span>p99.9 95 % 置信区间</span>");
    expect(chinese).toContain("仅由不到 10 个更慢的请求决定");
    // Figures made before intervals were kept: no bands, no note about them.
    for (const phase of run.intervals) {
      for (const second of phase.intervals) delete second.percentileIntervals;
    }
    const older = renderRunReport(run, { language: "en" });
    expect(older).not.toContain("95 % interval</span>");
    expect(older).not.toContain("Shaded: each second's 95 % interval");
  });

  it("counts the requests a stop cut off in flight, in both languages, only where there were some", () => {
    const run = syntheticRun({});
    const [put, get] = run.summary.points[0]?.phases ?? [];
    if (!put || !get) throw new Error("the synthetic run has no two phases");
    expect(renderRunReport(run, { language: "en" })).not.toContain("Cut off by the stop");
    put.cutOff = 1234;
    const english = renderRunReport(run, { language: "en" });
    expect(english).toMatch(
      /<th scope="row">Cut off by the stop \(recorded, not in the figures\)<\/th><td class="num">1,234<\/td><td class="num">0<\/td>/,
    );
    expect(renderRunReport(run, { language: "zh-CN" })).toContain("停止时中断的在途请求");
  });

  it.each([
    ["en", "Connect (ms)", "Upload (ms)", "Upload p50 (ms)", "not recorded"],
    ["zh-CN", "建立连接 (ms)", "上传 (ms)", "上传 p50 (ms)", "未记录"],
  ] as const)(
    "names the connect and the upload, and says where a run did not record them (%s)",
    (language, connect, upload, uploadRow, notRecorded) => {
      const run = syntheticRun({});
      const page = renderRunReport(run, { language });
      expect(page).toContain(`<th scope="col" class="num">${connect}</th>`);
      expect(page).toContain(`<th scope="col" class="num">${upload}</th>`);
      expect(page).toContain(`<th scope="row">${uploadRow}</th>`);
      expect(page).not.toContain(notRecorded);
      for (const phase of run.summary.points[0]?.phases ?? []) {
        delete phase.connectMs;
        delete phase.uploadMs;
        if (phase.tail) delete phase.tail.p99.connectMs;
      }
      expect(renderRunReport(run, { language })).toContain(`<td class="num">${notRecorded}</td>`);
    },
  );

  it("has the same messages in every language, none empty", () => {
    const keys = (language: ReportLanguage) => Object.keys(REPORT_MESSAGES[language]).sort();
    expect(keys("zh-CN")).toEqual(keys("en"));
    for (const language of REPORT_LANGUAGES) {
      for (const [key, value] of Object.entries(REPORT_MESSAGES[language])) {
        if (typeof value === "string") expect(value.length, key).toBeGreaterThan(0);
      }
    }
  });

  it("rejects a language it does not have", () => {
    expect(() => renderRunReport(syntheticRun(), { language: "fr" as ReportLanguage })).toThrow(
      /report language "fr" is not supported; use one of en, zh-CN/,
    );
  });

  it("adds sweep charts for a sweep: against size and against concurrency", () => {
    const page = renderRunReport(
      syntheticRun({ spec: { clients: [1, 4, 8], objectSize: ["4KiB", "64KiB"], samples: [200] } }),
      { language: "en" },
    );
    expect(page).toContain('id="sweep"');
    // Per axis: MB/s, ops/s, latency of PUT, latency of GET.
    expect(count(page, /id="[^"]*-size-(mbps|ops|lat-PUT|lat-GET)"/g)).toBe(4);
    expect(count(page, /id="[^"]*-conc-(mbps|ops|lat-PUT|lat-GET)"/g)).toBe(4);
    expect(page).toContain("Point 6: 8 clients × 200 samples × 64 KiB");
    expect(page).not.toContain('id="hedge"');
  });

  it("draws concurrency from 1 to 50 on a log axis, from 1 to 8 on a linear one", () => {
    const xScale = (clients: number[]) =>
      renderRunReport(syntheticRun({ spec: { clients, objectSize: ["4KiB"], samples: [100] } }), {
        language: "en",
      }).match(/data-x-scale="(\w+)" data-y-scale="\w+"[^>]* data-chart="[^"]*-conc-mbps"/)?.[1];
    expect(xScale([1, 2, 5, 10, 50])).toBe("log");
    expect(xScale([1, 4, 8])).toBe("linear");
  });

  it("folds a sweep's points under their headings, the first one open", () => {
    const page = renderRunReport(
      syntheticRun({ spec: { clients: [1, 4, 8], objectSize: ["4KiB"], samples: [200] } }),
      { language: "en" },
    );
    expect(count(page, /<details class="fold"/g)).toBe(3);
    expect(count(page, /<details class="fold" open>/g)).toBe(1);
    expect(page).toMatch(/<section id="point-2">\s*<details class="fold">\s*<summary><h2>/);
    const single = renderRunReport(syntheticRun(), { language: "en" });
    expect(single).not.toContain("<details");
  });

  it("draws a size sweep at a fixed total as one line per operation", () => {
    const points = [8, 64, 512, 2048].map((sizeKiB) => ({
      clients: 1,
      samples: 4096 / sizeKiB,
      objectSize: `${sizeKiB}KiB`,
    }));
    const page = renderRunReport(syntheticRun({ spec: { points } }), { language: "en" });
    const seriesOf = (chartId: string) => {
      const chart = page.match(new RegExp(`data-chart="[^"]*-${chartId}">[\\s\\S]*?</figure>`));
      return new Set(chart?.[0].match(/data-series="[^"]+"/g) ?? []).size;
    };
    expect(seriesOf("size-mbps")).toBe(2);
    expect(seriesOf("size-lat-PUT")).toBe(3);
    // Operations per second from 8 KiB to 2 MiB objects span decades (152 to 1.9): a log axis,
    // as the app draws it; MB/s here stays within a factor of 4: a linear one.
    expect(page).toMatch(/data-x-scale="log" data-y-scale="log"[^>]* data-chart="[^"]*-size-ops"/);
    expect(page).toMatch(
      /data-x-scale="log" data-y-scale="linear"[^>]* data-chart="[^"]*-size-mbps"/,
    );
    expect(page).toContain("PUT · 1 client, 4 MiB per point");
    expect(page).not.toMatch(/data-chart="[^"]*-conc-/);
  });

  it("marks a p99.9 drawn from fewer than 1 000 requests as the max it is", () => {
    const short = renderRunReport(syntheticRun({ spec: { samples: [500] } }), { language: "en" });
    expect(short).toContain("p99.9 needs ≥ 1,000 requests");
    // Its interval is open above: the true p99.9 may be past the slowest of 500.
    expect(short).toMatch(/<td class="num">[\d,.]+\* \[[\d,.]+, ∞\]<\/td>/);
    expect(short).toContain("p99.9 from 500 requests rests on 0");
    const long = renderRunReport(syntheticRun({ spec: { samples: [2000] } }), { language: "en" });
    expect(long).not.toContain("p99.9 needs");
  });

  it("states the exponential model's predicted p99 beside the measured one", () => {
    const run = syntheticRun({ spec: { samples: [5000] } });
    const page = renderRunReport(run, { language: "en" });
    const p99 = run.summary.points[0]!.phases[0]!.latencyMs!.p99;
    expect(page).toMatch(/Predicted p99 [\d,.]+ ms; measured p99 [\d,.]+ ms/);
    expect(page).toContain(`measured p99 ${p99.toFixed(3)} ms`);
    expect(page).toMatch(/model p99 [\d,.]+ ms/);
  });

  it("says so where a phase has no latencies, no histogram or no series", () => {
    const run = syntheticRun();
    const empty = createLatencyHistogram();
    run.histograms[0]!.latency = encodeHistogram(empty);
    run.summary.points[0]!.phases[0]!.latencyMs = null;
    run.histograms.splice(1, 1);
    run.latencySeries = [];
    run.summary.status = "stopped";
    const page = renderRunReport(run, { language: "en" });
    expect(page).toContain("No successful requests: nothing to chart.");
    expect(page).toContain("No histogram was stored for this phase.");
    expect(page).toContain("No per-request series was stored for this phase.");
    expect(page).toContain("This run was stopped early");
  });

  it("stays under 2 MB for a run of a million requests per phase", () => {
    const run = syntheticRun({ requestsPerPhase: 1_000_000, stallsPerPhase: 10 });
    const bytes = new TextEncoder().encode(renderRunReport(run, { language: "zh-CN" })).length;
    console.info(`report of 2 × 1,000,000 requests: ${(bytes / 1024).toFixed(1)} KiB`);
    expect(bytes).toBeLessThan(2 * MB);
  });

  it("folds an undecimated series so the report size does not grow with the run", () => {
    const run = syntheticRun({
      requestsPerPhase: 200_000,
      seriesBuckets: 200_000,
      stallsPerPhase: 4,
    });
    expect(run.latencySeries[0]!.buckets).toHaveLength(200_000);
    const page = renderRunReport(run, { language: "en" });
    expect(new TextEncoder().encode(page).length).toBeLessThan(2 * MB);
    expect(page).toContain("200,000 requests in 1,000 columns");
  });
});

describe("renderComparisonReport", () => {
  const baseline = syntheticRun({ name: "normal", spec: { clients: [1, 8], samples: [1000] } });
  baseline.summary.runId = "run-a";
  const hedged = syntheticRun({
    name: `hedged ${hostile}`,
    mode: "hedged",
    stallsPerPhase: 0,
    seed: 7,
    spec: { clients: [8, 16], samples: [1000] },
  });
  hedged.summary.runId = "run-b";

  it.each(REPORT_LANGUAGES)("lines runs up by point against the baseline (%s)", (language) => {
    const page = renderComparisonReport([baseline, hedged], { baselineIndex: 0, language });
    expect(count(page, /<script/g)).toBe(1);
    expect(page).toContain("hedged &lt;script&gt;");
    expect(count(page, /class="badge"/g)).toBeGreaterThan(1);
    // 1 client only in the baseline, 16 only in the other run: both get a missing cell.
    expect(page).toContain("—");
    expect(page).toMatch(/class="delta delta-(better|worse)"/);
    // Each percentile's change is judged from the intervals, and the method is said.
    expect(page).toMatch(/<span class="significance" data-significant="(true|false)">/);
    expect(page).toContain(
      language === "en"
        ? "95 % order-statistic intervals do not overlap"
        : "95 % 顺序统计量置信区间互不重叠",
    );
    const all = ids(page);
    expect(new Set(all).size).toBe(all.length);
    // A ladder and a CDF per point and operation (DELETE left out): 3 points × 2 operations;
    // the runs differ in mode, so as many pairs of mode charts (tail, cost).
    expect(count(page, /<svg class="chart"/g)).toBe(2 * 3 * 2 + 2 * 3 * 2);
  });

  it("draws normal vs hedged vs tied as the Compare screen does, one bar per mode", () => {
    const runs = (["normal", "hedged", "tied"] as const).map((mode, index) => {
      const run = syntheticRun({ name: mode, mode, seed: index + 1, spec: { samples: [1000] } });
      run.summary.runId = `run-${mode}`;
      return run;
    });
    const page = renderComparisonReport(runs, { baselineIndex: 0, language: "en" });
    expect(page).toContain('id="modes"');
    expect(page).toContain("Normal vs hedged vs tied");
    const tail = page.match(/data-chart="[^"]*-tail">[\s\S]*?<\/figure>/)?.[0] ?? "";
    expect(tail).toContain(">p99.9</span>");
    for (const mode of ["normal", "hedged", "tied"]) expect(tail).toContain(`>${mode}</text>`);
    // p50, p99 and p99.9 each in their colour, one bar per run.
    expect(count(tail, /<path class="bars"/g)).toBe(3);
    expect(page).toMatch(/data-chart="[^"]*-cost"/);
    const plain = renderComparisonReport([runs[0]!, runs[0]!], {
      baselineIndex: 0,
      language: "en",
    });
    expect(plain).not.toContain('id="modes"');
  });

  it.each([
    ["en", "Run eight paired in order with the baseline: differs in clients (8 vs 2)"],
    ["zh-CN", "运行 eight 与基线按顺序配对,不同之处:客户端数 (8,基线 2)"],
  ] as const)("names what a run paired in order differs in (%s)", (language, line) => {
    const two = syntheticRun({ name: "two", spec: { clients: [2], samples: [1000] } });
    const eight = syntheticRun({ name: "eight", seed: 3, spec: { clients: [8], samples: [1000] } });
    const page = renderComparisonReport([two, eight], { baselineIndex: 0, language });
    expect(page).toContain(line);
    expect(count(page, /data-pairing="in-order"/g)).toBe(1);
    // Paired, the runs' points share one table per operation: no missing cell.
    expect(page).not.toMatch(/<td class="num">\s*—/);
  });

  it("draws 22 runs of one mode as 22 different lines: each (colour, dash) once", () => {
    const runs = Array.from({ length: 22 }, (_, index) => {
      const run = syntheticRun({ name: `run ${index}`, seed: index + 1, spec: { samples: [200] } });
      run.summary.runId = `run-${index}`;
      return run;
    });
    const page = renderComparisonReport(runs, { baselineIndex: 0, language: "en" });
    const ladder = page.match(/data-chart="[^"]*ladder[^"]*">[\s\S]*?<\/figure>/)?.[0] ?? "";
    const looks = [...ladder.matchAll(/<path\s+class="line"[^>]*>/g)].map(([path]) =>
      [/stroke="([^"]+)"/, /stroke-dasharray="([^"]+)"/].map((field) => field.exec(path)?.[1]),
    );
    expect(looks).toHaveLength(22);
    expect(new Set(looks.map((look) => look.join(" "))).size).toBe(22);
  });

  it("numbers runs that share a name", () => {
    const page = renderComparisonReport([baseline, baseline], { baselineIndex: 1, language: "en" });
    expect(page).toContain("normal (#1)");
    expect(page).toContain("normal (#2)");
  });

  it("rejects a baseline that is not one of the runs", () => {
    expect(() => renderComparisonReport([baseline], { baselineIndex: 3, language: "en" })).toThrow(
      /baseline index 3/,
    );
  });
});

describe("a run report's throughput and errors over time", () => {
  it.each(REPORT_LANGUAGES)("draws both for each phase with seconds, in %s", (language) => {
    const run = syntheticRun({});
    const page = renderRunReport(run, { language });
    const words = REPORT_MESSAGES[language].ratesOverTime;
    const phases = run.intervals.filter((entry) => entry.intervals.length > 0).length;
    expect(phases).toBeGreaterThan(0);
    expect(count(page, new RegExp(`chart-title">${words.throughput.title}<`, "g"))).toBe(phases);
    expect(count(page, new RegExp(`chart-title">${words.errors.title}<`, "g"))).toBe(phases);
    expect(count(page, new RegExp(`chart-title">${words.data.title}<`, "g"))).toBe(phases);
    expect(page).toContain(words.byCode);
    expect(page).not.toContain(escapeHtml(words.notRecorded));
  });

  it("stacks a phase's errors by code and says when a stored run did not keep bytes and codes", () => {
    const run = syntheticRun({});
    const words = REPORT_MESSAGES.en.ratesOverTime;
    const failing = run.intervals.find((entry) =>
      entry.intervals.some((second) => second.errorsByCode?.SlowDown),
    );
    expect(failing).toBeDefined();
    expect(renderRunReport(run, { language: "en" })).toContain("<span>SlowDown</span>");
    const older = {
      ...run,
      intervals: run.intervals.map((entry) => ({
        ...entry,
        intervals: entry.intervals.map(
          ({ bytes: _bytes, errorsByCode: _codes, ...second }) => second,
        ),
      })),
    };
    const page = renderRunReport(older, { language: "en" });
    const phases = run.intervals.filter((entry) => entry.intervals.length > 0).length;
    expect(page.split(escapeHtml(words.notRecorded)).length - 1).toBe(2 * phases);
    expect(count(page, new RegExp(`chart-title">${words.data.title}<`, "g"))).toBe(0);
    expect(count(page, new RegExp(`chart-title">${words.errors.title}<`, "g"))).toBe(phases);
    expect(page).not.toContain("<span>SlowDown</span>");
  });
});
