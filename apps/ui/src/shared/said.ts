import { visibleText } from "@taillab/core";
import {
  AppError,
  codeOf,
  englishOf,
  ENGLISH_MESSAGES,
  type ApiError,
  type CodedMessage,
  type CodedText,
  type FieldError,
  type MessageParam,
  messageOf,
} from "@taillab/api";
import i18next, { type TFunction } from "i18next";
import { useTranslation } from "react-i18next";

/** A text the backend sent: its English, and its code and params when it has them. */
export type Said = { message: string } & CodedText;

/**
 * `said` in the UI's language, through the "coded" catalogue (its English is api's
 * ENGLISH_MESSAGES); the backend's English when it has no code, or a code (or a nested one) this
 * UI does not know.
 */
export function sayWith(t: TFunction, said: Said): string {
  if (said.code === undefined) return visibleText(said.message);
  return translate(t, { code: said.code, params: said.params ?? {} }) ?? visibleText(said.message);
}

function translate(t: TFunction, message: CodedMessage): string | null {
  if (!Object.hasOwn(ENGLISH_MESSAGES, message.code)) return null;
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(message.params)) {
    // A server's code or a name may hide characters that reorder or overwrite the text.
    if (typeof value !== "object") {
      params[name] = typeof value === "string" ? visibleText(value) : value;
      continue;
    }
    const nested = translate(t, value);
    if (nested === null) return null;
    params[name] = nested;
  }
  return t(`coded:${message.code}`, params);
}

/** A message the UI made itself, as the backend's texts travel: its English and its code. */
export function saidOf(message: CodedMessage): Said {
  return { message: englishOf(message), ...codeOf(message) };
}

/** `error` inside a message about where it is; English only when the error has no code. */
export function saidAbout(error: Said, wrap: (problem: MessageParam) => CodedMessage): Said {
  const problem = messageOf(error);
  const whole = wrap(problem ?? error.message);
  return { message: englishOf(wrap(error.message)), ...(problem ? codeOf(whole) : {}) };
}

/** Says backend texts in the language the UI shows, following a switch of language. */
export function useSay(): (said: Said) => string {
  const { t } = useTranslation("coded");
  return (said) => sayWith(t, said);
}

/** In the language the UI shows now: for stores, which keep texts rather than codes. */
export function sayNow(said: Said): string {
  return sayWith(i18next.t, said);
}

/** A field error as a line of a banner: the field as the input names it, then what is wrong. */
export function fieldLine(error: FieldError, say: (said: Said) => string = sayNow): string {
  return `${error.field}: ${say(error)}`;
}

/** Why a call or a run failed: its field errors line by line when it has them, else its text. */
export function failureText(
  failure: ApiError | AppError,
  say: (said: Said) => string = sayNow,
): string {
  const fields = failure.fields ?? [];
  return fields.length > 0
    ? fields.map((error) => fieldLine(error, say)).join("\n")
    : failure.message;
}

/** Any thrown value as text for a person: an AppError said in the UI's language. */
export function errorText(error: unknown): string {
  if (error instanceof AppError) return failureText(error);
  return error instanceof Error ? error.message : String(error);
}
