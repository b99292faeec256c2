import {
  API_METHOD_NAMES,
  API_METHODS,
  isApiMethodName,
  type ApiEnvelope,
  type ApiError,
  type RunEventListener,
  type TailLabApi,
  type TailLabService,
} from "./app-api.ts";
import { formatFieldErrors, issueToFieldError, type FieldError } from "./field-error.ts";

/**
 * Both ends of a host's bridge, the same for IPC and HTTP: the host side validates a call's input
 * and turns any failure into an envelope; the UI side turns envelopes back into results or
 * `AppError`s. Errors cross as data because neither IPC nor JSON carries an Error's fields.
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

/** Host side: validate the input of call `name`, run it on the service, answer an envelope. */
export async function dispatchApiCall(
  service: TailLabService,
  name: string,
  input: unknown,
): Promise<ApiEnvelope<unknown>> {
  if (!isApiMethodName(name)) return failure({ message: `unknown call "${name}"` });
  const parsed = API_METHODS[name].input.safeParse(input);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issueToFieldError(issue));
    return failure({ message: formatFieldErrors(fields), fields });
  }
  try {
    const call = service[name] as (value: unknown) => Promise<unknown>;
    return { ok: true, result: await call.call(service, parsed.data) };
  } catch (error) {
    return failure(toApiError(error));
  }
}

/** A thrown error as data: an error with `problems` (the backend's InputError) keeps its fields. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof Error) {
    const problems = (error as { problems?: unknown }).problems;
    if (Array.isArray(problems))
      return { message: error.message, fields: problems as FieldError[] };
    return { message: error.message };
  }
  return { message: String(error) };
}

export type InvokeApi = (name: string, input: unknown) => Promise<ApiEnvelope<unknown>>;
export type SubscribeRunEvents = (listener: RunEventListener) => () => void;

/** UI side (preload or browser bridge): one function per call, failures thrown as AppError. */
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

function failure(error: ApiError): ApiEnvelope<never> {
  return { ok: false, error };
}
