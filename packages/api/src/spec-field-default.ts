import type { z } from "zod";
import { RunSpecSchema } from "./run-spec.ts";

/**
 * The value a run spec field takes when it is not written, as validation applies it
 * (`"hedge.budgetPercent"` → 10, `"requestTimeoutMs"` → 60000); `"endpoints.region"` is each
 * endpoint's. Undefined when the field has no default: it is required, or absent means "not
 * used". The CLI's help reads its defaults here, so the help cannot state another.
 */
export function runSpecFieldDefault(field: string): unknown {
  const leaf = field.split(".").reduce<z.ZodType | undefined>((schema, key) => {
    const shape = schema && objectShape(schema);
    return shape?.[key];
  }, RunSpecSchema);
  if (leaf === undefined) throw new Error(`the run spec has no field "${field}"`);
  const parsed = leaf.safeParse(undefined);
  return parsed.success ? parsed.data : undefined;
}

/** The fields of an object schema, through the optional, default, array and pipe around it. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const def = schema._zod.def as {
    type: string;
    shape?: Record<string, z.ZodType>;
    innerType?: z.ZodType;
    element?: z.ZodType;
    in?: z.ZodType;
  };
  if (def.shape) return def.shape;
  const inner = def.innerType ?? def.element ?? def.in;
  return inner && objectShape(inner);
}
