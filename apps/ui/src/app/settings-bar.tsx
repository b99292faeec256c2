import { useTranslation } from "react-i18next";
import { LANGUAGES } from "./i18n.ts";
import { useSettings, type Language } from "./settings-store.ts";

const LANGUAGE_NAMES: Record<Language, string> = { en: "English", "zh-CN": "简体中文" };

export function SettingsBar() {
  const { t } = useTranslation();
  const settings = useSettings();
  return (
    <div className="settings-bar">
      <label>
        <span className="visually-hidden">{t("settings.language")}</span>
        <select
          data-testid="language"
          value={settings.language}
          onChange={(event) => settings.setLanguage(event.target.value as Language)}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        data-testid="theme"
        className="ghost"
        aria-pressed={settings.theme === "dark"}
        onClick={() => settings.setTheme(settings.theme === "dark" ? "light" : "dark")}
      >
        {settings.theme === "dark" ? t("settings.light") : t("settings.dark")}
      </button>
      <button
        type="button"
        data-testid="projector"
        className="ghost"
        aria-pressed={settings.projector}
        onClick={() => settings.setProjector(!settings.projector)}
      >
        {t("settings.projector")}
      </button>
    </div>
  );
}
