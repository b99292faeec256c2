import {
  coded,
  BUILTIN_PROFILE_NAMES,
  BUILTIN_PROFILES,
  isBuiltinProfileName,
  type BuiltinProfileName,
  type TestbedSetupInput,
} from "@taillab/api";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "./field.tsx";
import { saidAbout, type Said } from "./said.ts";
import { useLatencyProfiles, type LatencyProfileInfo } from "./latency-profiles-store.ts";

export interface TestbedSetupValues {
  replicas: string;
  /** A profile name, or a custom profile object as JSON (kept as it was loaded). */
  profile: string;
  seed: string;
}
export type TestbedSetupField = keyof TestbedSetupValues;
type TestbedProfileInput = NonNullable<TestbedSetupInput["profile"]>;

// Until the backend answers (or without one), the profiles this build knows.
const FALLBACK_PROFILES: LatencyProfileInfo[] = BUILTIN_PROFILE_NAMES.map((name) => ({
  name,
  summary: BUILTIN_PROFILES[name].description ?? "",
}));

/** The z-score of the 99th percentile: a lognormal's p99 is its median × e^(2.326 σ). */
const Z_P99 = 2.326;

/** The figures a built-in profile's summary quotes, read from the profile itself. */
export function profileSummaryFigures(name: BuiltinProfileName): Record<string, number> {
  const profile = BUILTIN_PROFILES[name];
  const service = profile.serviceTime;
  const lognormal: Record<string, number> =
    service.kind === "lognormal"
      ? {
          medianMs: service.medianMs,
          p99Ms: Math.round(service.medianMs * Math.exp(Z_P99 * service.sigma)),
        }
      : {};
  return {
    ...lognormal,
    ...(profile.stalls
      ? {
          stallPercent: profile.stalls.probability * 100,
          stallSeconds: profile.stalls.durationMs / 1000,
        }
      : {}),
    ...(profile.queue ? { slots: profile.queue.slots } : {}),
    ...(profile.noisyNeighbour
      ? {
          replica: profile.noisyNeighbour.replica,
          factor: profile.noisyNeighbour.factor,
          forSeconds: profile.noisyNeighbour.forMs / 1000,
          everySeconds: profile.noisyNeighbour.everyMs / 1000,
        }
      : {}),
  };
}

/**
 * The embedded testbed's set-up: replicas, latency profile, seed. Used by a testbed endpoint
 * and, to override it for one experiment, by the experiment builder (`inherit` then names the
 * endpoint's values and an empty field means "as the endpoint").
 */
export function TestbedSetupFields({
  values,
  errors,
  onChange,
  testIdPrefix,
  inherit,
}: {
  values: TestbedSetupValues;
  errors: Partial<Record<TestbedSetupField, string>>;
  onChange: (field: TestbedSetupField, value: string) => void;
  testIdPrefix: string;
  inherit?: TestbedSetupValues;
}) {
  const { t } = useTranslation("common");
  const loaded = useLatencyProfiles((state) => state.profiles);
  const load = useLatencyProfiles((state) => state.load);
  useEffect(() => {
    void load();
  }, [load]);

  const profiles = loaded.length > 0 ? loaded : FALLBACK_PROFILES;
  const chosen = profiles.find((profile) => profile.name === values.profile);
  const isCustom = values.profile !== "" && !chosen;
  return (
    <div className="grid-3">
      <Field label={t("testbed.replicas")} error={errors.replicas} hint={t("testbed.replicasHint")}>
        <input
          type="number"
          min={1}
          max={16}
          data-testid={`${testIdPrefix}-replicas`}
          value={values.replicas}
          placeholder={inherit?.replicas}
          onChange={(event) => onChange("replicas", event.target.value)}
        />
      </Field>
      <Field
        label={t("testbed.profile")}
        error={errors.profile}
        hint={
          chosen && isBuiltinProfileName(chosen.name)
            ? t(`testbed.profileSummaries.${chosen.name}`, profileSummaryFigures(chosen.name))
            : undefined
        }
      >
        <select
          data-testid={`${testIdPrefix}-profile`}
          value={values.profile}
          onChange={(event) => onChange("profile", event.target.value)}
        >
          {inherit ? (
            <option value="">
              {t("testbed.inherit", {
                value: isCustomProfile(inherit.profile)
                  ? t("testbed.customProfile")
                  : inherit.profile,
              })}
            </option>
          ) : null}
          {profiles.map((profile) => (
            <option key={profile.name} value={profile.name}>
              {profile.name}
            </option>
          ))}
          {isCustom ? <option value={values.profile}>{t("testbed.customProfile")}</option> : null}
        </select>
      </Field>
      <Field label={t("testbed.seed")} error={errors.seed} hint={t("testbed.seedHint")}>
        <input
          type="number"
          min={0}
          data-testid={`${testIdPrefix}-seed`}
          value={values.seed}
          placeholder={inherit?.seed}
          onChange={(event) => onChange("seed", event.target.value)}
        />
      </Field>
    </div>
  );
}

/** A custom profile's text is its JSON: too long to show, so it is named "custom profile". */
export function isCustomProfile(text: string): boolean {
  return text.startsWith("{");
}

/**
 * An error about a testbed's profile (`testbed.profile.queue.slots`, or the setup's path in a
 * call), naming the field inside a custom profile: its box shows only "custom profile".
 */
export function profileErrorSaid(path: string, error: Said): Said {
  const inside = /\bprofile\.(.+)$/.exec(path)?.[1];
  return inside
    ? saidAbout(error, (problem) => coded("profileField", { field: inside, problem }))
    : error;
}

/** A stored testbed profile (a name or an object) as the select's value, and back. */
export function profileToText(profile: unknown): string {
  if (profile === undefined || profile === null) return "";
  return typeof profile === "string" ? profile : JSON.stringify(profile);
}

export function textToProfile(text: string): TestbedProfileInput {
  // The backend validates the name or the object and names what is wrong with it.
  if (!isCustomProfile(text)) return text as TestbedProfileInput;
  try {
    return JSON.parse(text) as TestbedProfileInput;
  } catch {
    return text as TestbedProfileInput;
  }
}
