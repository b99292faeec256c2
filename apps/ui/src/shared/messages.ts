import type { FeatureMessages } from "../app/i18n.ts";

/** Texts of the shared components (namespace "common"). */
export const commonMessages: FeatureMessages = {
  en: {
    cancel: "Cancel",
    confirmRemove: "Remove for good?",
    chart: {
      tools: "Tools of the chart “{{label}}”",
      log: "Log scale",
      percentiles: "Percentiles shown",
      pngHint: "Download this chart as a PNG picture",
      svgHint: "Download this chart as an SVG drawing (scales without blur)",
      fullScreen: "Full screen",
      fullScreenHint: "Show this chart alone, filling the window",
      closeFullScreen: "Close",
      closeFullScreenHint: "Back to the page (Esc)",
    },
    testbed: {
      replicas: "Replicas",
      replicasHint: "Servers on as many ports; hedged and tied requests need at least 2.",
      profile: "Latency profile",
      seed: "Seed",
      seedHint: "The same seed replays the same delays.",
      customProfile: "custom profile",
      inherit: "as the endpoint ({{value}})",
      profileSummaries: {
        fast: "No added delay.",
        steady: "Lognormal service time, median {{medianMs}} ms (p99 ≈ {{p99Ms}} ms).",
        stalls:
          "Steady, and {{stallPercent}} % of requests stall for {{stallSeconds}} s (a GC pause or a slow disk).",
        queue: "Steady, with {{slots}} service slots per replica: latency grows with load (M/M/c).",
        "noisy-neighbour":
          "Steady, but replica {{replica}} is {{factor}}× slower for {{forSeconds}} s of every {{everySeconds}} s.",
      },
    },
    knobs: {
      start: "start",
      names: {
        serviceMs: "service",
        stallProbability: "stalls",
        stallMs: "stall length",
        replicas: "replicas",
        mode: "mode",
        hedgeDelay: "hedge delay",
        hedgeBudgetPercent: "budget",
      },
      modes: {
        normal: "normal",
        hedged: "hedged",
        tied: "tied (client cancel)",
        "tied-server": "tied (server cancel)",
        adaptive: "adaptive",
      },
    },
  },
  "zh-CN": {
    cancel: "取消",
    confirmRemove: "确定永久删除？",
    chart: {
      tools: "图表“{{label}}”的工具",
      log: "对数坐标",
      percentiles: "显示的百分位",
      pngHint: "将此图表下载为 PNG 图片",
      svgHint: "将此图表下载为 SVG 矢量图（缩放不失真）",
      fullScreen: "全屏",
      fullScreenHint: "单独显示此图表，铺满窗口",
      closeFullScreen: "关闭",
      closeFullScreenHint: "返回页面（按退出键）",
    },
    testbed: {
      replicas: "副本数",
      replicasHint: "每个副本是一个独立端口上的服务器；对冲和绑定请求至少需要 2 个副本。",
      profile: "延迟配置",
      seed: "随机种子",
      seedHint: "相同的种子会重放相同的延迟。",
      customProfile: "自定义配置",
      inherit: "沿用端点设置（{{value}}）",
      profileSummaries: {
        fast: "不增加延迟。",
        steady: "对数正态分布的服务时间，中位数 {{medianMs}} ms（p99 约 {{p99Ms}} ms）。",
        stalls:
          "与 steady 相同，另有 {{stallPercent}} % 的请求卡顿 {{stallSeconds}} 秒（如垃圾回收暂停或慢磁盘）。",
        queue: "与 steady 相同，每个副本有 {{slots}} 个服务槽：延迟随负载增长（M/M/c 排队）。",
        "noisy-neighbour":
          "与 steady 相同，但副本 {{replica}} 每 {{everySeconds}} 秒中有 {{forSeconds}} 秒慢 {{factor}} 倍。",
      },
    },
    knobs: {
      start: "开始",
      names: {
        serviceMs: "服务时间",
        stallProbability: "卡顿",
        stallMs: "卡顿时长",
        replicas: "副本",
        mode: "模式",
        hedgeDelay: "对冲延迟",
        hedgeBudgetPercent: "预算",
      },
      modes: {
        normal: "普通",
        hedged: "对冲",
        tied: "绑定（客户端取消）",
        "tied-server": "绑定（服务端取消）",
        adaptive: "自适应",
      },
    },
  },
};
