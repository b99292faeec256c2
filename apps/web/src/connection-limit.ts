import type { Socket } from "node:net";

/**
 * Connections that have not yet shown the launch token. A browser opens at most six HTTP
 * connections to a host at once (and the UI one event socket per tab), so more than this many
 * without the token is a local process flooding the host: each held its file descriptor until
 * the process ran out (EMFILE) and the real UI got resets. Beyond the cap the oldest is dropped,
 * never the newest, so a new connection — the UI's — always gets in and can show its token.
 */
export const MAX_UNPROVEN_CONNECTIONS = 32;

/** Keeps the connections that have not shown the token under the cap, oldest dropped first. */
export function createConnectionLimit(maxUnproven = MAX_UNPROVEN_CONNECTIONS) {
  // A Set iterates in insertion order: its first entry is the oldest connection.
  const unproven = new Set<Socket>();
  return {
    /** A new connection: unproven until a request on it carries the token. */
    admit(socket: Socket): void {
      if (unproven.size >= maxUnproven) {
        const oldest = unproven.values().next().value as Socket;
        unproven.delete(oldest);
        oldest.destroy();
      }
      unproven.add(socket);
      socket.once("close", () => unproven.delete(socket));
    },
    /** The connection carried the token: it is the UI's, and never dropped for a flood. */
    prove(socket: Socket): void {
      unproven.delete(socket);
    },
  };
}
