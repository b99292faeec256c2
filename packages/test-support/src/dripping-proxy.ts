import { connect, createServer, type Socket } from "node:net";

/**
 * A TCP proxy in front of a real server that can start dripping its answers: once `drip()` is
 * called, every byte the server sends reaches the client one at a time, `intervalMs` apart (on
 * connections open then and later), as a server stuck in a slow disk or a congested link would
 * answer. Or hang: once `hang()` is called, nothing the server sends reaches the clients (it is
 * held), as a server that stopped answering mid-run; `pass()` hands over what was held, as a
 * server that comes back. Before, it passes everything through, so a run's checks and first
 * requests go well.
 */
export interface DrippingProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Bytes the clients sent so far (a run's progress, for a test to wait on). */
  clientBytes(): number;
  /**
   * The HTTP request lines the clients sent so far (`POST /loadgen?delete HTTP/1.1`), in order:
   * seen here even while the server behind is stopped, so a test can count what a client sends.
   */
  requestLines(): string[];
  drip(): void;
  /**
   * Holds every byte the server sends from now on, on every connection; with `match`, only on
   * the connections whose client sends bytes it accepts (a chunk as latin1 text: a run's data
   * requests by their keys, not its markers), from then on.
   */
  hang(match?: (sent: string) => boolean): void;
  /** Back to passing everything through at once, what was held first. */
  pass(): void;
  close(): Promise<void>;
}

export async function startDrippingProxy(
  target: { host: string; port: number },
  intervalMs = 100,
): Promise<DrippingProxy> {
  let dripping = false;
  let hanging = false;
  let hangMatch: ((sent: string) => boolean) | null = null;
  let clientBytes = 0;
  const flushes = new Set<() => void>();
  const requestLines: string[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const queued: Buffer[] = [];
    let connectionHung = false;
    const held = () => hanging && (hangMatch === null || connectionHung);
    const findRequestLines = requestLineFinder((line) => requestLines.push(line));
    let draining: NodeJS.Timeout | null = null;
    const dripOne = () => {
      if (draining) timers.delete(draining);
      draining = null;
      const chunk = queued[0];
      if (!chunk || client.destroyed || held()) return;
      if (!dripping) {
        client.write(Buffer.concat(queued.splice(0)));
        return;
      }
      client.write(chunk.subarray(0, 1));
      if (chunk.length > 1) queued[0] = chunk.subarray(1);
      else queued.shift();
      draining = setTimeout(dripOne, intervalMs);
      timers.add(draining);
    };
    flushes.add(dripOne);
    upstream.on("data", (chunk: Buffer) => {
      if (!dripping && !held() && queued.length === 0) {
        client.write(chunk);
        return;
      }
      queued.push(chunk);
      if (!draining) dripOne();
    });
    client.on("data", (chunk: Buffer) => {
      clientBytes += chunk.length;
      findRequestLines(chunk);
      if (hanging && hangMatch?.(chunk.toString("latin1"))) connectionHung = true;
      upstream.write(chunk);
    });
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
      flushes.delete(dripOne);
    };
    client.on("close", closeBoth).on("error", closeBoth);
    upstream.on("close", closeBoth).on("error", closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy: no TCP address");

  return {
    url: `http://127.0.0.1:${address.port}`,
    clientBytes: () => clientBytes,
    requestLines: () => [...requestLines],
    drip: () => {
      dripping = true;
    },
    hang: (match) => {
      hanging = true;
      hangMatch = match ?? null;
    },
    pass: () => {
      dripping = false;
      hanging = false;
      for (const flush of flushes) flush();
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Not anchored at the line's start: on a kept-alive connection the request after an upload
 * follows the last byte of its body, with no CRLF between them.
 */
const REQUEST_LINE = /(?:GET|PUT|POST|DELETE|HEAD) \S+ HTTP\/1\.[01]$/;
/** A request line is short; what is kept of a line still open (a body without CRLF) is capped. */
const OPEN_LINE_BYTES = 16 * 1024;

/** Feeds one connection's bytes; calls `found` with each request line, across chunk edges. */
function requestLineFinder(found: (line: string) => void): (chunk: Buffer) => void {
  let open = "";
  return (chunk) => {
    const lines = (open + chunk.toString("latin1")).split("\r\n");
    open = (lines.pop() ?? "").slice(-OPEN_LINE_BYTES);
    for (const line of lines) {
      const request = REQUEST_LINE.exec(line);
      if (request) found(request[0]);
    }
  };
}
