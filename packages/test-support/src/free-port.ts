import { createServer, type Server } from "node:net";

/**
 * A TCP port on 127.0.0.1 that was free a moment ago. The port is released before this resolves,
 * so another process could take it first; tests accept that small race.
 */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error("freePort: no port was allocated");
  return port;
}

/** `count` distinct free ports: all are held open together, so none is handed out twice. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listenOnAnyPort());
    return servers.map((server) => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        throw new Error("freePorts: the listening socket has no TCP address");
      }
      return address.port;
    });
  } finally {
    await Promise.all(servers.map(closeServer));
  }
}

function listenOnAnyPort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Throws unless every port can be listened on at 127.0.0.1: a server of an earlier test run still
 * answering on a port would be mistaken for the one about to start.
 */
export async function assertPortsFree(ports: readonly number[], who: string): Promise<void> {
  for (const port of ports) {
    const server = await new Promise<Server>((resolve, reject) => {
      const probe = createServer();
      probe.once("error", (error: NodeJS.ErrnoException) =>
        reject(
          new Error(
            `${who}: port ${port} on 127.0.0.1 is busy (${error.code}); a stale server may be answering there, refusing to start`,
          ),
        ),
      );
      probe.listen(port, "127.0.0.1", () => resolve(probe));
    });
    await closeServer(server);
  }
}
