import type { EndpointKind } from "@taillab/api";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useShallow } from "zustand/react/shallow";
import { secretStoreOf, useAppInfo } from "../../app/app-info-store.ts";
import { Field } from "../../shared/field.tsx";
import { TestbedSetupFields } from "../../shared/testbed-setup-fields.tsx";
import { ConnectionVerdict } from "./connection-verdict.tsx";
import { useEndpointForm } from "./endpoint-form-store.ts";
import { useEndpointName } from "./endpoint-name.ts";
import {
  ENDPOINT_KINDS,
  type CertificateCheck,
  type CredentialSource,
} from "./endpoint-presets.ts";

const CREDENTIAL_SOURCES: CredentialSource[] = ["stored", "env", "anonymous"];

/** Add or edit one endpoint; a failed save keeps every value and marks the fields at fault. */
export function EndpointForm() {
  const { t } = useTranslation("endpoints");
  const { values, fieldErrors, formError, fixFields, editingId, saving, test } = useEndpointForm(
    useShallow((state) => ({
      values: state.values,
      fieldErrors: state.fieldErrors,
      formError: state.formError,
      fixFields: state.fixFields,
      editingId: state.editingId,
      saving: state.saving,
      test: state.test,
    })),
  );
  const { setField, setKind, save, close, testConnection } = useEndpointForm.getState();
  const testbed = values.kind === "testbed";
  const endpointName = useEndpointName();
  const card = useRef<HTMLElement>(null);
  // Edit is pressed on a card further down: bring the form (at the top) into view.
  useEffect(() => {
    card.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  }, [editingId]);

  return (
    <section
      ref={card}
      className="card form-card"
      data-testid="endpoint-form"
      aria-labelledby="endpoint-form-title"
    >
      <h2 id="endpoint-form-title">
        {editingId
          ? t("form.titleEdit", { name: endpointName({ id: editingId, name: values.name }) })
          : t("form.titleAdd")}
      </h2>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        {formError || fixFields ? (
          <div className="banner error pre-line" role="alert" data-testid="endpoint-form-error">
            {formError ?? t("form.fixFields")}
          </div>
        ) : null}
        <div className="grid-2">
          <Field label={t("form.kind")} error={fieldErrors.kind} hint={t("form.kindHint")}>
            <select
              data-testid="endpoint-kind"
              value={values.kind}
              onChange={(event) => setKind(event.target.value as EndpointKind)}
            >
              {ENDPOINT_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {t(`kind.${kind}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t("form.name")} error={fieldErrors.name}>
            <input
              data-testid="endpoint-name"
              value={values.name}
              maxLength={100}
              onChange={(event) => setField("name", event.target.value)}
            />
          </Field>
          {testbed ? null : (
            <>
              <Field label={t("form.url")} error={fieldErrors.url} hint={t("form.urlHint")}>
                <input
                  data-testid="endpoint-url"
                  className="mono"
                  value={values.url}
                  spellCheck={false}
                  placeholder="http://127.0.0.1:9000"
                  onChange={(event) => setField("url", event.target.value)}
                />
              </Field>
              <Field label={t("form.region")} error={fieldErrors.region}>
                <input
                  data-testid="endpoint-region"
                  value={values.region}
                  spellCheck={false}
                  onChange={(event) => setField("region", event.target.value)}
                />
              </Field>
              <Field label={t("form.addressing")} error={fieldErrors.addressing}>
                <select
                  data-testid="endpoint-addressing"
                  value={values.addressing}
                  onChange={(event) =>
                    setField("addressing", event.target.value as "path" | "virtual-host")
                  }
                >
                  <option value="path">{t("form.path")}</option>
                  <option value="virtual-host">{t("form.virtualHost")}</option>
                </select>
              </Field>
              <Field
                label={t("form.certificateCheck")}
                error={fieldErrors.certificateCheck}
                hint={t("form.certificateCheckHint")}
              >
                <select
                  data-testid="endpoint-certificate-check"
                  value={values.certificateCheck}
                  onChange={(event) =>
                    setField("certificateCheck", event.target.value as CertificateCheck)
                  }
                >
                  <option value="system">{t("form.certificateSystem")}</option>
                  <option value="ca-file">{t("form.certificateCaFile")}</option>
                  <option value="insecure">{t("form.certificateInsecure")}</option>
                </select>
              </Field>
              {values.certificateCheck === "ca-file" ? (
                <Field
                  label={t("form.caFile")}
                  error={fieldErrors.caFile}
                  hint={t("form.caFileHint")}
                >
                  <input
                    data-testid="endpoint-ca-file"
                    className="mono"
                    value={values.caFile}
                    spellCheck={false}
                    placeholder="/etc/ssl/lab-ca.pem"
                    onChange={(event) => setField("caFile", event.target.value)}
                  />
                </Field>
              ) : null}
            </>
          )}
          <Field label={t("form.bucket")} error={fieldErrors.bucket} hint={t("form.bucketHint")}>
            <input
              data-testid="endpoint-bucket"
              className="mono"
              value={values.bucket}
              spellCheck={false}
              onChange={(event) => setField("bucket", event.target.value)}
            />
          </Field>
        </div>

        {testbed ? (
          <fieldset className="form-section">
            <legend>{t("form.testbed")}</legend>
            <p className="field-hint">{t("form.testbedNote")}</p>
            <TestbedSetupFields
              testIdPrefix="endpoint-testbed"
              values={values}
              errors={fieldErrors}
              onChange={(field, value) => setField(field, value)}
            />
          </fieldset>
        ) : (
          <CredentialFields editing={editingId !== null} />
        )}

        <div className="toolbar form-actions">
          <button type="submit" className="primary" data-testid="endpoint-save" disabled={saving}>
            {saving ? t("form.saving") : t("form.save")}
          </button>
          <button
            type="button"
            data-testid="endpoint-test"
            disabled={test.pending}
            onClick={() => void testConnection()}
          >
            {test.pending ? t("form.testing") : t("form.test")}
          </button>
          <span className="toolbar-spacer" />
          <button type="button" className="ghost" data-testid="endpoint-cancel" onClick={close}>
            {t("form.cancel")}
          </button>
        </div>
      </form>
      <ConnectionVerdict
        test={test}
        onCreateBucket={() => void useEndpointForm.getState().createBucket()}
      />
    </section>
  );
}

function CredentialFields({ editing }: { editing: boolean }) {
  const { t } = useTranslation("endpoints");
  const { values, fieldErrors, refusedKeys } = useEndpointForm(
    useShallow((state) => ({
      values: state.values,
      fieldErrors: state.fieldErrors,
      refusedKeys: state.refusedKeys,
    })),
  );
  const setField = useEndpointForm((state) => state.setField);
  const secretStore = useAppInfo((state) => secretStoreOf(state.info));
  useEffect(() => {
    void useAppInfo.getState().load();
  }, []);
  // The server refused the keys the form would send: mark the fields holding them.
  const accessKeyRefused = refusedKeys.includes("accessKey");
  const secretRefused = refusedKeys.includes("secret");
  const refusedHere = (refused: boolean, message: string) => (refused ? message : undefined);
  return (
    <fieldset className="form-section">
      <legend>{t("form.credentials")}</legend>
      <div className="grid-2">
        <Field
          label={t("form.source")}
          error={
            fieldErrors.credentialSource ??
            refusedHere(
              values.credentialSource === "anonymous" && refusedKeys.length > 0,
              t("form.sourceRefused"),
            )
          }
        >
          <select
            data-testid="endpoint-credentials"
            value={values.credentialSource}
            onChange={(event) =>
              setField("credentialSource", event.target.value as CredentialSource)
            }
          >
            {CREDENTIAL_SOURCES.map((source) => (
              <option key={source} value={source}>
                {source === "stored" ? t(`form.stored.${secretStore}`) : t(`form.${source}`)}
              </option>
            ))}
          </select>
        </Field>
        {values.credentialSource === "anonymous" ? (
          <p className="field-hint align-end">{t("form.anonymousHint")}</p>
        ) : (
          <span />
        )}
        {values.credentialSource === "stored" ? (
          <>
            <Field
              label={t("form.accessKeyId")}
              error={
                fieldErrors.accessKeyId ?? refusedHere(accessKeyRefused, t("form.accessKeyRefused"))
              }
            >
              <input
                data-testid="endpoint-access-key"
                className="mono"
                value={values.accessKeyId}
                spellCheck={false}
                autoComplete="off"
                onChange={(event) => setField("accessKeyId", event.target.value)}
              />
            </Field>
            <Field
              label={t("form.secret")}
              error={
                fieldErrors.secretAccessKey ??
                refusedHere(
                  secretRefused,
                  t(editing ? "form.secretRefusedKeep" : "form.secretRefused"),
                )
              }
              hint={editing ? t("form.secretKeep") : t(`form.secretNew.${secretStore}`)}
            >
              <input
                type="password"
                data-testid="endpoint-secret"
                className="mono"
                value={values.secretAccessKey}
                autoComplete="new-password"
                onChange={(event) => setField("secretAccessKey", event.target.value)}
              />
            </Field>
          </>
        ) : null}
        {values.credentialSource === "env" ? (
          <>
            <Field
              label={t("form.accessKeyIdVar")}
              error={
                fieldErrors.accessKeyIdVar ??
                refusedHere(accessKeyRefused, t("form.accessKeyRefused"))
              }
              hint={t("form.envHint")}
            >
              <input
                data-testid="endpoint-access-key-var"
                className="mono"
                value={values.accessKeyIdVar}
                spellCheck={false}
                onChange={(event) => setField("accessKeyIdVar", event.target.value)}
              />
            </Field>
            <Field
              label={t("form.secretVar")}
              error={
                fieldErrors.secretAccessKeyVar ??
                refusedHere(secretRefused, t("form.secretRefused"))
              }
            >
              <input
                data-testid="endpoint-secret-var"
                className="mono"
                value={values.secretAccessKeyVar}
                spellCheck={false}
                onChange={(event) => setField("secretAccessKeyVar", event.target.value)}
              />
            </Field>
          </>
        ) : null}
      </div>
    </fieldset>
  );
}
