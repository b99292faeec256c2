import {
  DEFAULT_POD_LIMITS,
  DEFAULT_POD_REQUESTS,
  DEFAULT_POD_SPREAD,
  DEFAULT_TTL_AFTER_FINISHED,
} from "@taillab/core";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useShallow } from "zustand/react/shallow";
import { Field } from "../../shared/field.tsx";
import { useKubernetesSettings, type SettingsField } from "./kubernetes-settings-store.ts";

/** The header's "Kubernetes" button: it opens the settings dialog. */
export function KubernetesSettingsButton() {
  const { t } = useTranslation("kubernetes");
  const open = useKubernetesSettings((state) => state.open);
  return (
    <>
      <button
        type="button"
        className="ghost"
        data-testid="kubernetes-settings-button"
        onClick={() => void useKubernetesSettings.getState().show()}
      >
        {t("settings.button")}
      </button>
      {open ? <KubernetesSettingsDialog /> : null}
    </>
  );
}

const FIELDS: { field: SettingsField; placeholder: string }[] = [
  { field: "kubeconfig", placeholder: "~/.kube/config" },
  { field: "context", placeholder: "" },
  { field: "namespace", placeholder: "default" },
  { field: "image", placeholder: "registry.example/taillab:0.1.0" },
  { field: "requests", placeholder: DEFAULT_POD_REQUESTS },
  { field: "limits", placeholder: DEFAULT_POD_LIMITS },
  { field: "nodeSelector", placeholder: "disktype=ssd" },
  { field: "tolerations", placeholder: "dedicated=bench:NoSchedule" },
  { field: "imagePullSecrets", placeholder: "regcred" },
  { field: "spread", placeholder: DEFAULT_POD_SPREAD },
  { field: "ttl", placeholder: DEFAULT_TTL_AFTER_FINISHED },
];

/** Cluster, image and pod settings of distributed runs; saved in the data folder. */
export function KubernetesSettingsDialog() {
  const { t } = useTranslation("kubernetes");
  const { draft, errors, error, saving } = useKubernetesSettings(
    useShallow((state) => ({
      draft: state.draft,
      errors: state.errors,
      error: state.error,
      saving: state.saving,
    })),
  );
  const { close, setField, save } = useKubernetesSettings.getState();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const previous = document.activeElement;
    first.current?.focus();
    return () => {
      if (previous instanceof HTMLElement) previous.focus();
    };
  }, []);

  return (
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      <form
        className="dialog card"
        role="dialog"
        aria-modal="true"
        aria-labelledby="kubernetes-settings-title"
        data-testid="kubernetes-settings"
        noValidate
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            close();
          }
        }}
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <header className="dialog-header">
          <h2 id="kubernetes-settings-title">{t("settings.title")}</h2>
          <button type="button" className="ghost" aria-label={t("settings.close")} onClick={close}>
            ×
          </button>
        </header>
        <p className="muted">{t("settings.intro")}</p>
        {error ? (
          <p className="banner error pre-line" role="alert" data-testid="kubernetes-settings-error">
            {error}
          </p>
        ) : null}
        {FIELDS.map(({ field, placeholder }, index) => (
          <Field
            key={field}
            label={t(`settings.${field}`)}
            hint={t(`settings.${field}Hint`)}
            error={errors[field]}
          >
            <input
              ref={index === 0 ? first : undefined}
              data-testid={`kubernetes-${field}`}
              value={draft[field]}
              placeholder={placeholder}
              spellCheck={false}
              onChange={(event) => setField(field, event.target.value)}
            />
          </Field>
        ))}
        <div className="toolbar">
          <button type="button" onClick={close}>
            {t("settings.cancel")}
          </button>
          <button
            type="submit"
            className="primary"
            data-testid="kubernetes-settings-save"
            disabled={saving}
          >
            {saving ? t("settings.saving") : t("settings.save")}
          </button>
        </div>
      </form>
    </div>
  );
}
