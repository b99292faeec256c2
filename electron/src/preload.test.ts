import {
  API_METHOD_NAMES,
  AppError,
  clientOfBridge,
  ipcChannel,
  RUN_EVENT_CHANNEL,
  SAVE_REQUESTS_CSV_CHANNEL,
  type RunEvent,
  type TailLabBridge,
} from "@taillab/api";
import { beforeAll, describe, expect, it, vi } from "vitest";

const electron = vi.hoisted(() => ({
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn() },
}));
vi.mock("electron", () => electron);

const ALLOWED_CHANNELS = new Set<string>([
  ...API_METHOD_NAMES.map(ipcChannel),
  RUN_EVENT_CHANNEL,
  SAVE_REQUESTS_CSV_CHANNEL,
]);

let exposed: unknown[][];
let api: Record<string, (input?: unknown) => Promise<unknown>> & {
  onRunEvent(listener: (event: RunEvent) => void): () => void;
};

beforeAll(async () => {
  await import("./preload.ts");
  // Copied now: the spies' call lists are cleared between tests.
  exposed = [...electron.contextBridge.exposeInMainWorld.mock.calls];
  api = exposed[0]![1] as typeof api;
});

describe("preload", () => {
  it("exposes a `taillab` object: a function per API call, and onRunEvent", () => {
    expect(exposed).toHaveLength(2);
    expect(exposed[0]![0]).toBe("taillab");
    expect(Object.keys(api).sort()).toEqual([...API_METHOD_NAMES, "onRunEvent"].sort());
    for (const value of Object.values(api)) expect(typeof value).toBe("function");
  });

  it("exposes `taillabFiles`, whose per-request CSV save goes on its own channel only", async () => {
    expect(exposed[1]![0]).toBe("taillabFiles");
    const files = exposed[1]![1] as Record<string, (input: unknown) => Promise<unknown>>;
    expect(Object.keys(files)).toEqual(["saveRequestsCsv"]);
    electron.ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, result: { saved: true } });
    await expect(files.saveRequestsCsv!({ runId: "r1" })).resolves.toEqual({
      ok: true,
      result: { saved: true },
    });
    expect(electron.ipcRenderer.invoke).toHaveBeenLastCalledWith(SAVE_REQUESTS_CSV_CHANNEL, {
      runId: "r1",
    });
  });

  it("calls each API function on its own channel and nothing else", async () => {
    electron.ipcRenderer.invoke.mockResolvedValue({ ok: true, result: "answer" });
    for (const name of API_METHOD_NAMES) {
      await expect(api[name]!({ some: "input" })).resolves.toEqual({ ok: true, result: "answer" });
      expect(electron.ipcRenderer.invoke).toHaveBeenLastCalledWith(ipcChannel(name), {
        some: "input",
      });
    }
    const used = electron.ipcRenderer.invoke.mock.calls.map(([channel]) => channel as string);
    expect(used.every((channel) => ALLOWED_CHANNELS.has(channel))).toBe(true);
  });

  it("answers a failure as an envelope whose fields the UI's client rebuilds", async () => {
    const fields = [{ field: "name", message: "is required" }];
    const envelope = { ok: false, error: { message: "name: is required", fields } };
    electron.ipcRenderer.invoke.mockResolvedValueOnce(envelope);
    await expect(api.addEndpoint!({})).resolves.toEqual(envelope);
    const client = clientOfBridge(api as unknown as TailLabBridge);
    electron.ipcRenderer.invoke.mockResolvedValueOnce(envelope);
    const failure = await client
      .addEndpoint({ name: "" } as never)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).fields).toEqual(fields);
  });

  it("passes run events on without the IPC event, and unsubscribes", () => {
    const listener = vi.fn();
    const unsubscribe = api.onRunEvent(listener);
    const [channel, forward] = electron.ipcRenderer.on.mock.calls.at(-1)!;
    expect(channel).toBe(RUN_EVENT_CHANNEL);
    const event: RunEvent = { type: "notice", runId: "r1", message: "hello" };
    forward({ sender: "the ipcRenderer itself" }, event);
    expect(listener).toHaveBeenCalledExactlyOnceWith(event);
    unsubscribe();
    expect(electron.ipcRenderer.removeListener).toHaveBeenCalledWith(RUN_EVENT_CHANNEL, forward);
    const listened = electron.ipcRenderer.on.mock.calls.map(([name]) => name as string);
    expect(listened.every((name) => ALLOWED_CHANNELS.has(name))).toBe(true);
  });
});
