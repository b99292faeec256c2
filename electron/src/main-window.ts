import { BrowserWindow, type Rectangle } from "electron";

/**
 * The one window. Its renderer is locked down as Electron's security checklist asks: no Node,
 * an isolated and sandboxed preload, web security on; the preload's `taillab` object is its
 * only way out.
 */
export function createMainWindow(options: { preload: string; bounds: Partial<Rectangle> }) {
  return new BrowserWindow({
    ...options.bounds,
    minWidth: 800,
    minHeight: 560,
    title: "TailLab",
    // Shown once the first paint is ready, so the user never sees an empty frame.
    show: false,
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
}
