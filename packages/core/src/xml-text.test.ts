import { describe, expect, it } from "vitest";
import { escapeXml, unescapeXml } from "./xml-text.ts";

describe("escapeXml and unescapeXml", () => {
  it.each([
    ["plain", "plain"],
    [`a&b<c>d"e'f`, "a&amp;b&lt;c&gt;d&quot;e&apos;f"],
    ["&amp;", "&amp;amp;"],
    ["ü 😀", "ü 😀"],
    ["key", "key"],
    [`a&b<c>"d"'e'`, "a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;"],
  ])("%j ⇄ %j", (text, escaped) => {
    expect(escapeXml(text)).toBe(escaped);
    expect(unescapeXml(escaped)).toBe(text);
  });

  it.each([
    ["&#13;&#x0A;&#X41;", "\r\nA"],
    ["&#128512;", "😀"],
    ["&unknown; & alone", "&unknown; & alone"],
    ["&#x110000;", "&#x110000;"],
    ["plain", "plain"],
    ["a&amp;b &lt;c&gt; &quot;d&quot; &apos;e&apos;", `a&b <c> "d" 'e'`],
    ["&#34;etag-3&#34;", '"etag-3"'],
    ["&#x22;&#xE9;", '"é'],
    ["&unknown; &#x110000; & alone", "&unknown; &#x110000; & alone"],
  ])("reads %j as %j", (escaped, text) => {
    expect(unescapeXml(escaped)).toBe(text);
  });
});
