import type { FeatureMessages } from "../../app/i18n.ts";

export const runsMessages: FeatureMessages = {
  en: {},
  "zh-CN": {},
};
