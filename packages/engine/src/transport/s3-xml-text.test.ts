import { describe, expect, it } from "vitest";
import { xmlElementText, xmlElements } from "./s3-xml-text.ts";

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
