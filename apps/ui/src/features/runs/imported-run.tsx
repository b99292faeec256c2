import type { ImportSource, ImportTool } from "@taillab/api";
import { useTranslation } from "react-i18next";

/** Marks a run read from another benchmark's file (`taillab runs import`), naming the tool. */
export function ImportedBadge({ tool }: { tool: ImportTool }) {
  const { t } = useTranslation("runs");
  return (
    <span className="badge" data-testid="run-imported" data-tool={tool}>
      {t("status.importedFrom")} <span translate="no">{tool}</span>
    </span>
  );
}

/**
 * An imported run's file and what it does not carry, in place of the client machine (no file
 * says which machine ran it). The store words what is missing in English, so a Chinese screen
 * counts it instead.
 */
export function ImportedFacts({ source }: { source: ImportSource }) {
  const { t, i18n } = useTranslation("runs");
  return (
    <>
      <dt>{t("detail.importedFile")}</dt>
      <dd className="mono" translate="no" data-testid="run-imported-file">
        {source.file}
      </dd>
      <dt>{t("detail.notInFile")}</dt>
      <dd data-testid="run-not-in-file">
        {i18n.language === "en" ? (
          <ul>
            {source.notCarried.map((what) => (
              <li key={what}>{what}</li>
            ))}
          </ul>
        ) : null}
        <p className="muted">{t("detail.notInFileNote", { count: source.notCarried.length })}</p>
      </dd>
    </>
  );
}
