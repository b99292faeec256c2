import type { FeatureMessages } from "./i18n.ts";

export const appMessages: FeatureMessages = {
  en: {
    nav: {
      label: "Screens",
      endpoints: "Endpoints",
      experiments: "Experiments",
      live: "Live run",
      runs: "Results",
      compare: "Compare",
      running: "running, {{percent}} % done",
      runningFor: "running for {{duration}}, until stopped",
    },
    settings: {
      language: "Language",
      theme: "Theme",
      light: "Light",
      dark: "Dark",
      projector: "Projector mode",
    },
    skipToContent: "Skip to the screen",
    backendMissing: "TailLab's backend is not connected. Start the app with `pnpm start`.",
    backendMissingDetail:
      "This window shows the interface only: endpoints, experiments and runs need the desktop app or the local browser host.",
    shortcuts: {
      button: "Keyboard shortcuts",
      title: "Keyboard shortcuts",
      run: "Run the experiment being edited",
      stop: "Stop the running run",
      go: "Open {{screen}}",
      help: "Show or hide this help",
      close: "Close",
      escapeNote: "Esc stops a run only on the Live run screen, and not while typing.",
    },
  },
  "zh-CN": {
    nav: {
      label: "页面",
      endpoints: "端点",
      experiments: "实验",
      live: "实时运行",
      runs: "结果",
      compare: "对比",
      running: "运行中，已完成 {{percent}}%",
      runningFor: "已运行 {{duration}}，直到手动停止",
    },
    settings: {
      language: "语言",
      theme: "主题",
      light: "浅色",
      dark: "深色",
      projector: "投影模式",
    },
    skipToContent: "跳到页面内容",
    backendMissing: "未连接 TailLab 后端。请用 `pnpm start` 启动应用。",
    backendMissingDetail: "此窗口只显示界面：端点、实验和运行需要桌面应用或本地浏览器宿主。",
    shortcuts: {
      button: "键盘快捷键",
      title: "键盘快捷键",
      run: "运行正在编辑的实验",
      stop: "停止正在进行的运行",
      go: "打开{{screen}}",
      help: "显示或隐藏此帮助",
      close: "关闭",
      escapeNote: "Esc 仅在“实时运行”页面且不在输入时停止运行。",
    },
  },
};
