import { Fragment, useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useShallow } from "zustand/react/shallow";
import { modKeyLabel } from "../../app/shortcuts.ts";
import { ConfirmButton } from "../../shared/confirm-button.tsx";
import { PlayIcon } from "../../shared/icons.tsx";
import { LoadGeneratorsSection } from "../kubernetes/load-generators-section.tsx";
import { AdvancedSection } from "./advanced-section.tsx";
import { BasicsSection } from "./basics-section.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { LoadSection } from "./load-section.tsx";
import { MeasureSection } from "./measure-section.tsx";
import { ModeSection } from "./mode-section.tsx";
import { settingsWithoutBox } from "./settings-without-box.ts";
import { SweepPreview } from "./sweep-preview.tsx";
import { TestbedSection } from "./testbed-section.tsx";

/** The experiment being edited: its sections, and beside them what it would run. */
export function ExperimentBuilder() {
  const { t } = useTranslation("experiments");
  const { name, experimentId, builtIn, dirty, error, failedAtFields, saved, busy } =
    useExperimentBuilder(
      useShallow((state) => ({
        name: state.form.name,
        experimentId: state.experimentId,
        builtIn: state.builtIn,
        dirty: state.dirty,
        error: state.error,
        saved: state.saved,
        busy: state.busy,
        failedAtFields: state.failedAtFields,
      })),
    );
  const { closeBuilder, save, saveAsCopy, remove, run } = useExperimentBuilder.getState();
  const copyName = t("list.copyName", { name: name || t("builder.untitled") });
  // A draft kept across a reload has no preview yet.
  useEffect(() => {
    if (useExperimentBuilder.getState().preview.status === "idle") {
      useExperimentBuilder.getState().schedulePreview();
    }
  }, []);

  return (
    <section className="view" data-testid="experiment-builder">
      <header className="view-header builder-header">
        <div className="builder-title">
          <button
            type="button"
            className="ghost back"
            data-testid="experiment-back"
            onClick={closeBuilder}
          >
            ← {t("builder.back")}
          </button>
          <h1>
            {name || (experimentId ? t("builder.untitled") : t("builder.titleNew"))}
            {builtIn ? <span className="badge">{t("list.builtIn")}</span> : null}
            {dirty ? (
              <span className="badge warning" data-testid="experiment-dirty">
                {t("builder.unsaved")}
              </span>
            ) : null}
          </h1>
        </div>
        <div className="toolbar">
          {experimentId && !builtIn ? (
            <ConfirmButton
              testId="experiment-delete"
              label={t("builder.delete")}
              question={t("builder.deleteQuestion", { name })}
              disabled={busy !== null}
              onConfirm={() => void remove()}
            />
          ) : null}
          {experimentId ? (
            <button
              type="button"
              data-testid="experiment-save-copy"
              disabled={busy !== null}
              onClick={() => void saveAsCopy(copyName)}
            >
              {t("builder.saveCopy")}
            </button>
          ) : null}
          {builtIn ? null : (
            <button
              type="button"
              data-testid="experiment-save"
              disabled={busy !== null}
              onClick={() => void save()}
            >
              {busy === "saving" ? t("builder.saving") : t("builder.save")}
            </button>
          )}
          <button
            type="button"
            className="primary run-button"
            data-testid="experiment-run"
            disabled={busy !== null}
            title={`${modKeyLabel()}+Enter`}
            onClick={() => void run()}
          >
            <PlayIcon />
            {busy === "running" ? t("builder.starting") : t("builder.run")}
            <kbd className="kbd-hint">{modKeyLabel()} ↵</kbd>
          </button>
        </div>
      </header>
      {builtIn ? <p className="banner">{t("builder.builtInNote")}</p> : null}
      <KeptSettingsNote />
      {error ? (
        <p className="banner error pre-line" role="alert" data-testid="experiment-error">
          {error}
        </p>
      ) : failedAtFields ? (
        <p className="banner error" role="alert" data-testid="experiment-error">
          {t("builder.fixFields")}
        </p>
      ) : null}
      {saved ? (
        <p className="banner success" role="status" data-testid="experiment-saved">
          {t("builder.saved")}
        </p>
      ) : null}
      <div className="builder-layout">
        <form
          className="builder-form"
          data-testid="experiment-form"
          noValidate
          // Enter in a box must not start a run: running is the Run button or Ctrl+Enter.
          onSubmit={(event) => event.preventDefault()}
        >
          <BasicsSection />
          <TestbedSection />
          <MeasureSection />
          <LoadSection />
          <LoadGeneratorsSection />
          <ModeSection />
          <AdvancedSection />
        </form>
        <aside className="builder-aside">
          <SweepPreview />
        </aside>
      </div>
    </section>
  );
}

/** The spec's settings the builder has no box for: kept as they are, and said so. */
function KeptSettingsNote() {
  const { t } = useTranslation("experiments");
  const baseSpec = useExperimentBuilder((state) => state.baseSpec);
  const kept = useMemo(() => settingsWithoutBox(baseSpec), [baseSpec]);
  if (kept.length === 0) return null;
  return (
    <p className="banner" data-testid="experiment-kept-settings">
      {t("builder.keptSettings")}{" "}
      {kept.map(({ path, value }, index) => (
        <Fragment key={path}>
          {index > 0 ? ", " : null}
          <code translate="no" data-path={path}>
            {path} = {value}
          </code>
        </Fragment>
      ))}
    </p>
  );
}
