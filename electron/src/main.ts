/**
 * The desktop app's main process: one window on the app scheme, the backend behind IPC, and the
 * lifecycle around them. Everything with a decision in it lives in its own module; this file
 * only wires them together.
 */
import { join } from "node:path";
import type { TailLabBackend } from "@taillab/backend";
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  net,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
} from "electron";
import { appMenuTemplate } from "./app-menu.ts";
import { APP_START_URL } from "./app-origin.ts";
import { registerAppScheme, serveAppScheme } from "./app-protocol.ts";
import { forwardRunEvents, handleApiCalls } from "./ipc.ts";
import { handleRequestsCsvSave } from "./requests-csv-save.ts";
import { createMainWindow } from "./main-window.ts";
import { safeStorageCipher } from "./safe-storage-cipher.ts";
import { denyAllPermissions, lockToApp } from "./window-security.ts";
import { loadWindowState, restorableBounds, saveWindowState } from "./window-state.ts";

interface AppPaths {
  preload: string;
  uiDir: string;
  dataDir: string;
  resultsDir: string;
  windowState: string;
}

function appPaths(): AppPaths {
  const appPath = app.getAppPath();
  const dataDir = app.getPath("userData");
  return {
    preload: join(appPath, "dist", "preload.cjs"),
    // electron-builder copies the UI into the package; in a checkout it is apps/ui's build.
    uiDir: app.isPackaged ? join(appPath, "ui") : join(appPath, "..", "apps", "ui", "dist"),
    dataDir,
    resultsDir: join(dataDir, "results"),
    windowState: join(dataDir, "window-state.json"),
  };
}

async function openBackend(paths: AppPaths): Promise<TailLabBackend> {
  // Its own bundle, dist/backend.cjs, beside main.cjs (scripts/build.ts); its worker threads
  // start from dist/client-worker.cjs, unpacked from the asar in a package.
  const { createTailLabService } = await import("@taillab/backend");
  return createTailLabService({
    host: "electron",
    version: app.getVersion(),
    dataDir: paths.dataDir,
    resultsDir: paths.resultsDir,
    secretCipher: safeStorageCipher(safeStorage, process.platform),
    env: process.env,
  });
}

/** Opens the window where it was last, and remembers where it was when it closes. */
async function openWindow(
  service: TailLabBackend,
  paths: AppPaths,
  pendingWrites: Set<Promise<void>>,
) {
  const saved = await loadWindowState(paths.windowState);
  const workAreas = screen.getAllDisplays().map((display) => display.workArea);
  const window = createMainWindow({
    preload: paths.preload,
    bounds: restorableBounds(saved, workAreas),
  });
  if (saved?.maximized) window.maximize();
  forwardRunEvents(service, window.webContents);
  window.once("ready-to-show", () => {
    window.show();
    // From the process's start: the figure `pnpm start` reports as time to a usable window.
    process.stdout.write(`TailLab window is ready (${Math.round(performance.now())} ms)\n`);
  });
  window.on("close", () => {
    const write = saveWindowState(paths.windowState, {
      bounds: window.getNormalBounds(),
      maximized: window.isMaximized(),
    }).catch((error: unknown) => {
      process.stderr.write(`TailLab: window position not saved: ${String(error)}\n`);
    });
    pendingWrites.add(write);
    void write.finally(() => pendingWrites.delete(write));
  });
  await window.loadURL(APP_START_URL);
  return window;
}

async function start(): Promise<void> {
  await app.whenReady();
  const paths = appPaths();
  serveAppScheme(protocol, net, paths.uiDir);
  denyAllPermissions(session.defaultSession);
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate({ platform: process.platform, development: !app.isPackaged }),
    ),
  );
  const service = await openBackend(paths);
  for (const warning of service.warnings) process.stderr.write(`TailLab: warning: ${warning}\n`);
  handleApiCalls(ipcMain, service);
  handleRequestsCsvSave(ipcMain, service, dialog, (event) =>
    BrowserWindow.fromWebContents(event.sender),
  );
  const pendingWrites = new Set<Promise<void>>();
  let window = await openWindow(service, paths, pendingWrites);

  app.on("second-instance", () => {
    if (window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  // macOS keeps the app running without windows; clicking its dock icon opens one again.
  app.on("activate", () => {
    if (BrowserWindow.getAllWindows().length === 0) {
      void openWindow(service, paths, pendingWrites).then((opened) => (window = opened));
    }
  });
  app.on("window-all-closed", () => {
    if (process.platform !== "darwin") app.quit();
  });
  let closed = false;
  app.on("will-quit", (event) => {
    if (closed) return;
    // Quit only once the backend has stopped its run (and cleaned its keys) and files are saved.
    event.preventDefault();
    Promise.all([...pendingWrites, service.close()])
      .catch((error: unknown) =>
        process.stderr.write(`TailLab: while quitting: ${String(error)}\n`),
      )
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
}

registerAppScheme(protocol);
// A folder of its own for every saved thing (tests, a second profile); must precede `ready`.
if (process.env.TAILLAB_USER_DATA_DIR) app.setPath("userData", process.env.TAILLAB_USER_DATA_DIR);
// Every web contents, including any created later, stays on the app's pages.
app.on("web-contents-created", (_event, contents) => lockToApp(contents, shell.openExternal));

if (!app.requestSingleInstanceLock()) {
  // Another TailLab is running: it gets the focus (second-instance) and this one leaves.
  app.quit();
} else {
  start().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`TailLab could not start: ${message}\n`);
    dialog.showErrorBox("TailLab could not start", message);
    app.exit(1);
  });
}
