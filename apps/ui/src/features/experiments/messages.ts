import type { FeatureMessages } from "../../app/i18n.ts";

export const experimentsMessages: FeatureMessages = {
  en: {},
  "zh-CN": {},
};
