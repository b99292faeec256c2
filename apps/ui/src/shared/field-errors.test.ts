import { AppError, coded, fieldError } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { fieldErrorsOf, mapFieldErrors, placeFailure } from "./field-errors.ts";
import type { Said } from "./said.ts";

describe("fieldErrorsOf", () => {
  it("reads the fields of an AppError; other failures have none", () => {
    const fields = [{ field: "bucket", message: "is required" }];
    expect(fieldErrorsOf(new AppError({ message: "bad", fields }))).toEqual(fields);
    expect(fieldErrorsOf(new Error("plain"))).toEqual([]);
    expect(fieldErrorsOf(null)).toEqual([]);
  });
});

describe("mapFieldErrors", () => {
  it("places what it can and joins several errors at one field", () => {
    const mapped = mapFieldErrors(
      [
        { field: "a", message: "one" },
        { field: "a[1]", message: "two" },
        { field: "z", message: "elsewhere" },
      ],
      (error) => (error.field.startsWith("a") ? { field: "a", said: error } : null),
    );
    expect(mapped).toEqual({ fields: { a: "one; two" }, other: ["z: elsewhere"] });
  });

  it("says coded errors in the UI's language, and uncoded ones as the backend wrote them", () => {
    const say = (said: Said) => (said.code ? `[${said.code}]` : said.message);
    const mapped = mapFieldErrors(
      [
        fieldError("a", coded("required")),
        { field: "a", message: "plain English" },
        fieldError("z", coded("chooseMode")),
      ],
      (error) => (error.field === "a" ? { field: "a", said: error } : null),
      say,
    );
    expect(mapped).toEqual({
      fields: { a: "[required]; plain English" },
      other: ["z: [chooseMode]"],
    });
  });
});

describe("placeFailure", () => {
  const failure = new Error("call failed");
  it.each([
    ["every reason at a field", { fields: { a: "bad" }, other: [] }, null, true],
    ["some at no field", { fields: { a: "bad" }, other: ["z: elsewhere"] }, "z: elsewhere", false],
    ["none at a field", { fields: {}, other: ["y: one", "z: two"] }, "y: one\nz: two", false],
    ["no field errors at all", { fields: {}, other: [] }, "call failed", false],
  ])("%s", (_name, mapped, banner, allAtFields) => {
    expect(placeFailure(mapped, failure)).toEqual({ banner, allAtFields });
  });
});
