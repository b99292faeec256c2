/**
 * The start barrier's requests to the bucket, retried: one SlowDown, server error or reset while
 * the shards wait must not end a shard, or the others wait for it until the deadline. Only the
 * coordination is retried; measured requests never are (the engine makes one attempt).
 */
import type { MarkerStore } from "./bucket-markers.ts";

/** HTTP statuses a server answers when a request may well pass a moment later. */
const TRANSIENT_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/**
 * Throttling (SlowDown, 503, 429), a server error, a request timeout, or no answer at all: a
 * connection reset, refused or timed out (a Node or undici error code). Not a refusal such as
 * AccessDenied or NoSuchBucket, nor a client-side mistake without a code.
 */
export function isTransientStorageError(error: unknown): boolean {
  for (let cause = error, depth = 0; depth < 4 && isObject(cause); depth += 1) {
    const status = (cause as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status !== undefined) return TRANSIENT_STATUSES.has(status);
    const { code, name } = cause as { code?: unknown; name?: unknown };
    if (typeof code === "string" && /^(E[A-Z]+|UND_ERR_\w+|ClientTimeout)$/.test(code)) return true;
    if (name === "TimeoutError") return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

export interface RetryOptions {
  /** Epoch ms now; the barrier's clock. */
  now: () => number;
  /** No attempt starts after this (epoch ms); the first always does. */
  giveUpAtMs: () => number;
  signal?: AbortSignal;
  /** Each transient failure that is retried. */
  onRetry?: (error: unknown) => void;
  /** Which failures may pass a moment later; isTransientStorageError by default. */
  isTransient?: (error: unknown) => boolean;
}

const FIRST_BACKOFF_MS = 100;
const MOST_BACKOFF_MS = 2_000;

/**
 * `attempt` until it succeeds, fails otherwise than transiently, or the next try would start
 * after giveUpAtMs; then its last error. Back-off doubles from 100 ms to 2 s, each wait drawn
 * in [half, whole) so shards that failed together do not retry together.
 */
export async function retryTransient<T>(
  attempt: () => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  for (let failures = 0; ; failures += 1) {
    try {
      return await attempt();
    } catch (error) {
      const ceilingMs = Math.min(MOST_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** failures);
      const waitMs = ceilingMs * (0.5 + Math.random() / 2);
      const lastChance = options.now() + waitMs > options.giveUpAtMs();
      const isTransient = options.isTransient ?? isTransientStorageError;
      if (!isTransient(error) || lastChance || options.signal?.aborted) throw error;
      options.onRetry?.(error);
      await sleep(waitMs, options.signal);
    }
  }
}

/**
 * The same store, each call retried (retryTransient). A create-only write whose earlier attempt
 * got no answer may have landed: a 412 then is this shard's own object when it holds the same
 * bytes (the barrier's markers carry a random claim id), not another shard's.
 */
export function retryingMarkers(markers: MarkerStore, options: RetryOptions): MarkerStore {
  const retry = <T>(attempt: () => Promise<T>) => retryTransient(attempt, options);
  return {
    async create(name, body) {
      let failed = false;
      const outcome = await retryTransient(() => markers.create(name, body), {
        ...options,
        onRetry: (error) => {
          failed = true;
          options.onRetry?.(error);
        },
      });
      if (outcome.created || !failed) return outcome;
      const found = await retry(() => markers.get(name));
      const ours = found !== null && Buffer.from(found).toString("utf8") === body;
      return { ...outcome, created: ours };
    },
    put: (name, body) => retry(() => markers.put(name, body)),
    get: (name, limitBytes) => retry(() => markers.get(name, limitBytes)),
    download: (name, path, limitBytes) => retry(() => markers.download(name, path, limitBytes)),
    list: (under) => retry(() => markers.list(under)),
    remove: (names) => retry(() => markers.remove(names)),
    serverDate: () => retry(() => markers.serverDate()),
    where: (name) => markers.where(name),
  };
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
