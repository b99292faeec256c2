import { connect, createServer, type Socket } from "node:net";

/**
 * A TCP proxy that holds a step of each connection for a given time, sharing no code with
 * TailLab: the server's first bytes (over TLS, the handshake's answer: the connect is held), or
 * the client's bytes after its first chunk (an upload held on the wire).
 */
export interface HoldingProxy {
  url: string;
  close(): Promise<void>;
}

export interface Holds {
  /** How long each connection's first answer from the server is held back. */
  handshakeMs?: number;
  /** How long the client's bytes after its first chunk wait unread, on each connection. */
  uploadMs?: number;
}

export async function holdingProxy(
  target: URL,
  { handshakeMs = 0, uploadMs = 0 }: Holds,
): Promise<HoldingProxy> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, then: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      then();
    }, ms);
    timers.add(timer);
  };
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    let firstClientChunk = true;
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      if (firstClientChunk && uploadMs > 0) {
        client.pause();
        later(uploadMs, () => client.resume());
      }
      firstClientChunk = false;
    });
    let heldAnswer: Buffer[] | null = handshakeMs > 0 ? [] : null;
    if (heldAnswer) {
      later(handshakeMs, () => {
        for (const chunk of heldAnswer ?? []) client.write(chunk);
        heldAnswer = null;
      });
    }
    upstream.on("data", (chunk: Buffer) => {
      if (heldAnswer) heldAnswer.push(chunk);
      else client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `${target.protocol}//127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
