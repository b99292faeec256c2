import { describe, expect, it } from "vitest";
import {
  deleteResultXml,
  errorXml,
  parseCompleteMultipartUpload,
  parseDeleteRequest,
} from "./s3-xml.ts";

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

describe("parseCompleteMultipartUpload", () => {
  const NAMESPACE = 'xmlns="http://s3.amazonaws.com/doc/2006-03-01/"';

  it.each<[string, string, { partNumber: number; etag: string }[]]>([
    [
      "the SDK's form",
      `<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUpload ${NAMESPACE}><Part><ETag>"aa"</ETag><PartNumber>1</PartNumber></Part><Part><ETag>"bb"</ETag><PartNumber>2</PartNumber></Part></CompleteMultipartUpload>`,
      [
        { partNumber: 1, etag: '"aa"' },
        { partNumber: 2, etag: '"bb"' },
      ],
    ],
    [
      "escaped quotes, whitespace, checksums and the number first",
      `<CompleteMultipartUpload>\n  <Part>\n    <PartNumber> 7 </PartNumber>\n    <ChecksumCRC32>AAAAAA==</ChecksumCRC32>\n    <ETag>&quot;cc&quot;</ETag>\n  </Part>\n</CompleteMultipartUpload>`,
      [{ partNumber: 7, etag: '"cc"' }],
    ],
    [
      "ETags without quotes, in any order (checked later)",
      "<CompleteMultipartUpload><Part><PartNumber>3</PartNumber><ETag>dd</ETag></Part><Part><PartNumber>1</PartNumber><ETag>ee</ETag></Part></CompleteMultipartUpload>",
      [
        { partNumber: 3, etag: "dd" },
        { partNumber: 1, etag: "ee" },
      ],
    ],
  ])("reads %s", (_name, xml, parts) => {
    expect(parseCompleteMultipartUpload(xml)).toEqual(parts);
  });

  it.each([
    ["another document", "<Delete><Object><Key>k</Key></Object></Delete>", "MalformedXML"],
    ["no parts", "<CompleteMultipartUpload></CompleteMultipartUpload>", "MalformedXML"],
    ["an empty document", "<CompleteMultipartUpload/>", "MalformedXML"],
    [
      "a part without an ETag",
      "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber></Part></CompleteMultipartUpload>",
      "MalformedXML",
    ],
    [
      "a part number that is not a number",
      "<CompleteMultipartUpload><Part><PartNumber>one</PartNumber><ETag>x</ETag></Part></CompleteMultipartUpload>",
      "MalformedXML",
    ],
    [
      "part number 0",
      "<CompleteMultipartUpload><Part><PartNumber>0</PartNumber><ETag>x</ETag></Part></CompleteMultipartUpload>",
      "InvalidArgument",
    ],
    [
      "part number 10001",
      "<CompleteMultipartUpload><Part><PartNumber>10001</PartNumber><ETag>x</ETag></Part></CompleteMultipartUpload>",
      "InvalidArgument",
    ],
  ])("refuses %s with %s", (_name, xml, code) => {
    expect(() => parseCompleteMultipartUpload(xml)).toThrow(expect.objectContaining({ code }));
  });
});
