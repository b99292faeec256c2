import { EMBEDDED_TESTBED_ENDPOINT_ID, type SavedEndpoint } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { ConfirmButton } from "../../shared/confirm-button.tsx";
import { isCustomProfile, profileToText } from "../../shared/testbed-setup-fields.tsx";
import { IDLE_TEST } from "./connection-test.ts";
import { ConnectionVerdict } from "./connection-verdict.tsx";
import { useEndpointForm } from "./endpoint-form-store.ts";
import { useEndpointName } from "./endpoint-name.ts";
import { useEndpoints } from "./endpoints-store.ts";

/** One saved endpoint: where it is, how it signs in, and its own connection test. */
export function EndpointCard({ endpoint }: { endpoint: SavedEndpoint }) {
  const { t } = useTranslation("endpoints");
  const test = useEndpoints((state) => state.tests[endpoint.id] ?? IDLE_TEST);
  const { test: runTest, createBucket, remove } = useEndpoints.getState();
  const startEdit = useEndpointForm((state) => state.startEdit);
  const name = useEndpointName()(endpoint);

  return (
    <article className="card endpoint-card" data-testid="endpoint-row" data-name={endpoint.name}>
      <header className="endpoint-card-header">
        <h3>{name}</h3>
        <span className="badge kind-badge" data-kind={endpoint.kind}>
          {t(`kind.${endpoint.kind}`)}
        </span>
      </header>
      <p
        className={endpoint.kind === "testbed" ? "endpoint-address" : "endpoint-address mono"}
        data-testid="endpoint-address"
        translate={endpoint.kind === "testbed" ? undefined : "no"}
      >
        {addressOf(endpoint, t)}
      </p>
      <dl className="facts">
        <dt>{t("card.bucket")}</dt>
        <dd className="mono" translate="no">
          {endpoint.bucket}
        </dd>
        <dt>{t("card.credentials")}</dt>
        <dd>{credentialsOf(endpoint, t)}</dd>
      </dl>
      <div className="toolbar">
        <button
          type="button"
          data-testid="endpoint-row-test"
          disabled={test.pending}
          onClick={() => void runTest(endpoint.id)}
        >
          {t("card.test")}
        </button>
        <button type="button" data-testid="endpoint-row-edit" onClick={() => startEdit(endpoint)}>
          {t("card.edit")}
        </button>
        <span className="toolbar-spacer" />
        {endpoint.id === EMBEDDED_TESTBED_ENDPOINT_ID ? null : (
          <ConfirmButton
            testId="endpoint-row-remove"
            label={t("card.remove")}
            question={t("card.removeQuestion", { name })}
            onConfirm={() => void remove(endpoint.id)}
          />
        )}
      </div>
      <ConnectionVerdict test={test} onCreateBucket={() => void createBucket(endpoint.id)} />
    </article>
  );
}

type Translate = ReturnType<typeof useTranslation<"endpoints">>["t"];

function addressOf(endpoint: SavedEndpoint, t: Translate): string {
  if (endpoint.kind !== "testbed") return endpoint.url ?? "";
  const replicas = endpoint.testbed?.replicas ?? 1;
  const profile = profileToText(endpoint.testbed?.profile ?? "fast");
  const shown = isCustomProfile(profile) ? t("testbed.customProfile", { ns: "common" }) : profile;
  return replicas === 1
    ? t("card.oneReplica", { profile: shown })
    : t("card.replicas", { count: replicas, profile: shown });
}

function credentialsOf(endpoint: SavedEndpoint, t: Translate): string {
  const { credentials } = endpoint;
  if (endpoint.kind === "testbed") return t("card.ownKeys");
  switch (credentials.kind) {
    case "stored":
      return `${t("card.storedKey", { id: credentials.accessKeyId })} · ${
        endpoint.hasSecret ? t("card.secretSaved") : t("card.noSecret")
      }`;
    case "env":
      return t("card.env", {
        id: credentials.accessKeyIdVar,
        secret: credentials.secretAccessKeyVar,
      });
    case "anonymous":
      return t("card.anonymous");
  }
}
