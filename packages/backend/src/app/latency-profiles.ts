import { BUILTIN_PROFILE_NAMES, BUILTIN_PROFILES } from "@taillab/api";

/** The testbed's built-in latency profiles, each with its description as a sentence. */
export function listLatencyProfiles(): { name: string; summary: string }[] {
  return BUILTIN_PROFILE_NAMES.map((name) => {
    const description = BUILTIN_PROFILES[name].description ?? name;
    return { name, summary: `${description.charAt(0).toUpperCase()}${description.slice(1)}.` };
  });
}
