import { describe, expect, it } from "vitest";
import { parseCompleteMultipartUpload } from "./complete-multipart-upload.ts";

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
