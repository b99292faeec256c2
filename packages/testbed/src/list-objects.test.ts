import { describe, expect, it } from "vitest";
import { compareUtf8, listPage, type ListRequest } from "./list-objects.ts";

const KEYS = ["a", "b/1", "b/2", "b/3", "c", "d/x/1", "d/x/2", "d/y", "e/", "e/1", "f"].sort(
  compareUtf8,
);

function request(overrides: Partial<ListRequest>): ListRequest {
  return { prefix: "", delimiter: "", maxKeys: 1000, after: "", ...overrides };
}

/** Follows lastEntry across pages, as a client following continuation tokens does. */
function listAll(keys: readonly string[], overrides: Partial<ListRequest>): string[][] {
  const pages: string[][] = [];
  let after = overrides.after ?? "";
  for (;;) {
    const page = listPage(keys, request({ ...overrides, after }));
    pages.push([...page.keys, ...page.commonPrefixes.map((prefix) => `${prefix}*`)]);
    if (!page.isTruncated) return pages;
    expect(page.lastEntry).toBeDefined();
    after = page.lastEntry as string;
  }
}

describe("compareUtf8", () => {
  it.each([
    ["a", "b", -1],
    ["a", "a", 0],
    ["ab", "a", 1],
    ["", "a", -1],
    ["A", "a", -1],
    // U+FF21 (fullwidth A) is 3 UTF-8 bytes starting EF; U+1F600 is 4 bytes starting F0.
    ["\uff21", "\u{1f600}", -1],
    ["\u{1f600}", "\uff21", 1],
    ["\ud7ff", "\u{10000}", -1],
    ["\u{10000}", "\u{10001}", -1],
  ])("%j vs %j", (a, b, expected) => {
    expect(Math.sign(compareUtf8(a, b))).toBe(expected);
  });

  it("matches the byte order of the UTF-8 encodings", () => {
    const keys = [
      "z",
      "\u00e9",
      "\uffff",
      "\u{1f600}",
      "\ue000",
      "a/b",
      "a",
      "\u4e2d",
      "\u{10ffff}",
    ];
    const byBytes = [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect([...keys].sort(compareUtf8)).toEqual(byBytes);
  });
});

describe("listPage", () => {
  it.each<[string, Partial<ListRequest>, string[]]>([
    ["everything", {}, KEYS],
    ["by prefix", { prefix: "b/" }, ["b/1", "b/2", "b/3"]],
    ["prefix matching no key", { prefix: "zz" }, []],
    ["start-after", { after: "b/2" }, ["b/3", "c", "d/x/1", "d/x/2", "d/y", "e/", "e/1", "f"]],
    ["start-after before the prefix", { prefix: "d/", after: "a" }, ["d/x/1", "d/x/2", "d/y"]],
    ["start-after past the prefix", { prefix: "b/", after: "c" }, []],
    ["delimiter", { delimiter: "/" }, ["a", "c", "f", "b/*", "d/*", "e/*"]],
    ["delimiter under a prefix", { prefix: "d/", delimiter: "/" }, ["d/y", "d/x/*"]],
    ["a key equal to its common prefix rolls up", { prefix: "e", delimiter: "/" }, ["e/*"]],
    [
      "multi-character delimiter",
      { delimiter: "/x/" },
      KEYS.filter((k) => !k.startsWith("d/x/")).concat("d/x/*"),
    ],
    [
      "common prefixes at or before start-after are skipped",
      { delimiter: "/", after: "b/2" },
      ["c", "f", "d/*", "e/*"],
    ],
    ["max-keys 0 lists nothing", { maxKeys: 0 }, []],
  ])("%s", (_name, overrides, expected) => {
    const page = listPage(KEYS, request(overrides));
    expect([...page.keys, ...page.commonPrefixes.map((prefix) => `${prefix}*`)]).toEqual(expected);
    expect(page.isTruncated).toBe(false);
    expect(page.lastEntry).toBeUndefined();
  });

  it("counts keys and common prefixes against max-keys", () => {
    const page = listPage(KEYS, request({ delimiter: "/", maxKeys: 3 }));
    expect(page).toEqual({
      keys: ["a", "c"],
      commonPrefixes: ["b/"],
      isTruncated: true,
      lastEntry: "c",
    });
  });

  it("is not truncated when the page ends exactly at the last entry", () => {
    const page = listPage(KEYS, request({ prefix: "b/", maxKeys: 3 }));
    expect(page.isTruncated).toBe(false);
  });

  it.each<[string, Partial<ListRequest>, string[][]]>([
    ["keys, 4 per page", { maxKeys: 4 }, [KEYS.slice(0, 4), KEYS.slice(4, 8), KEYS.slice(8)]],
    [
      "pages that end on a common prefix resume after its keys",
      { delimiter: "/", maxKeys: 2 },
      [
        ["a", "b/*"],
        ["c", "d/*"],
        ["f", "e/*"],
      ],
    ],
    ["one entry per page", { prefix: "d/", delimiter: "/", maxKeys: 1 }, [["d/x/*"], ["d/y"]]],
  ])("pages: %s", (_name, overrides, expected) => {
    expect(listAll(KEYS, overrides)).toEqual(expected);
  });

  it("pages through 2500 keys with a delimiter without losing or repeating any", () => {
    const keys: string[] = [];
    for (let i = 0; i < 2500; i++) {
      keys.push(i % 5 === 0 ? `dir${(i / 5) % 50}/${i}` : `file-${String(i).padStart(4, "0")}`);
    }
    keys.sort(compareUtf8);
    const pages = listAll(keys, { delimiter: "/", maxKeys: 300 });
    const entries = pages.flat();
    expect(entries).toHaveLength(2000 + 50);
    expect(new Set(entries).size).toBe(entries.length);
    expect(pages.slice(0, -1).every((page) => page.length === 300)).toBe(true);
  });
});
