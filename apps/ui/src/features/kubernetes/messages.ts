import type { FeatureMessages } from "../../app/i18n.ts";

/** Texts of distributed runs on Kubernetes (namespace "kubernetes"). */
export const kubernetesMessages: FeatureMessages = {
  en: {
    settings: {
      button: "Kubernetes",
      title: "Kubernetes",
      intro:
        "Where “N pods on Kubernetes” runs an experiment: one TailLab pod per shard, started together, merged into one run. Empty boxes take the defaults.",
      kubeconfig: "Kubeconfig file",
      kubeconfigHint: "Default: $KUBECONFIG, then ~/.kube/config",
      context: "Context",
      contextHint: "Default: the kubeconfig's current context",
      namespace: "Namespace",
      namespaceHint: "Default: the context's namespace, else default",
      image: "TailLab image",
      imageHint: "Default: taillab:<this version>; build it with the README's Containerfile",
      save: "Save",
      saving: "Saving…",
      cancel: "Cancel",
      close: "Close",
    },
    generators: {
      title: "Load generators",
      local: "This machine",
      localHint: "Every client runs here.",
      kubernetes: "Pods on Kubernetes",
      kubernetesHint:
        "N pods share the clients and requests, start together through the bucket and are merged exactly. The endpoint must be reachable from the cluster.",
      shards: "Pods",
      shardsHint: "One shard of the run per pod",
      settings: "Kubernetes settings…",
    },
    shards: {
      title: "Shards",
      jobSays: "Kubernetes says:",
      summary:
        "{{ready}} of {{count}} pods ready · {{barrier}} at the start barrier · {{running}} running · {{done}} done · {{failed}} failed",
      job: {
        running: "Job running",
        Complete: "Job complete",
        Failed: "Job failed",
      },
      state: {
        waiting: "waiting",
        ready: "at the barrier",
        running: "running",
        done: "done",
        failed: "failed",
      },
      shard: "Shard {{index}}: {{state}}",
    },
    breakdown: {
      title: "Shards",
      intro:
        "The merged figures above are the exact merge of these shards' histograms. A slow shard shows here: its own throughput and tail beside the others'.",
      header:
        "{{merged}} of {{count}} shards merged · start spread {{spread}} · clock skew {{skew}}",
      shard: "Shard",
      status: "Status",
      start: "Start vs T0",
      clock: "Clock vs server",
      op: "Operation",
      requests: "Requests",
      opsPerSec: "ops/s",
      p99: "p99",
      errors: "Errors",
      problem: "Why",
      statusName: {
        complete: "complete",
        stopped: "stopped",
        failed: "failed",
        missing: "missing",
      },
    },
  },
  "zh-CN": {
    settings: {
      button: "Kubernetes",
      title: "Kubernetes",
      intro:
        "“Kubernetes 上的 N 个 Pod”在此运行实验：每个分片一个 TailLab Pod，同时启动，合并为一次运行。留空即用默认值。",
      kubeconfig: "Kubeconfig 文件",
      kubeconfigHint: "默认：$KUBECONFIG，其次 ~/.kube/config",
      context: "上下文",
      contextHint: "默认：kubeconfig 的当前上下文",
      namespace: "命名空间",
      namespaceHint: "默认：上下文的命名空间，否则 default",
      image: "TailLab 镜像",
      imageHint: "默认：taillab:<当前版本>；用 README 中的 Containerfile 构建",
      save: "保存",
      saving: "正在保存…",
      cancel: "取消",
      close: "关闭",
    },
    generators: {
      title: "负载生成器",
      local: "本机",
      localHint: "所有客户端都在本机运行。",
      kubernetes: "Kubernetes 上的 Pod",
      kubernetesHint:
        "N 个 Pod 分担客户端与请求，通过存储桶同时启动，结果精确合并。集群必须能访问该端点。",
      shards: "Pod 数",
      shardsHint: "每个 Pod 运行一个分片",
      settings: "Kubernetes 设置…",
    },
    shards: {
      title: "分片",
      jobSays: "Kubernetes 报告：",
      summary:
        "{{count}} 个 Pod 中 {{ready}} 个就绪 · {{barrier}} 个已到启动屏障 · {{running}} 个运行中 · {{done}} 个完成 · {{failed}} 个失败",
      job: {
        running: "Job 运行中",
        Complete: "Job 已完成",
        Failed: "Job 失败",
      },
      state: {
        waiting: "等待中",
        ready: "在启动屏障",
        running: "运行中",
        done: "完成",
        failed: "失败",
      },
      shard: "分片 {{index}}：{{state}}",
    },
    breakdown: {
      title: "分片",
      intro:
        "上方的合并数据是这些分片直方图的精确合并。慢的分片在此可见：它自己的吞吐量与尾延迟，与其他分片并列。",
      header: "{{count}} 个分片中合并了 {{merged}} 个 · 启动偏差 {{spread}} · 时钟偏差 {{skew}}",
      shard: "分片",
      status: "状态",
      start: "相对 T0 的启动",
      clock: "相对服务器的时钟",
      op: "操作",
      requests: "请求数",
      opsPerSec: "次/秒",
      p99: "p99",
      errors: "错误",
      problem: "原因",
      statusName: {
        complete: "完成",
        stopped: "已停止",
        failed: "失败",
        missing: "缺失",
      },
    },
  },
};
