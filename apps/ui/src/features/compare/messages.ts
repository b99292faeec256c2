import type { FeatureMessages } from "../../app/i18n.ts";

export const compareMessages: FeatureMessages = {
  en: {},
  "zh-CN": {},
};
