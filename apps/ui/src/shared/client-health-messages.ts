import type { FeatureMessages } from "../app/i18n.ts";

/** Whether TailLab's own client kept up, and what a closed loop leaves out: live, detail, compare. */
export const clientHealthMessages: FeatureMessages = {
  en: {
    bottleneck:
      "TailLab's own client is the bottleneck, not the server: these figures describe the client.",
    bottleneckPhase: "TailLab's own client was the bottleneck in this phase, not the server.",
    boundShards: "The shards whose client was the bottleneck: {{shards}}.",
    keptUp: "TailLab's client kept up.",
    boundLegend: "client was the bottleneck",
    boundSeconds:
      "TailLab's own client was the bottleneck (the bar along the top of the chart): {{spans}}.",
    reason: {
      cpu: "TailLab's CPU use is near the {{cores}} cores it may use",
      "clients-per-worker":
        "a worker thread is busy nearly all the time (too many clients per worker)",
      "event-loop-delay": "its workers could not run for {{share}} % of the latency measured",
      "schedule-behind": "the open loop falls behind its schedule",
    },
    advice: {
      "fewer-clients": "fewer clients or a lower rate",
      "more-workers": "more workers",
      "server-elsewhere": "run the server on another machine",
    },
    try: "Try: {{advice}}.",
    or: " or ",
    behind:
      "TailLab is {{seconds}} s behind its schedule: {{missed}} of {{starts}} starts were late this second.",
    shed: "{{count}} arrivals shed: the lab drops arrivals more than a second behind, so it keeps answering its knobs.",
    arrivalsKept:
      "Every arrival was kept: the {{missed}} that started late count from their schedule (the open loop's point).",
    tailStall:
      "Of the slowest 1 %'s server time ({{serverMs}} ms with it), {{stallMs}} ms was the client's own stall: its worker could not run while the answer waited.",
    omission: {
      note: "Closed loop: each client waits for its answer, so slow moments send fewer requests and weigh less (coordinated omission).",
      strongGap:
        "Coordinated omission: nothing completed for {{gapMs}} ms while every client waited (p99 {{p99Ms}} ms); the percentiles leave out what requests arriving then would have seen.",
      strongMax:
        "Coordinated omission: the slowest request took {{ratio}}× the p99; the percentiles leave out what requests arriving during it would have seen.",
      rerun: "The open-loop equivalent, just under this throughput:",
      button: "Run as open loop at {{rate}}/s",
    },
  },
  "zh-CN": {
    bottleneck: "瓶颈是 TailLab 自己的客户端，而不是服务器：这些数字反映的是客户端。",
    bottleneckPhase: "在这个阶段，瓶颈是 TailLab 自己的客户端，而不是服务器。",
    boundShards: "客户端是瓶颈的分片：{{shards}}。",
    keptUp: "TailLab 的客户端跟上了。",
    boundLegend: "客户端是瓶颈",
    boundSeconds: "瓶颈是 TailLab 自己的客户端（图表顶部的横条）：{{spans}}。",
    reason: {
      cpu: "TailLab 的 CPU 使用接近它可用的 {{cores}} 个核心",
      "clients-per-worker": "某个工作线程几乎一直忙碌（每个工作线程的客户端太多）",
      "event-loop-delay": "在测得的延迟中，有 {{share}} % 的时间它的工作线程无法运行",
      "schedule-behind": "开环落后于它的调度",
    },
    advice: {
      "fewer-clients": "减少客户端或降低速率",
      "more-workers": "增加工作线程",
      "server-elsewhere": "把服务器放到另一台机器上运行",
    },
    try: "建议：{{advice}}。",
    or: "，或",
    behind: "TailLab 落后调度 {{seconds}} 秒：这一秒 {{starts}} 次启动中有 {{missed}} 次迟到。",
    shed: "已丢弃 {{count}} 个到达请求：实验室会丢弃落后超过一秒的到达请求，以便继续响应旋钮。",
    arrivalsKept:
      "保留了每一个到达请求：迟到启动的 {{missed}} 个从其调度时间开始计时（这正是开环的意义）。",
    tailStall:
      "最慢的 1 % 请求的服务器时间（含停顿为 {{serverMs}} 毫秒）中，有 {{stallMs}} 毫秒是客户端自身的停顿：应答等待时它的工作线程无法运行。",
    omission: {
      note: "闭环：每个客户端都要等到响应才发下一个请求，所以慢的时刻发出的请求更少、权重更低（协调遗漏）。",
      strongGap:
        "协调遗漏：在所有客户端都在等待时，{{gapMs}} 毫秒内没有任何请求完成（p99 {{p99Ms}} 毫秒）；这些百分位数没有包含那时到达的请求会经历的延迟。",
      strongMax:
        "协调遗漏：最慢的请求用了 p99 的 {{ratio}} 倍；这些百分位数没有包含在此期间到达的请求会经历的延迟。",
      rerun: "等效的开环，速率略低于此吞吐量：",
      button: "以 {{rate}}/s 的开环运行",
    },
  },
};
