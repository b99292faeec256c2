import { EventEmitter } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { API_METHOD_NAMES, ipcChannel, SAVE_REQUESTS_CSV_CHANNEL } from "@taillab/api";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The main process's wiring, with Electron and the backend replaced by stand-ins: what is
 * registered before `ready`, what the window and the backend are given, and how it quits.
 */

const state = vi.hoisted(() => ({ electron: {} as Record<string, unknown>, service: {} }));
// Each test gets a fresh Electron: the mocked module reads whichever one is current.
vi.mock("electron", () => {
  const current = () => state.electron;
  return new Proxy({}, { get: (_target, key) => current()[key as string], has: () => true });
});
vi.mock("@taillab/backend", () => ({
  createTailLabService: vi.fn(async () => state.service),
}));

interface FakeWindow extends EventEmitter {
  options: { x?: number; width?: number; webPreferences: { preload: string } };
  loadURL: ReturnType<typeof vi.fn>;
  webContents: EventEmitter & { send: () => void; isDestroyed: () => boolean };
}

function fakeElectron(userData: string) {
  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    whenReady: vi.fn(async () => {}),
    getAppPath: () => "/repo/electron",
    getPath: vi.fn(() => userData),
    setPath: vi.fn(),
    getVersion: () => "0.1.0",
    requestSingleInstanceLock: () => true,
    quit: vi.fn(),
    exit: vi.fn(),
  });
  const windows: FakeWindow[] = [];
  class BrowserWindow extends EventEmitter {
    static getAllWindows = () => windows;
    readonly options: FakeWindow["options"];
    readonly webContents = Object.assign(new EventEmitter(), {
      send: () => {},
      isDestroyed: () => false,
    });
    loadURL = vi.fn(async () => {});
    constructor(options: FakeWindow["options"]) {
      super();
      this.options = options;
      windows.push(this as unknown as FakeWindow);
    }
    maximize = vi.fn();
    show = vi.fn();
    isMaximized = () => false;
    getNormalBounds = () => ({ x: 40, y: 30, width: 1111, height: 777 });
  }
  return {
    windows,
    electron: {
      app,
      BrowserWindow,
      dialog: { showErrorBox: vi.fn() },
      ipcMain: { handle: vi.fn(), removeHandler: vi.fn() },
      Menu: { buildFromTemplate: vi.fn((template) => template), setApplicationMenu: vi.fn() },
      net: { fetch: vi.fn() },
      protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
      safeStorage: {},
      screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
      session: {
        defaultSession: {
          setPermissionRequestHandler: vi.fn(),
          setPermissionCheckHandler: vi.fn(),
        },
      },
      shell: { openExternal: vi.fn() },
    },
  };
}

let userData: string;
let fake: ReturnType<typeof fakeElectron>;
let service: {
  close: ReturnType<typeof vi.fn>;
  onRunEvent: () => () => void;
  warnings: string[];
};

beforeEach(() => {
  userData = mkdtempSync(join(tmpdir(), "taillab-main-"));
  fake = fakeElectron(userData);
  service = { close: vi.fn(async () => {}), onRunEvent: () => () => {}, warnings: [] };
  state.electron = fake.electron;
  state.service = service;
  vi.resetModules();
});
afterEach(() => {
  delete process.env.TAILLAB_USER_DATA_DIR;
  rmSync(userData, { recursive: true, force: true });
});

/** Runs main.ts and waits until its window has loaded the app. */
async function launch() {
  await import("./main.ts");
  await vi.waitFor(() => expect(fake.windows[0]?.loadURL).toHaveBeenCalled());
  return fake.windows[0]!;
}

