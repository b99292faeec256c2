import { useTranslation } from "react-i18next";
import { useNavigation } from "../../app/navigation-store.ts";
import type { SavedEndpoint } from "@taillab/api";
import { Field, FieldGroup } from "../../shared/field.tsx";
import { useEndpointName } from "../endpoints/endpoint-name.ts";
import { useEndpoints } from "../endpoints/endpoints-store.ts";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { useBuilderForm } from "./use-builder.ts";

export function BasicsSection() {
  const { t } = useTranslation("experiments");
  const { t: tEndpoints } = useTranslation("endpoints");
  const { form, errors } = useBuilderForm();
  const setField = useExperimentBuilder((state) => state.setField);
  const endpoints = useEndpoints((state) => state.endpoints);
  const navigate = useNavigation((state) => state.navigate);
  const endpointName = useEndpointName();
  const known = endpoints.some((endpoint) => endpoint.id === form.endpointId);

  return (
    <section className="card form-section-card">
      <h2>{t("basics.title")}</h2>
      <div className="grid-2">
        <Field label={t("basics.name")} error={errors.name}>
          <input
            data-testid="experiment-name"
            value={form.name}
            maxLength={200}
            placeholder={t("builder.untitled")}
            onChange={(event) => setField("name", event.target.value)}
          />
        </Field>
        <Field
          label={t("basics.endpoint")}
          error={errors.endpointId}
          hint={endpoints.length === 0 ? t("basics.noEndpoints") : undefined}
        >
          <span className="input-with-action">
            <select
              data-testid="experiment-endpoint"
              value={form.endpointId}
              onChange={(event) => setField("endpointId", event.target.value)}
            >
              {!known ? (
                <option value={form.endpointId}>{t("basics.chooseEndpoint")}</option>
              ) : null}
              {endpoints.map((endpoint) => (
                <option key={endpoint.id} value={endpoint.id}>
                  {optionLabel(endpointName(endpoint), tEndpoints(`kind.${endpoint.kind}`))}
                </option>
              ))}
            </select>
            {endpoints.length === 0 ? (
              <button type="button" onClick={() => navigate({ view: "endpoints" })}>
                {t("basics.addEndpoint")}
              </button>
            ) : null}
          </span>
        </Field>
      </div>
      <ReplicasField />
      <Field label={t("basics.description")} error={errors.description}>
        <textarea
          data-testid="experiment-description"
          rows={2}
          value={form.description}
          maxLength={2000}
          placeholder={t("basics.descriptionPlaceholder")}
          onChange={(event) => setField("description", event.target.value)}
        />
      </Field>
    </section>
  );
}

/**
 * The other saved servers of the endpoint's bucket the run spreads over: each endpoint with a URL
 * can be ticked, in the order ticked. One ticked that cannot serve (gone, the testbed, the
 * endpoint above) stays listed, so the error at the field can be read and the box unticked.
 */
function ReplicasField() {
  const { t } = useTranslation("experiments");
  const { form, errors } = useBuilderForm();
  const setField = useExperimentBuilder((state) => state.setField);
  const endpoints = useEndpoints((state) => state.endpoints);
  const endpointName = useEndpointName();
  const chosen = form.replicaEndpointIds;
  const primary = endpoints.find((endpoint) => endpoint.id === form.endpointId);
  const candidates = endpoints.filter(
    (endpoint) =>
      (endpoint.kind !== "testbed" && endpoint.id !== form.endpointId) ||
      chosen.includes(endpoint.id),
  );
  const missing = chosen.filter((id) => !endpoints.some((endpoint) => endpoint.id === id));
  const offered = primary !== undefined && primary.kind !== "testbed" && candidates.length > 0;
  if (!offered && chosen.length === 0) return null;

  const toggle = (id: string) =>
    setField(
      "replicaEndpointIds",
      chosen.includes(id) ? chosen.filter((known) => known !== id) : [...chosen, id],
    );
  const option = (id: string, label: string, endpoint?: SavedEndpoint) => (
    <label key={id} className="check" data-testid="experiment-replica" data-name={label}>
      <input
        type="checkbox"
        checked={chosen.includes(id)}
        onChange={() => toggle(id)}
        data-testid="experiment-replica-check"
      />
      <span translate="no">{label}</span>
      {endpoint?.url ? (
        <small className="muted mono" translate="no">
          {endpoint.url}
        </small>
      ) : null}
    </label>
  );
  return (
    <FieldGroup
      label={t("basics.replicas")}
      error={errors.replicaEndpointIds}
      hint={t("basics.replicasHint")}
      testId="experiment-replicas"
    >
      {candidates.map((endpoint) => option(endpoint.id, endpointName(endpoint), endpoint))}
      {missing.map((id) => option(id, id))}
    </FieldGroup>
  );
}

/** "Lab MinIO · MinIO", but not "Embedded testbed · Embedded testbed". */
function optionLabel(name: string, kind: string): string {
  return name.trim().toLowerCase() === kind.toLowerCase() ? name : `${name} · ${kind}`;
}
