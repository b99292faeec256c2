import type { FeatureMessages } from "../app/i18n.ts";

/** Texts of the shared components (namespace "common"). */
export const commonMessages: FeatureMessages = {
  en: {
    cancel: "Cancel",
    confirmRemove: "Remove for good?",
    testbed: {
      replicas: "Replicas",
      replicasHint: "Servers on as many ports; hedged and tied requests need at least 2.",
      profile: "Latency profile",
      seed: "Seed",
      seedHint: "The same seed replays the same delays.",
      customProfile: "custom profile",
      inherit: "as the endpoint ({{value}})",
    },
  },
  "zh-CN": {
    cancel: "取消",
    confirmRemove: "确定永久删除？",
    testbed: {
      replicas: "副本数",
      replicasHint: "每个副本是一个独立端口上的服务器；对冲和绑定请求至少需要 2 个副本。",
      profile: "延迟配置",
      seed: "随机种子",
      seedHint: "相同的种子会重放相同的延迟。",
      customProfile: "自定义配置",
      inherit: "沿用端点设置（{{value}}）",
    },
  },
};
