import type { FeatureMessages } from "../../app/i18n.ts";

export const endpointsMessages: FeatureMessages = {
  en: {},
  "zh-CN": {},
};
