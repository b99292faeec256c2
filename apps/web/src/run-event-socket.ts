import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import type { TailLabService } from "@taillab/api";

export const RUN_EVENTS_PATH = "/api/events";

/**
 * Event sockets open at once. The UI opens one per tab; the cap keeps a runaway or hostile local
 * client from holding the host's memory and file descriptors with thousands of them.
 */
export const MAX_EVENT_SOCKETS = 16;

/**
 * `GET /api/events`: a WebSocket carrying every run event as one JSON text message. Clients
 * only listen; the small payload limit turns anything they send into a closed socket.
 */
export function createRunEventSockets(service: TailLabService) {
  const server = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  server.on("connection", (socket) => {
    const unsubscribe = service.onRunEvent((event) => socket.send(JSON.stringify(event)));
    socket.on("close", unsubscribe);
    // A broken client closes its socket; there is nothing else to do about it here.
    socket.on("error", () => socket.terminate());
  });
  return {
    /** Whether one more socket may open. */
    hasRoom: (): boolean => server.clients.size < MAX_EVENT_SOCKETS,
    /** Take over an upgrade request that already passed the host's checks. */
    accept(request: IncomingMessage, socket: Duplex, head: Buffer): void {
      server.handleUpgrade(request, socket, head, (client) => server.emit("connection", client));
    },
    close(): void {
      for (const client of server.clients) client.terminate();
      server.close();
    },
  };
}
