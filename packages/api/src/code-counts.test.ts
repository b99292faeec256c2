import { describe, expect, it } from "vitest";
import { codeCountsSchema } from "./code-counts.ts";

describe("codeCountsSchema", () => {
  it("keeps every code an own key, __proto__ included", () => {
    const stored = '{"__proto__":3,"constructor":2,"toString":1,"valueOf":4}';
    const counts = codeCountsSchema(1).parse(JSON.parse(stored));
    expect(Object.getPrototypeOf(counts)).toBeNull();
    expect(Object.entries(counts)).toEqual([
      ["__proto__", 3],
      ["constructor", 2],
      ["toString", 1],
      ["valueOf", 4],
    ]);
    expect(JSON.stringify(counts)).toBe(stored);
  });

  it.each([
    [{ SlowDown: 0 }, 1, "SlowDown"],
    [{ SlowDown: 1.5 }, 0, "SlowDown"],
    [{ SlowDown: "2" }, 0, "SlowDown"],
  ])("refuses %j (min %d), naming the code", (input, min, path) => {
    const parsed = codeCountsSchema(min as 0 | 1).safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual([path]);
  });

  it.each([[null], [[1, 2]], ["counts"]])("refuses %j", (input) => {
    expect(codeCountsSchema(1).safeParse(input).success).toBe(false);
  });
});
