import { createServer } from "node:net";

/** A TCP port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port was assigned");
  return address.port;
}
