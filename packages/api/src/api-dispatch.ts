import { API_METHODS } from "./app-api.ts";
import { isApiMethodName } from "./api-method-names.ts";
import type { ApiEnvelope, ApiError } from "./api-error.ts";
import type { TailLabService } from "./app-api.ts";
import type { z } from "zod";
import { formatFieldErrors, parseFields, type FieldError } from "./field-error.ts";

/**
 * The host's end of a bridge, the same for IPC and HTTP: validate a call's input with its schema
 * and turn any failure into an envelope, since an Error's fields do not cross a process boundary.
 */

/** Host side: validate the input of call `name`, run it on the service, answer an envelope. */
export async function dispatchApiCall(
  service: TailLabService,
  name: string,
  input: unknown,
): Promise<ApiEnvelope<unknown>> {
  if (!isApiMethodName(name)) return failure({ message: `unknown call "${name}"` });
  const parsed = parseFields(API_METHODS[name].input as z.ZodType<unknown>, input);
  if (!parsed.ok) {
    return failure({ message: formatFieldErrors(parsed.errors), fields: parsed.errors });
  }
  try {
    const call = service[name] as (value: unknown) => Promise<unknown>;
    return { ok: true, result: await call.call(service, parsed.value) };
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

function failure(error: ApiError): ApiEnvelope<never> {
  return { ok: false, error };
}
