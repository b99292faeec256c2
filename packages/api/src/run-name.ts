/**
 * A run's name in the library, one rule wherever a name is given: a new run's (`taillab run
 * --name`, the app's start), a rename, a spec's `name`.
 */
export const RUN_NAME_MAX_LENGTH = 200;

/** Why a name (trimmed) cannot be a run's, in English, or null. */
export function runNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return "cannot be empty";
  if (trimmed.length > RUN_NAME_MAX_LENGTH) {
    return `can be at most ${RUN_NAME_MAX_LENGTH} characters (got ${trimmed.length})`;
  }
  return null;
}
