import type { Page } from "@playwright/test";
import type { ApiEnvelope, ApiMethodName, TailLabApi } from "@taillab/api";
import "./taillab-window.ts";

type Result<N extends ApiMethodName> = Awaited<ReturnType<TailLabApi[N]>>;

/** Calls the backend through the page's own `window.taillab`, as the UI does; throws on failure. */
export async function callApi<N extends ApiMethodName>(
  page: Page,
  name: N,
  input?: unknown,
): Promise<Result<N>> {
  const answer = (await page.evaluate(
    ([call, value]) => {
      const bridge = window.taillab as unknown as Record<string, (input: unknown) => unknown>;
      return bridge[call]!(value);
    },
    [name, input] as const,
  )) as ApiEnvelope<Result<N>>;
  if (!answer.ok) throw new Error(`${name}: ${answer.error.message}`);
  return answer.result;
}
