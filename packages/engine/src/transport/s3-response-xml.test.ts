import { describe, expect, it } from "vitest";
import {
  countListedBuckets,
  parseDeleteErrors,
  parseListObjectsPage,
  parseTextField,
} from "./s3-response-xml.ts";

describe("parseListObjectsPage", () => {
  it.each([
    {
      name: "a truncated page",
      xml: "<ListBucketResult><KeyCount>10</KeyCount><IsTruncated>true</IsTruncated><NextContinuationToken>a+b/c=&amp;</NextContinuationToken></ListBucketResult>",
      page: { keyCount: 10, nextContinuationToken: "a+b/c=&" },
    },
    {
      name: "the last page (a token without IsTruncated is ignored)",
      xml: "<ListBucketResult><KeyCount>5</KeyCount><IsTruncated>false</IsTruncated><NextContinuationToken>x</NextContinuationToken></ListBucketResult>",
      page: { keyCount: 5, nextContinuationToken: null },
    },
    {
      name: "no KeyCount: entries are counted",
      xml: "<ListBucketResult><Contents><Key>a</Key></Contents><Contents><Key>b</Key></Contents><CommonPrefixes><Prefix>p/</Prefix></CommonPrefixes></ListBucketResult>",
      page: { keyCount: 3, nextContinuationToken: null },
    },
    {
      name: "a key that reads like an error element",
      xml: "<ListBucketResult><KeyCount>1</KeyCount><Contents><Key>&lt;Error&gt;</Key></Contents></ListBucketResult>",
      page: { keyCount: 1, nextContinuationToken: null },
    },
    { name: "an empty body", xml: "", page: { keyCount: 0, nextContinuationToken: null } },
  ])("$name", ({ xml, page }) => {
    expect(parseListObjectsPage(xml)).toEqual(page);
  });
});

describe("S3 answer fields", () => {
  it("counts buckets, not the <Buckets> wrapper", () => {
    const xml =
      "<ListAllMyBucketsResult><Owner><ID>o</ID></Owner><Buckets>" +
      "<Bucket><Name>a</Name></Bucket><Bucket><Name>b</Name></Bucket>" +
      "</Buckets></ListAllMyBucketsResult>";
    expect(countListedBuckets(xml)).toBe(2);
    expect(
      countListedBuckets("<ListAllMyBucketsResult><Buckets></Buckets></ListAllMyBucketsResult>"),
    ).toBe(0);
  });

  it("reads the per-key errors of a DeleteObjects answer", () => {
    const xml =
      "<DeleteResult><Deleted><Key>ok</Key></Deleted>" +
      "<Error><Key>a&amp;b</Key><Code>AccessDenied</Code><Message>m</Message></Error>" +
      "<Error><Key>c</Key><Code>InternalError</Code></Error></DeleteResult>";
    expect(parseDeleteErrors(xml)).toEqual([
      { key: "a&b", code: "AccessDenied" },
      { key: "c", code: "InternalError" },
    ]);
    expect(parseDeleteErrors("<DeleteResult></DeleteResult>")).toEqual([]);
  });

  it.each([
    [
      "<InitiateMultipartUploadResult><UploadId>u/1+=</UploadId></InitiateMultipartUploadResult>",
      "UploadId",
      "u/1+=",
    ],
    [
      "<CompleteMultipartUploadResult><ETag>&#34;abc-3&#34;</ETag></CompleteMultipartUploadResult>",
      "ETag",
      '"abc-3"',
    ],
    ["<CompleteMultipartUploadResult><ETag></ETag></CompleteMultipartUploadResult>", "ETag", null],
    ["", "UploadId", null],
  ])("%j: %s → %j", (xml, name, value) => {
    expect(parseTextField(xml, name)).toBe(value);
  });
});
