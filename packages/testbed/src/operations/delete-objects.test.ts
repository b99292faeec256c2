import { describe, expect, it } from "vitest";
import { deleteResultXml, parseDeleteRequest } from "./delete-objects.ts";

describe("parseDeleteRequest", () => {
  const NAMESPACE = 'xmlns="http://s3.amazonaws.com/doc/2006-03-01/"';

  it.each<[string, string, { quiet: boolean; keys: string[] }]>([
    [
      "the SDK's shape",
      `<?xml version="1.0" encoding="UTF-8"?><Delete ${NAMESPACE}><Object><Key>a</Key></Object><Object><Key>b/c</Key></Object></Delete>`,
      { quiet: false, keys: ["a", "b/c"] },
    ],
    [
      "quiet, with whitespace and a version id",
      `<Delete>\n  <Quiet> true </Quiet>\n  <Object>\n    <Key>k</Key>\n    <VersionId>v1</VersionId>\n  </Object>\n</Delete>`,
      { quiet: true, keys: ["k"] },
    ],
    [
      "quiet false",
      "<Delete><Quiet>false</Quiet><Object><Key>k</Key></Object></Delete>",
      { quiet: false, keys: ["k"] },
    ],
    [
      "escaped keys",
      "<Delete><Object><Key>a &amp; &lt;b&gt; &#xD;</Key></Object></Delete>",
      { quiet: false, keys: ["a & <b> \r"] },
    ],
    ["an empty key", "<Delete><Object><Key></Key></Object></Delete>", { quiet: false, keys: [""] }],
  ])("reads %s", (_name, xml, expected) => {
    expect(parseDeleteRequest(xml)).toEqual(expected);
  });

  it.each([
    ["no Delete element", "<Remove><Object><Key>k</Key></Object></Remove>"],
    ["not XML", "delete everything"],
    ["no objects", "<Delete></Delete>"],
    ["an object without a key", "<Delete><Object><VersionId>1</VersionId></Object></Delete>"],
    ["over 1000 objects", `<Delete>${"<Object><Key>k</Key></Object>".repeat(1001)}</Delete>`],
  ])("refuses %s with MalformedXML", (_name, xml) => {
    expect(() => parseDeleteRequest(xml)).toThrow(
      expect.objectContaining({ code: "MalformedXML" }),
    );
  });
});

describe("deleteResultXml", () => {
  it("lists deleted keys, then failures", () => {
    expect(
      deleteResultXml(["a&b"], [{ key: "c", code: "KeyTooLongError", message: "long" }]),
    ).toContain(
      "<Deleted><Key>a&amp;b</Key></Deleted><Error><Key>c</Key><Code>KeyTooLongError</Code><Message>long</Message></Error>",
    );
  });
});
