import { createBridge } from "@taillab/api";
import { createFetchInvoke } from "./fetch-invoke.ts";
import { createRunEventSubscriber } from "./run-event-subscriber.ts";

/**
 * Served as /taillab-bridge.js before the UI's own script: gives the UI the same
 * `window.taillab` Electron's preload gives it, over HTTP calls and one WebSocket.
 */
const eventsUrl = new URL("/api/events", location.origin);
eventsUrl.protocol = location.protocol === "https:" ? "wss:" : "ws:";

const bridge = createBridge(
  createFetchInvoke(new URL("/api/", location.origin)),
  createRunEventSubscriber((handlers) => {
    const socket = new WebSocket(eventsUrl);
    socket.onopen = () => handlers.onOpen();
    socket.onmessage = (message) => handlers.onMessage(message.data);
    socket.onclose = () => handlers.onClose();
    return socket;
  }),
);
// Fixed in place, as contextBridge does in Electron: page code cannot swap the API out.
Object.defineProperty(window, "taillab", { value: Object.freeze(bridge), enumerable: true });
