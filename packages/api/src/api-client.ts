import { API_METHOD_NAMES, type ApiMethodName } from "./api-method-names.ts";
import type { ApiEnvelope, ApiError } from "./api-error.ts";
import type { RunEventListener, TailLabApi, TailLabBridge } from "./app-api.ts";
import type { FieldError } from "./field-error.ts";

/**
 * The UI's end of a host's bridge, the same for IPC and HTTP. Errors cross as envelopes because
 * neither contextBridge nor JSON carries an Error's fields; this side turns them back into
 * results or AppErrors.
 */

/** A failed call, as the UI sees it: a message and, for bad input, the fields at fault. */
export class AppError extends Error {
  readonly fields: FieldError[];

  constructor(error: ApiError) {
    super(error.message);
    this.name = "AppError";
    this.fields = error.fields ?? [];
  }
}

export type InvokeApi = (name: string, input: unknown) => Promise<ApiEnvelope<unknown>>;
export type SubscribeRunEvents = (listener: RunEventListener) => () => void;

/** What a preload or browser bridge exposes as `window.taillab`: one function per call. */
export function createBridge(invoke: InvokeApi, subscribe: SubscribeRunEvents): TailLabBridge {
  const calls = Object.fromEntries(
    API_METHOD_NAMES.map((name) => [name, (input?: unknown) => invoke(name, input)]),
  );
  return { ...calls, onRunEvent: subscribe } as TailLabBridge;
}

/** One function per call answering results, failures thrown as AppError. */
export function createApiClient(invoke: InvokeApi, subscribe: SubscribeRunEvents): TailLabApi {
  const calls = Object.fromEntries(
    API_METHOD_NAMES.map((name) => [
      name,
      async (input?: unknown) => {
        const answer = await invoke(name, input);
        if (!answer.ok) throw new AppError(answer.error);
        return answer.result;
      },
    ]),
  );
  return { ...calls, onRunEvent: subscribe } as TailLabApi;
}

/** The UI's client over `window.taillab`. */
export function clientOfBridge(bridge: TailLabBridge): TailLabApi {
  return createApiClient(
    (name, input) =>
      (bridge[name as ApiMethodName] as (input: unknown) => Promise<ApiEnvelope<unknown>>)(input),
    (listener) => bridge.onRunEvent(listener),
  );
}
