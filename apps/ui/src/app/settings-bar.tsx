import { useTranslation } from "react-i18next";
import { KubernetesSettingsButton } from "../features/kubernetes/kubernetes-settings-dialog.tsx";
import { MoonIcon, ProjectorIcon, SunIcon } from "../shared/icons.tsx";
import { LANGUAGES } from "./i18n.ts";
import { useSettings, type Language } from "./settings-store.ts";

const LANGUAGE_NAMES: Record<Language, string> = { en: "English", "zh-CN": "简体中文" };

/**
 * Language, theme and projector mode: switchable at any time, remembered across launches; and
 * the Kubernetes settings of distributed runs.
 */
export function SettingsBar() {
  const { t } = useTranslation();
  const language = useSettings((state) => state.language);
  const theme = useSettings((state) => state.theme);
  const projector = useSettings((state) => state.projector);
  const { setLanguage, setTheme, setProjector } = useSettings.getState();
  return (
    <div className="settings-bar">
      <label>
        <span className="visually-hidden">{t("settings.language")}</span>
        <select
          data-testid="language"
          value={language}
          onChange={(event) => setLanguage(event.target.value as Language)}
        >
          {LANGUAGES.map((code) => (
            <option key={code} value={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
      </label>
      {/* Named after the theme it switches to: an action, so not an aria-pressed toggle. */}
      <button
        type="button"
        data-testid="theme"
        className="ghost"
        title={t("settings.theme")}
        onClick={() => setTheme(theme === "dark" ? "light" : "dark")}
      >
        {theme === "dark" ? <SunIcon /> : <MoonIcon />}
        {theme === "dark" ? t("settings.light") : t("settings.dark")}
      </button>
      <button
        type="button"
        data-testid="projector"
        className={projector ? "ghost toggled" : "ghost"}
        aria-pressed={projector}
        onClick={() => setProjector(!projector)}
      >
        <ProjectorIcon />
        {t("settings.projector")}
      </button>
      <KubernetesSettingsButton />
    </div>
  );
}
