import type { ApiEnvelope, InvokeApi } from "@taillab/api";

/**
 * Calls as `POST <apiBase><name>` with the input as JSON. In the browser the launch cookie
 * authenticates; other clients (tests) pass an Authorization header. Anything that is not an
 * envelope (host gone, token refused) becomes a failed envelope naming what went wrong.
 */
export function createFetchInvoke(apiBase: URL, headers: Record<string, string> = {}): InvokeApi {
  return async (name, input) => {
    let response: Response;
    try {
      response = await fetch(new URL(encodeURIComponent(name), apiBase), {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: input === undefined ? "" : JSON.stringify(input),
        credentials: "same-origin",
      });
    } catch (error) {
      return failure(
        `TailLab's web host at ${apiBase.origin} cannot be reached (${(error as Error).message}): is it still running?`,
      );
    }
    const text = await response.text();
    if (response.headers.get("content-type")?.startsWith("application/json")) {
      return JSON.parse(text) as ApiEnvelope<unknown>;
    }
    return failure(`TailLab's web host refused "${name}" (${response.status}): ${text}`);
  };
}

function failure(message: string): ApiEnvelope<never> {
  return { ok: false, error: { message } };
}
