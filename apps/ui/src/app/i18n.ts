import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { compareMessages } from "../features/compare/messages.ts";
import { endpointsMessages } from "../features/endpoints/messages.ts";
import { experimentsMessages } from "../features/experiments/messages.ts";
import { kubernetesMessages } from "../features/kubernetes/messages.ts";
import { liveRunMessages } from "../features/live-run/messages.ts";
import { runsMessages } from "../features/runs/messages.ts";
import { clientHealthMessages } from "../shared/client-health-messages.ts";
import { codedMessages } from "../shared/coded-messages.ts";
import { commonMessages } from "../shared/messages.ts";
import { appMessages } from "./messages.ts";
import { useSettings, type Language } from "./settings-store.ts";

/** Every language's texts for one feature: a nested object of strings per language. */
export interface MessageTree {
  [key: string]: string | MessageTree;
}
export type FeatureMessages = Record<Language, MessageTree>;

/** One i18next namespace per feature folder; `useTranslation("runs")` reads its own texts. */
export const MESSAGES: Record<string, FeatureMessages> = {
  app: appMessages,
  common: commonMessages,
  coded: codedMessages,
  endpoints: endpointsMessages,
  experiments: experimentsMessages,
  live: liveRunMessages,
  runs: runsMessages,
  compare: compareMessages,
  kubernetes: kubernetesMessages,
  client: clientHealthMessages,
};

export const LANGUAGES: Language[] = ["en", "zh-CN"];

export function initI18n(): typeof i18next {
  const resources = Object.fromEntries(
    LANGUAGES.map((language) => [
      language,
      Object.fromEntries(
        Object.entries(MESSAGES).map(([namespace, messages]) => [namespace, messages[language]]),
      ),
    ]),
  );
  void i18next.use(initReactI18next).init({
    resources,
    lng: useSettings.getState().language,
    fallbackLng: "en",
    ns: Object.keys(MESSAGES),
    defaultNS: "app",
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  useSettings.subscribe((state, previous) => {
    if (state.language !== previous.language) void i18next.changeLanguage(state.language);
  });
  return i18next;
}
