import {
  API_METHOD_NAMES,
  ipcChannel,
  RUN_EVENT_CHANNEL,
  type RunEvent,
  type RunEventListener,
  type TailLabService,
} from "@taillab/api";
import type { IpcMain, IpcMainInvokeEvent, WebContents } from "electron";
import { describe, expect, it, vi } from "vitest";
import { forwardRunEvents, handleApiCalls } from "./ipc.ts";

type Handler = (event: IpcMainInvokeEvent, input: unknown) => Promise<unknown>;

const APP_INFO = { version: "0.1.0", host: "electron", resultsDir: "/r", dataDir: "/d" };

function setUp() {
  const handlers = new Map<string, Handler>();
  const ipcMain = {
    handle: vi.fn((channel: string, handler: Handler) => handlers.set(channel, handler)),
    removeHandler: vi.fn((channel: string) => handlers.delete(channel)),
  };
  const service = {
    appInfo: vi.fn(async () => APP_INFO),
    addEndpoint: vi.fn(async () => ({})),
  };
  const dispose = handleApiCalls(
    ipcMain as unknown as IpcMain,
    service as unknown as TailLabService,
  );
  /** An invoke from a frame at `url`; `parent` set makes it an iframe. */
  const invoke = (name: string, input: unknown, url: string | null, parent: object | null = null) =>
    handlers.get(ipcChannel(name as never))!(
      { senderFrame: url === null ? null : { url, parent } } as unknown as IpcMainInvokeEvent,
      input,
    );
  return { handlers, service, dispose, invoke };
}

describe("handleApiCalls", () => {
  it("handles exactly one channel per API call, and removes them again", () => {
    const { handlers, dispose } = setUp();
    expect([...handlers.keys()].sort()).toEqual(API_METHOD_NAMES.map(ipcChannel).sort());
    dispose();
    expect(handlers.size).toBe(0);
  });

  it("answers the app's own page with the call's envelope", async () => {
    const { invoke, service } = setUp();
    await expect(invoke("appInfo", undefined, "app://taillab/index.html")).resolves.toEqual({
      ok: true,
      result: APP_INFO,
    });
    expect(service.appInfo).toHaveBeenCalledOnce();
  });

  it.each([
    ["another site", "https://evil.example/", null],
    ["a local file", "file:///home/ada/page.html", null],
    ["another app host", "app://other/index.html", null],
    ["an iframe of the app", "app://taillab/frame.html", {}],
  ])("refuses %s without calling the backend", async (_case, url, parent) => {
    const { invoke, service } = setUp();
    await expect(invoke("appInfo", undefined, url, parent)).rejects.toThrow(
      `taillab:appInfo refused: only the app's own page may call it, not ${url}`,
    );
    expect(service.appInfo).not.toHaveBeenCalled();
  });

  it("refuses a frame that is gone", async () => {
    const { invoke } = setUp();
    await expect(invoke("appInfo", undefined, null)).rejects.toThrow(/not a closed frame/);
  });

  it("answers bad input with the fields at fault, without calling the backend", async () => {
    const { invoke, service } = setUp();
    const answer = await invoke("addEndpoint", { name: "", kind: "minio" }, "app://taillab/");
    expect(answer).toMatchObject({
      ok: false,
      error: {
        fields: expect.arrayContaining([
          { field: "name", message: "is required", code: "required", params: {} },
          { field: "credentials", message: "is required", code: "required", params: {} },
        ]),
      },
    });
    expect(service.addEndpoint).not.toHaveBeenCalled();
  });
});

describe("forwardRunEvents", () => {
  const NOTICE: RunEvent = { type: "notice", runId: "r1", message: "hello" };

  function setUpEvents() {
    const listeners = new Set<RunEventListener>();
    const service = {
      onRunEvent: (listener: RunEventListener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    } as unknown as TailLabService;
    let destroyed = false;
    let onDestroyed = () => {};
    const contents = {
      send: vi.fn(),
      isDestroyed: () => destroyed,
      once: (_name: "destroyed", listener: () => void) => (onDestroyed = listener),
    };
    forwardRunEvents(service, contents as unknown as WebContents);
    const emit = (event: RunEvent) => listeners.forEach((listener) => listener(event));
    const destroy = () => {
      destroyed = true;
      onDestroyed();
    };
    return { contents, emit, destroy, listeners };
  }

  it("sends every run event on the run-event channel", () => {
    const { contents, emit } = setUpEvents();
    emit(NOTICE);
    expect(contents.send).toHaveBeenCalledExactlyOnceWith(RUN_EVENT_CHANNEL, NOTICE);
  });

  it("stops listening when the page is destroyed", () => {
    const { contents, emit, destroy, listeners } = setUpEvents();
    destroy();
    expect(listeners.size).toBe(0);
    emit(NOTICE);
    expect(contents.send).not.toHaveBeenCalled();
  });
});
