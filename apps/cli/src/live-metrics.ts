import type { Operation, RunProgress } from "@taillab/api";
import type { LiveFigures } from "@taillab/backend";
import {
  formatOpenMetrics,
  OPEN_METRICS_CONTENT_TYPE,
  type LiveMetrics,
  type LiveOperationMetrics,
} from "@taillab/report";
import { createServer } from "node:http";
import { UsageError } from "./cli-args.ts";

/**
 * A run's live figures as `--metrics` serves them: counters summed over the run's phases (a
 * phase's progress counts from 0, so each is added as it grows), the newest phase's rate and
 * percentiles. A mixed workload's progress is its busiest operation's, so its totals count there.
 */
export class LiveMetricsBook {
  private readonly operations = new Map<Operation, LiveOperationMetrics>();
  /** What the phase running has already added to its operation's counters. */
  private phaseCounted = { done: 0, errors: 0 };
  private clientBound: boolean | null = null;
  private point = { pointIndex: 0, pointCount: 1 };

  /** A phase starts: its progress counts from 0 again, and the ones before are idle. */
  onPhaseStart(): void {
    this.phaseCounted = { done: 0, errors: 0 };
    for (const entry of this.operations.values()) entry.opsPerSec = 0;
  }

  onProgress(
    progress: RunProgress,
    live: Pick<LiveFigures, "recentPercentiles" | "ended" | "clientSeconds">,
  ): void {
    let entry = this.operations.get(progress.op);
    if (!entry) {
      entry = {
        op: progress.op,
        requests: 0,
        errors: 0,
        opsPerSec: 0,
        p50Ms: null,
        p99Ms: null,
        p999Ms: null,
      };
      this.operations.set(progress.op, entry);
    }
    entry.requests += Math.max(0, progress.done - this.phaseCounted.done);
    entry.errors += Math.max(0, progress.errors - this.phaseCounted.errors);
    this.phaseCounted = {
      done: Math.max(progress.done, this.phaseCounted.done),
      errors: Math.max(progress.errors, this.phaseCounted.errors),
    };
    entry.opsPerSec = live.ended ? 0 : progress.opsPerSec;
    const recent = live.recentPercentiles;
    if (recent) {
      entry.p50Ms = recent.p50Ms;
      entry.p99Ms = recent.p99Ms;
      entry.p999Ms = recent.p999Ms;
    }
    const newest = live.clientSeconds.at(-1);
    if (newest) this.clientBound = !newest.verdict.keptUp;
    this.point = { pointIndex: progress.pointIndex, pointCount: progress.pointCount };
  }

  metrics(): LiveMetrics {
    return {
      operations: [...this.operations.values()],
      clientBound: this.clientBound,
      ...this.point,
    };
  }
}

/** `127.0.0.1:9464`, `[::1]:9464` or `localhost:0` (any free port). */
export function parseMetricsAddress(text: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (!match || port > 65_535) {
    throw new UsageError("metrics", `expected HOST:PORT such as 127.0.0.1:9464, got "${text}"`);
  }
  return { host: match[1] ?? match[2] ?? "", port };
}

export interface MetricsEndpoint {
  /** `http://HOST:PORT/metrics`, with the port it got. */
  url: string;
  close(): Promise<void>;
}

/** Serves the book's figures at /metrics as OpenMetrics text, for Prometheus to scrape. */
export async function serveLiveMetrics(
  address: string,
  book: LiveMetricsBook,
): Promise<MetricsEndpoint> {
  const { host, port } = parseMetricsAddress(address);
  const server = createServer((request, response) => {
    if (
      request.method !== "GET" ||
      new URL(request.url ?? "/", "http://x").pathname !== "/metrics"
    ) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      response.end("taillab serves its live figures at /metrics\n");
      return;
    }
    response.writeHead(200, { "content-type": OPEN_METRICS_CONTENT_TYPE });
    response.end(formatOpenMetrics(book.metrics()));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new UsageError("metrics", `cannot listen on ${address}: ${error.code ?? error.message}`),
      ),
    );
    server.listen(port, host, () => resolve());
  });
  const bound = server.address();
  const boundPort = typeof bound === "object" && bound !== null ? bound.port : port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${boundPort}/metrics`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
