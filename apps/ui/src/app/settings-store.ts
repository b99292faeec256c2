import { create } from "zustand";

export type Language = "en" | "zh-CN";
export type Theme = "light" | "dark";

export interface Settings {
  language: Language;
  theme: Theme;
  /** Large type, thick lines and high contrast, for a lecture hall. */
  projector: boolean;
}

interface SettingsState extends Settings {
  setLanguage(language: Language): void;
  setTheme(theme: Theme): void;
  setProjector(projector: boolean): void;
}

const STORAGE_KEY = "taillab.settings";

function systemTheme(): Theme {
  return typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches
    ? "dark"
    : "light";
}

function loadSettings(): Settings {
  const defaults: Settings = { language: "en", theme: systemTheme(), projector: false };
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}") as Partial<Settings>;
    return {
      language:
        saved.language === "zh-CN" || saved.language === "en" ? saved.language : defaults.language,
      theme: saved.theme === "dark" || saved.theme === "light" ? saved.theme : defaults.theme,
      projector: saved.projector === true,
    };
  } catch {
    return defaults;
  }
}

function persist(settings: Settings): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
}

/** Remembered across launches in the renderer's local storage. */
export const useSettings = create<SettingsState>((set, get) => {
  const update = (change: Partial<Settings>) => {
    set(change);
    const { language, theme, projector } = get();
    persist({ language, theme, projector });
  };
  return {
    ...loadSettings(),
    setLanguage: (language) => update({ language }),
    setTheme: (theme) => update({ theme }),
    setProjector: (projector) => update({ projector }),
  };
});
