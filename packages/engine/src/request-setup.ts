import type { HedgeOptions, ReplicaChoice, RequestMode } from "@taillab/api";
import { createReplicaChooser, type ReplicaChooser } from "@taillab/core";
import { createRequestExecutor, type RequestExecutor } from "./hedged-tied-executor.ts";
import type {
  MicrosClock,
  ObjectTransport,
  TransportTarget,
} from "./transport/object-transport.ts";
import type { TransportFactory } from "./transport/transport-factory.ts";

/** withBackups: the mode's; single: one attempt (DELETE, cleanup, unmeasured requests). */
export interface RequestExecutors {
  withBackups: RequestExecutor;
  single: RequestExecutor;
}

/**
 * How a worker sends its requests: a transport per replica and the executors of its request
 * mode. A live session retunes it while requests are in flight: those keep the executor (and
 * replica choice) they started with; the next requests take the new ones.
 */
export interface RequestSetup {
  /** By replica index. A replica that left keeps its transport, for attempts still using it. */
  readonly transports: ObjectTransport[];
  /** The mode now (retune changes it, and the executors with it). */
  readonly mode: RequestMode;
  /**
   * The executors of the mode now, on a phase's signal (a stop of the run, or the phase's end
   * when the server is lost: their attempts in flight are aborted). The same ones until the
   * next retune or phase.
   */
  executorsOn(signal: AbortSignal): RequestExecutors;
  retune(change: { mode: RequestMode; hedge: HedgeOptions; targets: TransportTarget[] }): void;
}

export interface RequestSetupOptions {
  targets: TransportTarget[];
  /** The run's transport kind's (loadTransportFactory). */
  createTransport: TransportFactory;
  mode: RequestMode;
  hedge: HedgeOptions;
  replicaChoice: ReplicaChoice;
  clock: MicrosClock;
}

interface Tuning {
  mode: RequestMode;
  hedge: HedgeOptions;
  chooser: ReplicaChooser;
}

export function createRequestSetup(options: RequestSetupOptions): RequestSetup {
  const { createTransport, replicaChoice, clock } = options;
  const transports: ObjectTransport[] = [];
  const urls: string[] = [];
  const tuningOf = (mode: RequestMode, hedge: HedgeOptions, replicas: number): Tuning => ({
    mode,
    hedge,
    chooser: createReplicaChooser({ replicas, strategy: replicaChoice }),
  });
  const useTargets = (targets: readonly TransportTarget[]) => {
    targets.forEach((target, index) => {
      if (urls[index] === target.url) return;
      // Another server took this index: the old one's requests in flight finish, then it closes.
      void transports[index]?.close();
      transports[index] = createTransport(target, clock);
      urls[index] = target.url;
    });
  };
  useTargets(options.targets);
  let tuning = tuningOf(options.mode, options.hedge, options.targets.length);
  let built: { signal: AbortSignal; executors: RequestExecutors } | null = null;
  return {
    transports,
    get mode() {
      return tuning.mode;
    },
    executorsOn(signal) {
      if (built?.signal !== signal) {
        const { mode, hedge, chooser } = tuning;
        const executors = {
          withBackups: createRequestExecutor({ mode, hedge, chooser, stopSignal: signal }),
          single: createRequestExecutor({ mode: "normal", hedge, chooser, stopSignal: signal }),
        };
        built = { signal, executors };
      }
      return built.executors;
    },
    retune({ mode, hedge, targets }) {
      useTargets(targets);
      tuning = tuningOf(mode, hedge, targets.length);
      built = null;
    },
  };
}
