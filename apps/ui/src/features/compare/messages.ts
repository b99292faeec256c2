import type { FeatureMessages } from "../../app/i18n.ts";

/** Texts of the compare screen (namespace "compare"). */
export const compareMessages: FeatureMessages = {
  en: {
    title: "Compare runs",
    subtitle: "Several runs against a baseline: ratios, tails, sweeps and the cost of each mode.",
    copy: "Copy comparison as text",
    loading: "Loading the runs…",
    nothingInCommon: "These runs have no point and phase in common to compare.",
    pairedInOrder:
      "Some runs share no point with the baseline, so their points are compared with the baseline's in order.",
    pairedDiffer:
      "Some runs share no point with the baseline, so their points are compared with the baseline's in order: they differ in {{params}}, as each row says.",
    params: { clients: "clients", samples: "samples", objectSizeBytes: "object size" },
    baseline: "Baseline",
    phase: "Compared phase",
    phaseOption: "{{op}} · {{point}}",
    ladderTitle: "Percentile ladders · {{phase}}",
    picker: {
      title: "Runs to compare ({{n}})",
      search: "Search runs",
      loading: "Loading the library…",
      none: "No runs in the library yet.",
    },
    empty: {
      title: "Pick at least two runs",
      howTo:
        "Tick runs in the list above. The first normal-mode run becomes the baseline; you can choose another.",
      fromLibrary:
        "Or tick runs in the results library and press “Compare selected”. A mode comparison (normal vs hedged vs tied) appears when the runs differ by mode.",
      openLibrary: "Open the results library",
    },
    allPoints: {
      title: "Every point against the baseline",
      intro:
        "Each point and phase of the runs, one column per run: the figure and its ratio to the baseline's. Choose a row to see all its figures above.",
      metric: "Figure",
      point: "Point",
      operation: "Operation",
    },
    table: {
      title: "Against the baseline",
      intro:
        "Each figure with its ratio to the baseline's: green is better (lower latency, higher throughput), red is worse. A percentile's change is significant when the two runs' 95 % order-statistic intervals do not overlap; n.s.: not significant (within chance). Where both runs repeated the point 4 times or more, their repetitions' figures are compared instead (Mann–Whitney's U test, two-sided, 5 %), marked \"by repetitions\".",
      significant: "significant",
      byRepetitions: "by repetitions",
      notSignificant: "n.s.",
      run: "Run",
      mode: "Mode",
      errors: "errors",
      extra: "extra (%)",
      maxMs: "max (ms)",
      baseline: "baseline",
      missing: "not in this run",
      clients_one: "{{value}} client",
      clients_other: "{{value}} clients",
      samples_one: "{{value}} sample",
      samples_other: "{{value}} samples",
    },
    modes: {
      title: "Request modes compared",
      intro:
        "What each mode did to the tail, and what its backups cost: extra requests sent and bytes thrown away by the attempts that lost.",
      mode: "Mode",
      extra: "Extra requests (%)",
      won: "Won by backup",
      cancelled: "Cancelled",
      wasted: "Wasted (MB)",
      served: "Testbed work (requests served)",
      servedHint:
        "Every request the embedded testbed's replicas began to serve in the run, setup included: tied twins dropped from a queue before service (server cancel) are not work",
      tailChart: "Tail latency per mode",
      costChart: "Cost of backups per mode",
      nothingWasted:
        "The attempts that lost moved no payload (they were cancelled before any of their answer's body arrived), so the chart shows how many were cancelled.",
      verdictsTitle: "In one line each, against normal",
      verdict: "{{mode}}: p99.9 {{change}} % for +{{extra}} % requests",
      noGain: {
        tooFewRequests:
          "Why no gain: a p99.9 of fewer than {{requests}} requests is only their slowest one. Run more samples.",
        budgetSpent:
          "Why no gain: its backups spent the {{budget}} % budget, so later stalls went without one. Raise the budget.",
        delayAboveTail:
          "Why no gain: its backups waited {{delay}} ms, past normal's p99.9 ({{p999}} ms), so they left after the stalls. Choose a shorter delay, such as p95.",
        noise:
          "Why no gain: nothing in its figures explains it; the difference is within what two runs differ by. Run it again, or with more samples.",
      },
    },
  },
  "zh-CN": {
    title: "对比运行",
    subtitle: "以基准对比多个运行：比值、尾延迟、参数扫描以及各模式的代价。",
    copy: "复制对比文本",
    loading: "正在加载运行…",
    nothingInCommon: "这些运行没有可对比的相同测试点和阶段。",
    pairedInOrder: "部分运行与基准没有相同的测试点，因此按顺序与基准的测试点对比。",
    pairedDiffer:
      "部分运行与基准没有相同的测试点，因此按顺序与基准的测试点对比：它们的{{params}}不同，见各行标注。",
    params: { clients: "客户端数", samples: "样本数", objectSizeBytes: "对象大小" },
    baseline: "基准",
    phase: "对比的阶段",
    phaseOption: "{{op}} · {{point}}",
    ladderTitle: "百分位阶梯 · {{phase}}",
    picker: {
      title: "要对比的运行（{{n}}）",
      search: "搜索运行",
      loading: "正在加载结果库…",
      none: "结果库中还没有运行。",
    },
    empty: {
      title: "请至少选择两个运行",
      howTo: "在上方列表中勾选运行。第一个普通模式的运行将作为基准，也可以另选。",
      fromLibrary:
        "也可以在结果库中勾选运行后点击“对比所选”。当运行的请求模式不同时，会显示模式对比（普通、对冲、绑定）。",
      openLibrary: "打开结果库",
    },
    allPoints: {
      title: "所有测试点与基准对比",
      intro:
        "各运行的每个测试点和阶段，每列一个运行：数值及其与基准的比值。选择一行即可在上方查看它的全部数值。",
      metric: "指标",
      point: "测试点",
      operation: "操作",
    },
    table: {
      title: "与基准对比",
      intro:
        "每个数值后附与基准的比值：绿色表示更好（延迟更低、吞吐更高），红色表示更差。百分位的变化在两次运行的 95 % 顺序统计量置信区间互不重叠时为显著；不显著表示变化在随机波动范围内。两次运行都把测试点重复 4 次或以上时，改为比较各次重复的数值（双侧威尔科克森秩和检验，5 %），并标注“按重复”。",
      significant: "显著",
      byRepetitions: "按重复",
      notSignificant: "不显著",
      run: "运行",
      mode: "模式",
      errors: "错误",
      extra: "额外 (%)",
      maxMs: "最大值 (ms)",
      baseline: "基准",
      missing: "此运行中没有",
      // Chinese has one form; the _one keys keep both languages' key sets alike (i18n.test.ts).
      clients_one: "{{value}} 个客户端",
      clients_other: "{{value}} 个客户端",
      samples_one: "{{value}} 个样本",
      samples_other: "{{value}} 个样本",
    },
    modes: {
      title: "请求模式对比",
      intro: "各模式对尾延迟的影响及其备份请求的代价：额外发送的请求，以及落败尝试浪费的字节。",
      mode: "模式",
      extra: "额外请求 (%)",
      won: "备份胜出",
      cancelled: "已取消",
      wasted: "浪费 (MB)",
      served: "测试床工作量（已处理的请求）",
      servedHint:
        "运行中内置测试床各副本开始处理的全部请求（含准备阶段）：服务前就从队列中撤下的绑定副本（服务端取消）不算工作量",
      tailChart: "各模式的尾延迟",
      costChart: "各模式备份请求的代价",
      nothingWasted:
        "落败的尝试没有传输任何负载（在响应正文到达之前就被取消），因此图中显示被取消的尝试数。",
      verdictsTitle: "与普通模式相比，一句话总结",
      verdict: "{{mode}}：p99.9 {{change}}%，多花 {{extra}}% 的请求",
      noGain: {
        tooFewRequests:
          "为何没有改善：不足 {{requests}} 个请求的 p99.9 只是其中最慢的一个。请增加请求数。",
        budgetSpent:
          "为何没有改善：备份请求用完了 {{budget}}% 的预算，之后的停顿没有备份。请提高预算。",
        delayAboveTail:
          "为何没有改善：备份请求等待了 {{delay}} 毫秒，超过普通模式的 p99.9（{{p999}} 毫秒），在停顿之后才发出。请选择更短的延迟，例如 p95。",
        noise:
          "为何没有改善：数据中找不到原因，差异在两次运行的正常波动之内。请再运行一次，或增加请求数。",
      },
    },
  },
};
