/**
 * An HTTP proxy that writes down what each request did on the wire: the truth harness's
 * instrument. A process of its own (started by `startWireProxy`) that imports nothing but Node,
 * so it shares no code, event loop or clock with TailLab. For each request a client sends it
 * keeps, in microseconds of its own clock:
 * - startUs: the request's headers arrived; requestEndUs: its body had arrived;
 * - headersUs: the server's answer headers arrived; endUs: the answer's last byte was handed to
 *   the client's socket, or the client went away (then `completed` is false);
 * - requestBytes and responseBytes: body bytes that crossed, each way, until then.
 *
 * Started as `node wire-proxy.ts http://127.0.0.1:UPSTREAM` with an IPC channel; prints
 * `{"port":N}` once listening and answers a "log" message with every entry so far.
 */
import { Agent, createServer, request as upstreamRequest } from "node:http";

export interface WireEntry {
  method: string;
  /** The request's path and query, as sent. */
  path: string;
  startUs: number;
  requestEndUs: number | null;
  headersUs: number | null;
  endUs: number | null;
  status: number;
  requestBytes: number;
  responseBytes: number;
  completed: boolean;
}

const upstream = new URL(process.argv[2] ?? "http://127.0.0.1:1");
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
const entries: WireEntry[] = [];

const nowUs = () => Math.round(performance.now() * 1000);

const server = createServer((request, response) => {
  const entry: WireEntry = {
    method: request.method ?? "",
    path: request.url ?? "",
    startUs: nowUs(),
    requestEndUs: null,
    headersUs: null,
    endUs: null,
    status: 0,
    requestBytes: 0,
    responseBytes: 0,
    completed: false,
  };
  entries.push(entry);
  const forward = upstreamRequest({
    host: upstream.hostname,
    port: upstream.port,
    method: request.method,
    path: request.url,
    headers: request.headers,
    agent,
  });
  request.on("data", (chunk: Buffer) => {
    entry.requestBytes += chunk.length;
    forward.write(chunk);
  });
  request.on("end", () => {
    entry.requestEndUs = nowUs();
    forward.end();
  });
  forward.on("response", (answer) => {
    entry.headersUs = nowUs();
    entry.status = answer.statusCode ?? 0;
    response.writeHead(entry.status, answer.rawHeaders);
    answer.on("data", (chunk: Buffer) => {
      // Counted once the client's socket took it: a write after the client reset the
      // connection fails, and those bytes never reached it.
      response.write(chunk, (error) => {
        if (!error) entry.responseBytes += chunk.length;
      });
    });
    answer.on("end", () => {
      // Stamped as the last byte is handed to the socket: 'finish' comes a turn of the loop
      // later, maybe after the client already has the answer.
      entry.endUs = nowUs();
      response.end();
    });
  });
  forward.on("error", () => response.destroy());
  response.on("finish", () => {
    entry.completed = true;
  });
  response.on("close", () => {
    if (entry.completed) return;
    entry.endUs = nowUs();
    forward.destroy();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === "object" ? address?.port : 0 })}\n`,
  );
});
process.on("message", (message) => {
  if (message === "log") process.send?.(entries);
});
process.on("SIGTERM", () => process.exit(0));
