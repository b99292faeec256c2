import {
  API_METHOD_NAMES,
  dispatchApiCall,
  ipcChannel,
  RUN_EVENT_CHANNEL,
  type TailLabService,
} from "@taillab/api";
import type { IpcMain, IpcMainInvokeEvent, WebContents } from "electron";
import { isAppUrl } from "./app-origin.ts";

/**
 * One `ipcMain.handle` per API call. Each answers only the app's own top-level page (a frame
 * that navigated elsewhere, or an iframe, gets an error) and validates the input with the
 * contract's schema before the backend sees it. Returns a function that removes the handlers.
 */
export function handleApiCalls(ipcMain: IpcMain, service: TailLabService): () => void {
  for (const name of API_METHOD_NAMES) {
    ipcMain.handle(ipcChannel(name), async (event: IpcMainInvokeEvent, input: unknown) => {
      assertAppMainFrame(event, ipcChannel(name));
      return dispatchApiCall(service, name, input);
    });
  }
  return () => {
    for (const name of API_METHOD_NAMES) ipcMain.removeHandler(ipcChannel(name));
  };
}

export function assertAppMainFrame(event: IpcMainInvokeEvent, channel: string): void {
  const frame = event.senderFrame;
  if (frame === null || frame.parent !== null || !isAppUrl(frame.url)) {
    throw new Error(
      `${channel} refused: only the app's own page may call it, not ${frame?.url || "a closed frame"}`,
    );
  }
}

/** Every run event to the window's page, until the page goes away. Returns the unsubscriber. */
export function forwardRunEvents(service: TailLabService, contents: WebContents): () => void {
  const unsubscribe = service.onRunEvent((event) => {
    if (!contents.isDestroyed()) contents.send(RUN_EVENT_CHANNEL, event);
  });
  contents.once("destroyed", unsubscribe);
  return unsubscribe;
}
