import { describe, expect, it } from "vitest";
import type { MarkerStore } from "./bucket-markers.ts";
import { isTransientStorageError, retryingMarkers, retryTransient } from "./storage-retry.ts";

const answered = (status: number, name = "Error") =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
const wrapped = (cause: unknown) => new Error("listing s3://b/p/abort/", { cause });

describe("which failures of the bucket are worth another attempt", () => {
  it.each([
    ["SlowDown (503)", answered(503, "SlowDown"), true],
    ["an internal error (500)", answered(500, "InternalError"), true],
    ["too many requests (429)", answered(429), true],
    ["a reset", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }), true],
    [
      "undici's socket error",
      Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
      true,
    ],
    ["the SDK's timeout", Object.assign(new Error("timed out"), { name: "TimeoutError" }), true],
    [
      "a reset under a store's message",
      wrapped(Object.assign(new Error("x"), { code: "ECONNREFUSED" })),
      true,
    ],
    ["AccessDenied (403)", answered(403, "AccessDenied"), false],
    ["NoSuchBucket (404)", wrapped(answered(404, "NoSuchBucket")), false],
    ["a mistake without a code", new Error("Invalid bucket name"), false],
  ])("%s: %s", (_name, error, transient) => {
    expect(isTransientStorageError(error)).toBe(transient);
  });
});

describe("retrying the barrier's requests", () => {
  const clock = { now: () => Date.now(), giveUpAtMs: () => Date.now() + 600_000 };

  it("tries again after transient failures, and not after a refusal", async () => {
    let calls = 0;
    const value = await retryTransient(async () => {
      calls += 1;
      if (calls < 3) throw answered(503, "SlowDown");
      return "listed";
    }, clock);
    expect({ value, calls }).toEqual({ value: "listed", calls: 3 });

    calls = 0;
    const refused = retryTransient(async () => {
      calls += 1;
      throw answered(403, "AccessDenied");
    }, clock);
    await expect(refused).rejects.toThrow("AccessDenied");
    expect(calls).toBe(1);
  });

  it("stops when the next attempt would start after the time it was given", async () => {
    let calls = 0;
    const failing = retryTransient(
      async () => {
        calls += 1;
        throw answered(503, "SlowDown");
      },
      { now: () => Date.now(), giveUpAtMs: () => 0 },
    );
    await expect(failing).rejects.toThrow("SlowDown");
    expect(calls).toBe(1);
  });

  it("takes a create whose answer was lost for its own when the object holds its bytes", async () => {
    const objects = new Map<string, string>();
    let lostAnswers = 1;
    const store: MarkerStore = {
      async create(name, body) {
        if (objects.has(name)) return { created: false, date: null };
        objects.set(name, body);
        // The write landed; its answer did not.
        if (lostAnswers-- > 0) throw Object.assign(new Error("reset"), { code: "ECONNRESET" });
        return { created: true, date: null };
      },
      put: async () => {},
      get: async (name) => (objects.has(name) ? Buffer.from(objects.get(name)!) : null),
      download: async () => false,
      list: async () => [],
      remove: async () => {},
      serverDate: async () => null,
      where: (name) => name,
    };
    const retrying = retryingMarkers(store, clock);
    expect((await retrying.create("ready/0", '{"claim":"a"}')).created).toBe(true);
    // Another shard's claim of the same index is still refused.
    lostAnswers = 1;
    objects.clear();
    objects.set("ready/1", '{"claim":"other"}');
    expect((await retrying.create("ready/1", '{"claim":"b"}')).created).toBe(false);
  });
});
