import { describe, expect, it } from "vitest";
import {
  errorCodeFromException,
  errorCodeFromStatus,
  errorCodeFromSuccessBody,
  errorCodeFromXml,
  partialFailureCode,
} from "./s3-error-code.ts";

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
      "undici's headers timer (the request timeout)",
      withCode("UND_ERR_HEADERS_TIMEOUT"),
      "ClientTimeout",
    ],
    [
      "undici's body timer (the request timeout)",
      withCode("UND_ERR_BODY_TIMEOUT"),
      "ClientTimeout",
    ],
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

describe("errorCodeFromSuccessBody", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const errorDocument =
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SlowDown</Code><Message>m</Message></Error>';
  it.each([
    ["an error document", errorDocument, false, "SlowDown"],
    ["an error document with a trailing newline", `${errorDocument}\n`, false, "SlowDown"],
    [
      "an error document without a Code",
      "<Error><Message>m</Message></Error>",
      false,
      "InternalError",
    ],
    ["a success document", "<CopyObjectResult><ETag>e</ETag></CopyObjectResult>", true, null],
    [
      "a listing with an <Error> key",
      "<ListBucketResult><Contents><Key>&lt;Error&gt;</Key></Contents></ListBucketResult>",
      false,
      null,
    ],
    [
      "DeleteObjects per-key errors",
      "<DeleteResult><Error><Key>k</Key><Code>AccessDenied</Code></Error></DeleteResult>",
      false,
      null,
    ],
    ["an empty body where one is due", "", true, "InternalError"],
    ["an empty body where none is due", "", false, null],
  ])("%s", (_name, body, emptyIsError, code) => {
    expect(errorCodeFromSuccessBody(bytes(body), emptyIsError)).toBe(code);
  });
});

describe("partialFailureCode", () => {
  it.each([
    [[], null],
    [[{ code: "AccessDenied" }, { code: "AccessDenied" }], "PartialFailure:AccessDenied"],
    [
      [{ code: "InternalError" }, { code: "AccessDenied" }, { code: "InternalError" }],
      "PartialFailure:AccessDenied,InternalError",
    ],
  ])("%j → %s: the keys' own codes, each once", (keyErrors, code) => {
    expect(partialFailureCode(keyErrors)).toBe(code);
  });
});
