import {
  createBridge,
  ipcChannel,
  isApiMethodName,
  RUN_EVENT_CHANNEL,
  SAVE_REQUESTS_CSV_CHANNEL,
  type ApiEnvelope,
  type RequestsCsvSaved,
  type RunEvent,
  type TailLabFilesBridge,
} from "@taillab/api";
import { contextBridge, ipcRenderer, type IpcRendererEvent } from "electron";

/**
 * The renderer's one way to the backend: `window.taillab`, one function per API call (answering
 * an envelope: contextBridge would drop an Error's fields) plus `onRunEvent`. Only the
 * contract's channels are ever used, and the page never sees `ipcRenderer` or an IPC event
 * object (whose `sender` would let it send anywhere).
 */
const bridge = createBridge(
  (name, input) => {
    // createBridge calls only the contract's names; the check makes that a type, too.
    if (!isApiMethodName(name)) throw new Error(`unknown call "${name}"`);
    return ipcRenderer.invoke(ipcChannel(name), input) as Promise<ApiEnvelope<unknown>>;
  },
  (listener) => {
    const forward = (_event: IpcRendererEvent, runEvent: RunEvent) => listener(runEvent);
    ipcRenderer.on(RUN_EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(RUN_EVENT_CHANNEL, forward);
    };
  },
);

contextBridge.exposeInMainWorld("taillab", bridge);

/** Files the main process writes where the user chooses (a save dialog), on their one channel. */
const files: TailLabFilesBridge = {
  saveRequestsCsv: (input) =>
    ipcRenderer.invoke(SAVE_REQUESTS_CSV_CHANNEL, input) as Promise<ApiEnvelope<RequestsCsvSaved>>,
};
contextBridge.exposeInMainWorld("taillabFiles", files);
