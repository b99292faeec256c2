import type { HedgeOptions, ReplicaChoice, RequestMode, TransportKind } from "@taillab/api";
import { createReplicaChooser } from "@taillab/core";
import { createRequestExecutor, type RequestExecutor } from "./logical-request.ts";
import {
  createTransport,
  type MicrosClock,
  type ObjectTransport,
  type TransportTarget,
} from "./transport/index.ts";

/**
 * How a worker sends its requests: a transport per replica and the executors of its request
 * mode. A live session retunes it while requests are in flight: those keep the executor (and
 * replica choice) they started with; the next requests take the new ones.
 */
export interface RequestSetup {
  /** By replica index. A replica that left keeps its transport, for attempts still using it. */
  readonly transports: ObjectTransport[];
  /** The mode now (retune changes it, and the executors with it). */
  mode: RequestMode;
  /** withBackups: the mode's; single: one attempt (DELETE, cleanup, unmeasured requests). */
  executors: { withBackups: RequestExecutor; single: RequestExecutor };
  retune(change: { mode: RequestMode; hedge: HedgeOptions; targets: TransportTarget[] }): void;
}

export interface RequestSetupOptions {
  targets: TransportTarget[];
  transportKind: TransportKind;
  mode: RequestMode;
  hedge: HedgeOptions;
  replicaChoice: ReplicaChoice;
  clock: MicrosClock;
  stopSignal: AbortSignal;
}

export function createRequestSetup(options: RequestSetupOptions): RequestSetup {
  const { transportKind, replicaChoice, clock, stopSignal } = options;
  const transports: ObjectTransport[] = [];
  const urls: string[] = [];
  const executorsFor = (mode: RequestMode, hedge: HedgeOptions, replicas: number) => {
    const chooser = createReplicaChooser({ replicas, strategy: replicaChoice });
    return {
      withBackups: createRequestExecutor({ mode, hedge, chooser, stopSignal }),
      single: createRequestExecutor({ mode: "normal", hedge, chooser, stopSignal }),
    };
  };
  const useTargets = (targets: readonly TransportTarget[]) => {
    targets.forEach((target, index) => {
      if (urls[index] === target.url) return;
      // Another server took this index: the old one's requests in flight finish, then it closes.
      void transports[index]?.close();
      transports[index] = createTransport(transportKind, target, clock);
      urls[index] = target.url;
    });
  };
  useTargets(options.targets);
  const setup: RequestSetup = {
    transports,
    mode: options.mode,
    executors: executorsFor(options.mode, options.hedge, options.targets.length),
    retune({ mode, hedge, targets }) {
      useTargets(targets);
      setup.mode = mode;
      setup.executors = executorsFor(mode, hedge, targets.length);
    },
  };
  return setup;
}