describe("main process", () => {
  it("registers the app scheme as privileged before the app is ready", async () => {
    await launch();
    const { protocol, app } = fake.electron;
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({
        scheme: "app",
        privileges: expect.objectContaining({ standard: true, secure: true }),
      }),
    ]);
    expect(protocol.registerSchemesAsPrivileged.mock.invocationCallOrder[0]).toBeLessThan(
      app.whenReady.mock.invocationCallOrder[0]!,
    );
    expect(protocol.handle).toHaveBeenCalledWith("app", expect.any(Function));
  });

  it("opens the app's page with the preload, behind locked-down IPC and permissions", async () => {
    const window = await launch();
    expect(window.options.webPreferences.preload).toBe("/repo/electron/dist/preload.cjs");
    expect(window.loadURL).toHaveBeenCalledWith("app://taillab/index.html");
    const channels = fake.electron.ipcMain.handle.mock.calls.map(([channel]) => channel);
    expect(channels.sort()).toEqual(
      [...API_METHOD_NAMES.map(ipcChannel), SAVE_REQUESTS_CSV_CHANNEL].sort(),
    );
    const { defaultSession } = fake.electron.session;
    expect(defaultSession.setPermissionRequestHandler).toHaveBeenCalled();
    expect(defaultSession.setPermissionCheckHandler).toHaveBeenCalled();
    expect(fake.electron.app.listenerCount("web-contents-created")).toBe(1);
  });

  it("gives the backend the electron host, userData and its results folder", async () => {
    await launch();
    const { createTailLabService } = await import("@taillab/backend");
    expect(createTailLabService).toHaveBeenCalledWith(
      expect.objectContaining({
        host: "electron",
        version: "0.1.0",
        dataDir: userData,
        resultsDir: join(userData, "results"),
        secretCipher: expect.objectContaining({ encrypt: expect.any(Function) }),
      }),
    );
  });

  it("says the backend's start-up warnings on stderr", async () => {
    service.warnings = ['secrets.json: the saved secrets of endpoint "Lab" cannot be decrypted'];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await launch();
      expect(stderr).toHaveBeenCalledWith(
        'TailLab: warning: secrets.json: the saved secrets of endpoint "Lab" cannot be decrypted\n',
      );
    } finally {
      stderr.mockRestore();
    }
  });

  it("moves userData where TAILLAB_USER_DATA_DIR says", async () => {
    process.env.TAILLAB_USER_DATA_DIR = "/tmp/elsewhere";
    await launch();
    expect(fake.electron.app.setPath).toHaveBeenCalledWith("userData", "/tmp/elsewhere");
  });

  it("reopens the window where it was, and saves its place when it closes", async () => {
    const saved = { bounds: { x: 200, y: 100, width: 1000, height: 700 }, maximized: false };
    writeFileSync(join(userData, "window-state.json"), JSON.stringify(saved));
    const window = await launch();
    expect(window.options).toMatchObject(saved.bounds);

    window.emit("close");
    fake.electron.app.emit("will-quit", { preventDefault: vi.fn() });
    await vi.waitFor(() => expect(fake.electron.app.quit).toHaveBeenCalled());
    expect(JSON.parse(readFileSync(join(userData, "window-state.json"), "utf8"))).toEqual({
      bounds: { x: 40, y: 30, width: 1111, height: 777 },
      maximized: false,
    });
  });

  it("quits only once the backend has closed", async () => {
    await launch();
    let finishClose = () => {};
    service.close.mockImplementation(() => new Promise<void>((resolve) => (finishClose = resolve)));
    const quitting = { preventDefault: vi.fn() };
    fake.electron.app.emit("will-quit", quitting);
    expect(quitting.preventDefault).toHaveBeenCalled();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fake.electron.app.quit).not.toHaveBeenCalled();
    finishClose();
    await vi.waitFor(() => expect(fake.electron.app.quit).toHaveBeenCalledOnce());
    // The second will-quit (from that quit) goes through.
    const again = { preventDefault: vi.fn() };
    fake.electron.app.emit("will-quit", again);
    expect(again.preventDefault).not.toHaveBeenCalled();
  });
});
