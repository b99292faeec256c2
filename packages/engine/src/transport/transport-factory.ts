import type { TransportKind } from "@taillab/api";
import type { MicrosClock, ObjectTransport, TransportTarget } from "./object-transport.ts";

export type TransportFactory = (target: TransportTarget, clock: MicrosClock) => ObjectTransport;

/**
 * A transport kind's factory, its module loaded when asked: a worker thread that sends with
 * `fast` never loads the AWS SDK, which took 16 MB of each worker's memory, 4 MB of them heap
 * that V8 then lets grow several times over between collections.
 */
export async function loadTransportFactory(kind: TransportKind): Promise<TransportFactory> {
  switch (kind) {
    case "fast":
      return (await import("./fast-transport.ts")).createFastTransport;
    case "sdk":
      return (await import("./sdk-transport.ts")).createSdkTransport;
    default:
      throw new Error(`unknown transport kind "${String(kind)}"`);
  }
}
