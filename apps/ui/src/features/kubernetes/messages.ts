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
      imageHint:
        "Default: localhost/taillab:<this version>; build it with the README's Containerfile",
      requests: "Resource requests of each pod",
      requestsHint: "Resource=quantity, separated by commas",
      limits: "Resource limits of each pod",
      limitsHint: "Equal to the requests by default: Guaranteed QoS",
      nodeSelector: "Node selector",
      nodeSelectorHint: "Node labels the pods need, label=value, separated by commas",
      tolerations: "Tolerations",
      tolerationsHint: "Taints the pods tolerate: key, key=value or key=value:effect",
      imagePullSecrets: "Image pull secrets",
      imagePullSecretsHint: "Secrets of the namespace that can pull the image",
      spread: "Spread over nodes",
      spreadHint:
        "prefer: balanced when possible; require: a pod waits rather than unbalance them; none",
      ttl: "Keep the finished Job",
      ttlHint: "Then Kubernetes deletes the Job, its pods and its Secret",
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
      clocksApart:
        "The clocks of shards {{behind}} and {{ahead}} were {{apart}} s apart (± {{bound}} s): each placed what it measured by its own clock, so no start spread nor window where every shard was busy is known.",
      clockRefusedAhead:
        "Its clock was {{offset}} s ahead of the storage server's, more than the 1 s a distributed run allows: the start barrier refused it, and no shard started.",
      clockRefusedBehind:
        "Its clock was {{offset}} s behind the storage server's, more than the 1 s a distributed run allows: the start barrier refused it, and no shard started.",
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
      imageHint: "默认：localhost/taillab:<当前版本>；用 README 中的 Containerfile 构建",
      requests: "每个 Pod 的资源请求",
      requestsHint: "资源=数量，用逗号分隔",
      limits: "每个 Pod 的资源上限",
      limitsHint: "默认与请求相同：保证型服务质量",
      nodeSelector: "节点选择器",
      nodeSelectorHint: "Pod 所需的节点标签，标签=值，用逗号分隔",
      tolerations: "容忍度",
      tolerationsHint: "Pod 容忍的污点：键、键=值 或 键=值:效果",
      imagePullSecrets: "镜像拉取密钥",
      imagePullSecretsHint: "命名空间中能拉取镜像的 Secret",
      spread: "跨节点分布",
      spreadHint: "prefer：尽量均衡；require：宁可等待也不失衡；none：不限",
      ttl: "保留已结束的 Job",
      ttlHint: "之后 Kubernetes 删除该 Job、它的 Pod 和 Secret",
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
      clocksApart:
        "分片 {{behind}} 与 {{ahead}} 的时钟相差 {{apart}} 秒（± {{bound}} 秒）：每个分片按自己的时钟记录所测数据，因此启动偏差与所有分片同时忙碌的时段都无从得知。",
      clockRefusedAhead:
        "它的时钟比存储服务器快 {{offset}} 秒，超过分布式运行允许的 1 秒：启动屏障拒绝了它，所有分片都未启动。",
      clockRefusedBehind:
        "它的时钟比存储服务器慢 {{offset}} 秒，超过分布式运行允许的 1 秒：启动屏障拒绝了它，所有分片都未启动。",
      statusName: {
        complete: "完成",
        stopped: "已停止",
        failed: "失败",
        missing: "缺失",
      },
    },
  },
};
