import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  MIX_WORDS,
  mixPlanningOf,
  OBJECT_WRITES,
  OPERATION_ENTRIES,
  OperationSchema,
  operationLabels,
  operationOfMixWord,
  PART_OPERATIONS,
} from "./registry.ts";

describe("the operation registry", () => {
  it("has a module for every operation, under its own name", () => {
    for (const op of OperationSchema.options) {
      expect(OPERATION_ENTRIES[op].name).toBe(op);
    }
    expect(Object.keys(OPERATION_ENTRIES).sort()).toEqual([...OperationSchema.options].sort());
  });

  it("gives every operation every part, in both languages", () => {
    for (const op of OperationSchema.options) {
      const entry = OPERATION_ENTRIES[op];
      expect(entry.s3benchWord, op).not.toBe("");
      for (const language of ["en", "zh"] as const) {
        expect(entry.labels[language].app, `${op} ${language}`).not.toBe("");
        expect(entry.labels[language].report, `${op} ${language}`).not.toBe("");
      }
    }
  });

  it("says no English word in a Chinese label but S3's own verb", () => {
    for (const op of OperationSchema.options) {
      const { app, report } = OPERATION_ENTRIES[op].labels.zh;
      for (const label of [app, report]) {
        expect(label.replace(/^[A-Z]+\b/u, ""), `${op}: ${label}`).not.toMatch(/[A-Za-z]/u);
      }
    }
  });

  it("keeps one module per operation beside the registry", () => {
    const modules = readdirSync(new URL(".", import.meta.url)).filter(
      (file) => !file.endsWith(".test.ts") && !["registry.ts", "operation-entry.ts"].includes(file),
    );
    expect(modules).toHaveLength(OperationSchema.options.length);
  });

  it("hands a catalogue every operation's label", () => {
    expect(operationLabels("zh", "report").COPY).toBe("COPY(复制)");
    expect(Object.keys(operationLabels("en", "app"))).toEqual(OperationSchema.options);
  });

  it("names each operation a mix can draw by one word of its own, and back", () => {
    expect(new Set(MIX_WORDS).size).toBe(MIX_WORDS.length);
    for (const word of MIX_WORDS)
      expect(OPERATION_ENTRIES[operationOfMixWord(word)].mixWord).toBe(word);
    expect(operationOfMixWord("delete-objects")).toBe("DELETE_OBJECTS");
    expect(MIX_WORDS).not.toContain("upload-part");
  });

  it("knows the writes that leave an object at their key", () => {
    expect([...OBJECT_WRITES].sort()).toEqual(["COPY", "MULTIPART", "PUT"]);
  });

  it("knows what a run may leave besides objects: buckets, open uploads", () => {
    const leaving = OperationSchema.options.filter((op) => OPERATION_ENTRIES[op].leavesBehind);
    expect(leaving.map((op) => [op, OPERATION_ENTRIES[op].leavesBehind])).toEqual([
      ["MULTIPART", "uploads"],
      ["CREATE_BUCKET", "buckets"],
      ["DELETE_BUCKET", "buckets"],
    ]);
  });

  it("plans what a mix can draw, and only that", () => {
    for (const op of OperationSchema.options) {
      const { mixWord, mixPlanning } = OPERATION_ENTRIES[op];
      expect(mixPlanning === null, op).toBe(mixWord === null);
    }
    expect(mixPlanningOf("copy")).toMatchObject({ source: "prepared", key: "new" });
  });

  it("sizes a planned request only by an object it names", () => {
    for (const word of MIX_WORDS) {
      const { sizedBy, key, source } = mixPlanningOf(word);
      if (sizedBy !== null) expect({ key, source }[sizedBy], word).not.toBeNull();
    }
  });

  it("knows the operations sent as parts of another", () => {
    expect([...PART_OPERATIONS]).toEqual(["UPLOAD_PART"]);
  });
});
