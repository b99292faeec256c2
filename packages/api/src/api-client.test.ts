import { describe, expect, it, vi } from "vitest";
import { AppError, clientOfBridge, createBridge } from "./api-client.ts";
import type { ApiEnvelope } from "./api-error.ts";

describe("bridge and client", () => {
  it("carries each call's input to the host and its result back", async () => {
    const invoke = vi.fn(async (): Promise<ApiEnvelope<unknown>> => ({ ok: true, result: 7 }));
    const client = clientOfBridge(createBridge(invoke, () => () => undefined));
    await expect(client.getRun({ runId: "r1" })).resolves.toBe(7);
    expect(invoke).toHaveBeenCalledExactlyOnceWith("getRun", { runId: "r1" });
  });

  it("rebuilds a failure as an AppError with its fields", async () => {
    const fields = [{ field: "name", message: "is required" }];
    const bridge = createBridge(
      async () => ({ ok: false, error: { message: "name: is required", fields } }),
      () => () => undefined,
    );
    const failure = await clientOfBridge(bridge)
      .removeRun({ runId: "r1" })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).fields).toEqual(fields);
  });
});
