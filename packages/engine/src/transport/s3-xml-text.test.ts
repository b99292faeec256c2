import { describe, expect, it } from "vitest";
import { decodeXmlText, escapeXmlText, xmlElementText, xmlElements } from "./s3-xml-text.ts";

describe("decodeXmlText", () => {
  it.each([
    ["plain", "plain"],
    ["a&amp;b &lt;c&gt; &quot;d&quot; &apos;e&apos;", `a&b <c> "d" 'e'`],
    ["&#34;etag-3&#34;", '"etag-3"'],
    ["&#x22;&#xE9;", '"é'],
    ["&unknown; &#x110000; & alone", "&unknown; &#x110000; & alone"],
  ])("%j → %j", (text, decoded) => {
    expect(decodeXmlText(text)).toBe(decoded);
  });
});

describe("escapeXmlText", () => {
  it.each([
    ["key", "key"],
    [`a&b<c>"d"'e'`, "a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;"],
  ])("%j → %j", (text, escaped) => {
    expect(escapeXmlText(text)).toBe(escaped);
    expect(decodeXmlText(escaped)).toBe(text);
  });
});

describe("xmlElements / xmlElementText", () => {
  const xml =
    "<R><Name>b</Name><Contents><Key>a&amp;b</Key></Contents>" +
    "<Contents><Key>c</Key></Contents><Empty></Empty></R>";
  it.each([
    ["Contents", ["<Key>a&amp;b</Key>", "<Key>c</Key>"]],
    ["Key", ["a&amp;b", "c"]],
    ["Missing", []],
  ])("elements %s", (name, inner) => {
    expect(xmlElements(xml, name)).toEqual(inner);
  });
  it.each([
    ["Key", "a&b"],
    ["Name", "b"],
    ["Empty", ""],
    ["Missing", null],
  ])("first %s text", (name, text) => {
    expect(xmlElementText(xml, name)).toBe(text);
  });
});
