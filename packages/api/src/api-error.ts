import { z } from "zod";
import { FieldErrorSchema } from "./field-error.ts";

/** How a failed call crosses a process boundary; the UI rebuilds it as an `AppError`. */
export const ApiErrorSchema = z.object({
  message: z.string(),
  /** Set when the input was wrong: one entry per field, so a form can mark each one. */
  fields: z.array(FieldErrorSchema).optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

export type ApiEnvelope<T> = { ok: true; result: T } | { ok: false; error: ApiError };
