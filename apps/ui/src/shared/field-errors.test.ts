import { AppError } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { fieldErrorsOf, mapFieldErrors } from "./field-errors.ts";

describe("fieldErrorsOf", () => {
  it("reads the fields of an AppError, or of any error shaped like one", () => {
    const fields = [{ field: "bucket", message: "is required" }];
    expect(fieldErrorsOf(new AppError({ message: "bad", fields }))).toEqual(fields);
    // The host's bridge bundles its own AppError class.
    const foreign = Object.assign(new Error("bad"), { name: "AppError", fields });
    expect(fieldErrorsOf(foreign)).toEqual(fields);
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
      (error) => (error.field.startsWith("a") ? { field: "a", message: error.message } : null),
    );
    expect(mapped).toEqual({ fields: { a: "one; two" }, other: ["z: elsewhere"] });
  });
});
