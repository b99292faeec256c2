import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy that counts what crossed it, sharing no code with TailLab: the connections it
 * accepted, and the bytes it handed on each way.
 */
export interface CountingProxy {
  url: string;
  /** Connections accepted from the client. */
  accepted: number;
  /** Bytes handed on from the client to the server. */
  fromClient: number;
  /** Bytes handed on from the server to the client. */
  toClient: number;
  /** While true, the server's answers are held back (a slow answer, for as long as needed). */
  holding: boolean;
  /** Called with each chunk of request bytes the client sent. */
  onClientData: () => void;
  close(): Promise<void>;
}

export async function countingProxy(target: URL): Promise<CountingProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    proxy.accepted += 1;
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      proxy.fromClient += chunk.length;
      proxy.onClientData();
    });
    upstream.on("data", (chunk: Buffer) => {
      if (proxy.holding) return;
      client.write(chunk);
      proxy.toClient += chunk.length;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const proxy: CountingProxy = {
    url: `http://127.0.0.1:${port}`,
    accepted: 0,
    fromClient: 0,
    toClient: 0,
    holding: false,
    onClientData: () => {},
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
