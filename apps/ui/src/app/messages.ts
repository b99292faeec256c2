import type { FeatureMessages } from "./i18n.ts";

export const appMessages: FeatureMessages = {
  en: {
    nav: {
      endpoints: "Endpoints",
      experiments: "Experiments",
      live: "Live run",
      runs: "Results",
      compare: "Compare",
    },
    settings: {
      language: "Language",
      theme: "Theme",
      light: "Light",
      dark: "Dark",
      projector: "Projector mode",
    },
    backendMissing: "TailLab's backend is not connected. Start the app with `pnpm start`.",
  },
  "zh-CN": {
    nav: {
      endpoints: "端点",
      experiments: "实验",
      live: "实时运行",
      runs: "结果",
      compare: "对比",
    },
    settings: {
      language: "语言",
      theme: "主题",
      light: "浅色",
      dark: "深色",
      projector: "投影模式",
    },
    backendMissing: "未连接 TailLab 后端。请用 `pnpm start` 启动应用。",
  },
};
