import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ipcChannel, type ApiMethodName } from "@taillab/api";
import { createTailLabService, type TailLabBackend } from "@taillab/backend";
import type { IpcMain, IpcMainInvokeEvent, SafeStorage } from "electron";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { handleApiCalls } from "./ipc.ts";
import { safeStorageCipher } from "./safe-storage-cipher.ts";

/**
 * The IPC handlers in front of the real backend, with secrets sealed by (a stand-in for)
 * safeStorage: what the desktop app does, short of Electron itself.
 */

const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const APP_FRAME = { senderFrame: { url: "app://taillab/index.html", parent: null } };

let folder: string;
let service: TailLabBackend | null = null;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "taillab-electron-ipc-"));
});
afterEach(async () => {
  await service?.close();
  service = null;
  rmSync(folder, { recursive: true, force: true });
});

async function setUp(keychain: boolean) {
  const safeStorage = {
    isEncryptionAvailable: () => keychain,
    getSelectedStorageBackend: () => "gnome_libsecret",
    encryptString: vi.fn((plain: string) => Buffer.from([...Buffer.from(plain)].reverse())),
    decryptString: vi.fn((sealed: Buffer) => Buffer.from([...sealed].reverse()).toString()),
  };
  service = await createTailLabService({
    host: "electron",
    version: "0.0.0-test",
    dataDir: join(folder, "data"),
    resultsDir: join(folder, "results"),
    secretCipher: safeStorageCipher(safeStorage as unknown as SafeStorage, "linux"),
    env: {},
  });
  type Handler = (event: IpcMainInvokeEvent, input: unknown) => unknown;
  const handlers = new Map<string, Handler>();
  const ipcMain = { handle: (channel: string, h: Handler) => handlers.set(channel, h) };
  handleApiCalls(ipcMain as unknown as IpcMain, service);
  const invoke = (name: ApiMethodName, input?: unknown) =>
    handlers.get(ipcChannel(name))!(APP_FRAME as unknown as IpcMainInvokeEvent, input);
  return { safeStorage, invoke };
}

const MINIO = {
  name: "Lab MinIO",
  kind: "minio",
  url: "http://127.0.0.1:9000",
  credentials: { kind: "stored", accessKeyId: "minio" },
  secretAccessKey: SECRET,
};

describe("desktop IPC with the real backend", () => {
  it("seals a stored secret with safeStorage and never answers it", async () => {
    const { safeStorage, invoke } = await setUp(true);
    const answer = await invoke("addEndpoint", MINIO);
    expect(answer).toMatchObject({ ok: true, result: { hasSecret: true } });
    expect(JSON.stringify(answer)).not.toContain(SECRET);
    expect(JSON.stringify(await invoke("listEndpoints"))).not.toContain(SECRET);
    expect(safeStorage.encryptString).toHaveBeenCalledExactlyOnceWith(SECRET);
    for (const file of readdirSync(join(folder, "data"))) {
      expect(readFileSync(join(folder, "data", file), "utf8"), file).not.toContain(SECRET);
    }
    expect(await invoke("appInfo")).toMatchObject({ ok: true, result: { host: "electron" } });
  });

  it("refuses to store a secret without a keychain, and says why", async () => {
    const { safeStorage, invoke } = await setUp(false);
    const answer = await invoke("addEndpoint", MINIO);
    expect(answer).toMatchObject({
      ok: false,
      error: {
        message: expect.stringMatching(/no OS keychain .* environment-variable credentials/),
      },
    });
    expect(safeStorage.encryptString).not.toHaveBeenCalled();
  });
});
