import { parseByteSize, type Experiment } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { formatInteger, formatSize } from "@taillab/report";
import { PlayIcon } from "../../shared/icons.tsx";
import { joinList, splitList } from "../../shared/list-text.ts";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { experimentToForm, type ExperimentForm } from "./experiment-form.ts";
import { useExperimentText } from "./experiment-text.ts";
import { useExperiments } from "./experiments-store.ts";

/** Built-in labs first (run or copy), then the user's own (run or open). */
export function ExperimentList() {
  const { t } = useTranslation("experiments");
  const experiments = useExperiments((state) => state.experiments);
  const loaded = useExperiments((state) => state.loaded);
  const builtIn = experiments.filter((experiment) => experiment.builtIn);
  const own = experiments.filter((experiment) => !experiment.builtIn);

  return (
    <>
      <DraftBanner />
      {builtIn.length > 0 ? (
        <section className="card">
          <h2>{t("list.builtInTitle")}</h2>
          <p className="muted">{t("list.builtInHint")}</p>
          <ExperimentTable experiments={builtIn} />
        </section>
      ) : null}
      <section className="card">
        <h2>{t("list.savedTitle")}</h2>
        {own.length > 0 ? (
          <ExperimentTable experiments={own} />
        ) : loaded ? (
          <p className="empty-state compact" data-testid="experiments-empty">
            {t("list.savedEmpty")}
          </p>
        ) : null}
      </section>
    </>
  );
}

function ExperimentTable({ experiments }: { experiments: Experiment[] }) {
  const { t } = useTranslation("experiments");
  return (
    <table className="data experiment-table">
      <thead>
        <tr>
          <th scope="col">{t("list.columns.experiment")}</th>
          <th scope="col">{t("list.columns.measures")}</th>
          <th scope="col">{t("list.columns.modes")}</th>
          <th scope="col" className="row-actions">
            <span className="visually-hidden">{t("list.columns.actions")}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {experiments.map((experiment) => (
          <ExperimentRow key={experiment.id} experiment={experiment} />
        ))}
      </tbody>
    </table>
  );
}

function ExperimentRow({ experiment: stored }: { experiment: Experiment }) {
  const { t } = useTranslation("experiments");
  const textOf = useExperimentText();
  const { edit, copy, runExperiment } = useExperimentBuilder.getState();
  // A built-in lab opens, runs and is copied under its name in the UI's language.
  const experiment = { ...stored, ...textOf(stored) };
  const form = experimentToForm(experiment);
  const modes = form.compareModes ? form.modes : [form.mode];
  const open = () =>
    experiment.builtIn
      ? copy(experiment, t("list.copyName", { name: experiment.name }))
      : edit(experiment);

  return (
    <tr data-testid="experiment-row" data-name={stored.name} data-built-in={experiment.builtIn}>
      <td>
        <button
          type="button"
          className="link"
          data-testid="experiment-row-open"
          onClick={() => edit(experiment)}
        >
          {experiment.name}
        </button>
        {experiment.builtIn ? <span className="badge">{t("list.builtIn")}</span> : null}
        {experiment.description ? (
          <div className="muted small">{experiment.description}</div>
        ) : null}
      </td>
      <td className="muted small" data-testid="experiment-row-summary">
        {summaryOf(form, t)}
      </td>
      <td>
        <span className="mode-badges">
          {modes.map((mode) => (
            <span key={mode} className="badge" data-mode={mode}>
              {t(`mode.${mode}`)}
            </span>
          ))}
        </span>
      </td>
      <td className="row-actions">
        <button
          type="button"
          data-testid="experiment-row-run"
          onClick={() => void runExperiment(experiment)}
        >
          <PlayIcon />
          {t("list.run")}
        </button>
        <button type="button" className="ghost" data-testid="experiment-row-copy" onClick={open}>
          {experiment.builtIn ? t("list.copy") : t("list.open")}
        </button>
      </td>
    </tr>
  );
}

type Translate = ReturnType<typeof useTranslation<"experiments">>["t"];

function summaryOf(form: ExperimentForm, t: Translate): string {
  const parts: string[] = [];
  const pointCount = form.points.split("\n").filter((line) => line.trim() !== "").length;
  if (pointCount > 0) parts.push(t("list.pointsSummary", { count: pointCount }));
  else
    parts.push(
      t("list.summary", {
        count: splitList(form.clients).length === 1 ? Number(form.clients.trim()) : 2,
        clients: integersIn(form.clients),
        samples: integersIn(form.samples) || "–",
        sizes: sizesIn(form.sizes),
      }),
    );
  if (form.useWorkload) parts.push(t("list.workloadSummary", { ops: form.workloadOps }));
  if (form.loop === "open") parts.push(t("list.openLoop", { rate: form.rate }));
  return parts.join(" · ");
}

/** A typed list with its whole numbers written as everywhere else: "400, 3000" → "400, 3,000". */
function integersIn(list: string): string {
  return joinList(
    splitList(list).map((item) => (/^\d+$/.test(item) ? formatInteger(Number(item)) : item)),
  );
}

/** A typed list of sizes as sizes read everywhere else: "4KiB, 1MiB" → "4 KiB, 1 MiB". */
function sizesIn(list: string): string {
  return joinList(
    splitList(list).map((item) => {
      const size = parseByteSize(item);
      return size.ok ? formatSize(size.bytes) : item;
    }),
  );
}

/** A draft left unsaved on the builder, so leaving it for the list never loses it silently. */
function DraftBanner() {
  const { t } = useTranslation("experiments");
  const dirty = useExperimentBuilder((state) => state.dirty);
  const name = useExperimentBuilder((state) => state.form.name);
  const askingNew = useExperimentBuilder((state) => state.askingNew);
  const { resumeDraft, discard, newExperiment } = useExperimentBuilder.getState();
  if (!dirty) return null;
  const shownName = name || t("builder.untitled");
  return (
    <div
      className="banner warning draft-banner"
      data-testid="experiment-draft"
      data-asking-new={askingNew}
      role={askingNew ? "alert" : undefined}
    >
      <span>
        {askingNew
          ? t("list.draftBeforeNew", { name: shownName })
          : t("list.draft", { name: shownName })}
      </span>
      <span className="toolbar">
        <button
          type="button"
          className="primary"
          data-testid="experiment-draft-continue"
          onClick={resumeDraft}
        >
          {t("list.continue")}
        </button>
        <button
          type="button"
          className="ghost"
          data-testid="experiment-draft-discard"
          onClick={() => {
            discard();
            if (askingNew) newExperiment();
          }}
        >
          {askingNew ? t("list.discardAndNew") : t("list.discard")}
        </button>
      </span>
    </div>
  );
}
