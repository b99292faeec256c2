import type { IncomingHttpHeaders } from "node:http";

/** A request header as one string; for the rare header sent twice, its first value. */
export function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
