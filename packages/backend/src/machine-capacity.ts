import {
  coded,
  fieldError,
  formatByteSize,
  OBJECT_WRITES,
  type FieldError,
  type RunSpec,
} from "@taillab/api";
import {
  expandSweep,
  maxSizeBytes,
  meanSizeBytes,
  operationOf,
  parseOperationMix,
  parseSizeDistribution,
  valueRange,
} from "@taillab/core";
import { connectionsPerReplica, defaultWorkerCount } from "@taillab/engine";
import { readFileSync } from "node:fs";
import { freemem, totalmem } from "node:os";

/**
 * What this machine can hold, checked before a run creates anything: a run past these limits
 * does not fail cleanly later, it fails every request (EMFILE, EADDRNOTAVAIL) or dies starting its
 * clients, and a stop then has a million half-made requests to unwind.
 */
export interface MachineLimits {
  memoryBytes: number;
  /** Memory free now: what clients' connections and buffers can use. */
  freeMemoryBytes: number;
  /** Worker threads a spec without `workers` gets. */
  defaultWorkers: number;
  /** Files this process may hold open (Node raised the soft limit to the hard one); null: unknown. */
  openFiles: number | null;
  /** Local ports for the connections to one server address; null: unknown. */
  ephemeralPorts: number | null;
}

export function thisMachine(): MachineLimits {
  return {
    memoryBytes: totalmem(),
    freeMemoryBytes: freemem(),
    defaultWorkers: defaultWorkerCount(),
    openFiles: readOpenFileLimit(),
    ephemeralPorts: readEphemeralPorts(),
  };
}

/** Everything a spec needs that the machine cannot give: object memory, then connections. */
export function machineCapacityProblems(
  spec: RunSpec,
  machine: MachineLimits = thisMachine(),
): FieldError[] {
  return [...objectMemoryProblems(spec, machine), ...connectionProblems(spec, machine)];
}

/**
 * Object sizes this machine cannot hold. The engine keeps a point's largest object in memory,
 * one random buffer its workers share, and with verification a stamped copy per PUT in flight
 * (one per client). The embedded testbed, in this process, keeps every object it is sent in
 * memory: a point's objects until its cleanup, every point's without one. Past the machine's
 * memory a run fails mid-start or the process is killed mid-run, so such a spec is refused before
 * anything is created, naming the field the size came from.
 */
function objectMemoryProblems(spec: RunSpec, machine: MachineLimits): FieldError[] {
  const sizes = spec.workload?.sizes;
  const distribution = sizes === undefined ? null : parseSizeDistribution(sizes);
  const fromDistribution = distribution?.ok ? distribution.value : null;
  const embedded = spec.endpoints === undefined;
  const cleansUp = spec.phases.includes("cleanup");
  let storedBefore = 0;
  for (const point of expandSweep(spec)) {
    const largest = fromDistribution ? maxSizeBytes(fromDistribution) : point.objectSizeBytes;
    const copies = spec.verify ? point.clients : 0;
    const engine = largest * (1 + copies);
    const stored = embedded
      ? storedObjects(spec, point.samples) *
        (fromDistribution ? meanSizeBytes(fromDistribution) : point.objectSizeBytes)
      : 0;
    const kept = cleansUp ? stored : storedBefore + stored * spec.repeat;
    storedBefore = cleansUp ? 0 : kept;
    const needed = engine + kept;
    if (needed <= machine.memoryBytes) continue;
    const field = fromDistribution ? "workload.sizes" : objectSizeField(spec, largest);
    const held =
      copies === 0
        ? coded("memoryHeldLargest")
        : copies === 1
          ? coded("memoryHeldLargestAndCopy")
          : coded("memoryHeldLargestAndCopies", { copies });
    const figures = {
      size: formatByteSize(largest),
      needed: formatByteSize(needed),
      held,
      memory: formatByteSize(machine.memoryBytes),
    };
    return [
      fieldError(
        field,
        kept > 0
          ? coded("objectsNeedMemoryWithTestbed", { ...figures, kept: formatByteSize(kept) })
          : coded("objectsNeedMemory", figures),
      ),
    ];
  }
  return [];
}

/**
 * Objects a point writes: s3bench's write phase one per sample; a mix its prepared objects and
 * one per request that writes a new key (a live session's are unbounded and not counted).
 */
