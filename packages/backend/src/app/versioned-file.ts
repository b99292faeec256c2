import { formatFieldPath } from "@taillab/api";
import { readFile } from "node:fs/promises";

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}
type SafeParse<T> = { success: true; data: T } | { success: false; error: { issues: Issue[] } };
export interface FileSchema<T> {
  safeParse(value: unknown): SafeParse<T>;
}

/**
 * One of the app's JSON files (endpoints, experiments, secrets): null when it does not exist
 * yet; an error naming the file when it cannot be trusted — a newer schema version is refused
 * rather than misread, and nothing is overwritten by a default.
 */
export async function readVersionedFile<T>(
  path: string,
  schema: FileSchema<T>,
  schemaVersion: number,
): Promise<T | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${(error as Error).message}); fix or remove it`, {
      cause: error,
    });
  }
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === "number" && version > schemaVersion) {
    throw new Error(
      `${path} was written by a newer TailLab (schema ${version}, this one reads ${schemaVersion}); update TailLab`,
    );
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${formatFieldPath(issue.path) || "file"}: ${issue.message}`);
  throw new Error(`${path} does not match its schema: ${problems.join("; ")}`);
}
