import { describe, expect, it } from "vitest";
import { errorXml } from "./s3-xml.ts";

describe("errorXml", () => {
  it("escapes every field", () => {
    expect(
      errorXml({ code: "NoSuchKey", message: "a<b", resource: "/b/k&", requestId: "R1" }),
    ).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>a&lt;b</Message>' +
        "<Resource>/b/k&amp;</Resource><RequestId>R1</RequestId></Error>",
    );
  });
});
