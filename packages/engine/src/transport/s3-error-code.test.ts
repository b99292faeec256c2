import { describe, expect, it } from "vitest";
import { errorCodeFromException, errorCodeFromStatus, errorCodeFromXml } from "./s3-error-code.ts";

describe("errorCodeFromXml", () => {
  it.each([
    [
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>x</Message></Error>',
      "NoSuchKey",
    ],
    ["<Error>\n  <Code> SlowDown </Code>\n</Error>", "SlowDown"],
    ["<Error><Message>no code</Message></Error>", null],
    ["<html><body>502 Bad Gateway</body></html>", null],
    ["", null],
  ])("%j → %j", (body, code) => {
    expect(errorCodeFromXml(body)).toBe(code);
  });
});

describe("errorCodeFromStatus", () => {
  it.each([
    [403, "Forbidden"],
    [404, "NotFound"],
    [412, "PreconditionFailed"],
    [503, "HTTP503"],
    [599, "HTTP599"],
  ])("%i → %s", (status, code) => {
    expect(errorCodeFromStatus(status)).toBe(code);
  });
});

describe("errorCodeFromException", () => {
  const withCode = (code: string) => Object.assign(new Error("boom"), { code });
  it.each([
    ["a Node system error", withCode("ECONNREFUSED"), "ECONNREFUSED"],
    ["an undici error", withCode("UND_ERR_SOCKET"), "UND_ERR_SOCKET"],
    [
      "happy-eyeballs AggregateError",
      new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")]),
      "ECONNREFUSED",
    ],
    ["a wrapped cause", new Error("outer", { cause: withCode("ENOTFOUND") }), "ENOTFOUND"],
    ["a named error", new TypeError("bad"), "TypeError"],
    ["a plain Error", new Error("bad"), "Error"],
    ["a non-error", "string thrown", "Error"],
  ])("%s", (_name, error, code) => {
    expect(errorCodeFromException(error)).toBe(code);
  });
});