function storedObjects(spec: RunSpec, samples: number): number {
  if (!spec.workload) return samples;
  const mix = parseOperationMix(spec.workload.ops);
  const writesPct = mix.ok
    ? mix.value
        .filter((entry) => OBJECT_WRITES.has(operationOf(entry.op)))
        .reduce((sum, entry) => sum + entry.weightPct, 0)
    : 0;
  return spec.workload.prepareObjects + Math.ceil((samples * writesPct) / 100);
}

/** Files a run keeps open besides its connections: logs, workers, the store, stdio. */
const BASE_OPEN_FILES = 256;
/**
 * Memory a client's connection and request state take in the engine, a generous round figure:
 * undici's client and parser, socket buffers, the request's closures and records.
 */
const MEMORY_PER_CONNECTION_BYTES = 64 * 1024;

/**
 * Clients past what the machine's file, port and memory limits hold, the first limit that binds
 * (one line: they all ask for fewer clients). Each client has a connection to every replica (two
 * when requests send backups); the embedded testbed runs in this process, so its side of every
 * connection is a file here too.
 */
function connectionProblems(spec: RunSpec, machine: MachineLimits): FieldError[] {
  const clients = valueRange(expandSweep(spec).map((point) => point.clients))?.max ?? 1;
  const replicas = spec.endpoints?.length ?? spec.testbed.replicas;
  const embedded = spec.endpoints === undefined;
  const perServer = connectionsPerReplica(clients, spec.mode);
  const connections = perServer * replicas;
  // Files each client costs: its connections, and the testbed's ends of them when it is here.
  const filesPerClient = (connections / clients) * (embedded ? 2 : 1);
  const files = clients * filesPerClient + BASE_OPEN_FILES;
  const field = clientsField(spec, clients);
  const problems: FieldError[] = [];
  if (machine.openFiles !== null && files > machine.openFiles) {
    const most = Math.floor((machine.openFiles - BASE_OPEN_FILES) / filesPerClient);
    const figures = {
      clients,
      files,
      connections,
      base: BASE_OPEN_FILES,
      limit: machine.openFiles,
    };
    problems.push(
      fieldError(
        field,
        embedded
          ? coded("clientsNeedFilesWithTestbed", { ...figures, most })
          : coded("clientsNeedFiles", { ...figures, most }),
      ),
    );
  }
  if (machine.ephemeralPorts !== null && perServer > machine.ephemeralPorts) {
    const most = Math.floor((machine.ephemeralPorts * clients) / perServer);
    problems.push(
      fieldError(
        field,
        coded("clientsNeedPorts", {
          clients,
          connections: perServer,
          ports: machine.ephemeralPorts,
          most,
        }),
      ),
    );
  }
  const memory = clients * filesPerClient * MEMORY_PER_CONNECTION_BYTES;
  if (memory > machine.freeMemoryBytes) {
    problems.push(
      fieldError(
        field,
        coded("clientsNeedMemory", {
          clients,
          needed: formatByteSize(memory),
          each: formatByteSize(MEMORY_PER_CONNECTION_BYTES),
          free: formatByteSize(machine.freeMemoryBytes),
        }),
      ),
    );
  }
  return problems.slice(0, 1);
}

function clientsField(spec: RunSpec, clients: number): string {
  if (spec.points) return `points[${spec.points.findIndex((p) => p.clients === clients)}].clients`;
  return spec.clients.length > 1 ? `clients[${spec.clients.indexOf(clients)}]` : "clients";
}

function objectSizeField(spec: RunSpec, bytes: number): string {
  if (spec.points)
    return `points[${spec.points.findIndex((p) => p.objectSize === bytes)}].objectSize`;
  return spec.objectSize.length > 1
    ? `objectSize[${spec.objectSize.indexOf(bytes)}]`
    : "objectSize";
}

/** The soft RLIMIT_NOFILE, as /proc shows it (Linux); null elsewhere. */
function readOpenFileLimit(): number | null {
  const limits = readProc("/proc/self/limits");
  const match = limits ? /^Max open files\s+(\d+|unlimited)/m.exec(limits) : null;
  if (!match) return null;
  return match[1] === "unlimited" ? null : Number(match[1]);
}

/** The size of net.ipv4.ip_local_port_range (Linux); null elsewhere. */
function readEphemeralPorts(): number | null {
  const range = readProc("/proc/sys/net/ipv4/ip_local_port_range");
  const [low, high] = (range ?? "").trim().split(/\s+/).map(Number);
  return low !== undefined && high !== undefined && high >= low ? high - low + 1 : null;
}

function readProc(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
