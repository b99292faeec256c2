import { z } from "zod";
import { ENGLISH_MESSAGES } from "./english-messages.ts";

/**
 * A message for a person as data: a stable code and its params, so a UI can say it in its own
 * language. The English text (ENGLISH_MESSAGES, i18next's `{{param}}` templates) travels beside
 * it for the CLI, logs, and a UI that does not know the code. A param may itself be a message:
 * `"4KiB=x" — weight "x" is not a number` nests the weight's problem inside the item's.
 */
export interface CodedMessage {
  code: string;
  params: MessageParams;
}
export type MessageParam = string | number | CodedMessage;
export type MessageParams = { [name: string]: MessageParam };

export type MessageCode = keyof typeof ENGLISH_MESSAGES;

type ParamNames<Template extends string> =
  Template extends `${string}{{${infer Name}}}${infer Rest}` ? Name | ParamNames<Rest> : never;
type ParamsOf<Code extends MessageCode> = {
  [Name in ParamNames<(typeof ENGLISH_MESSAGES)[Code]>]: MessageParam;
};
type ParamsArgument<Code extends MessageCode> = [
  ParamNames<(typeof ENGLISH_MESSAGES)[Code]>,
] extends [never]
  ? []
  : [ParamsOf<Code>];

export const CodedMessageSchema: z.ZodType<CodedMessage> = z.lazy(() =>
  z.object({ code: z.string(), params: MessageParamsSchema }),
);
const MessageParamsSchema: z.ZodType<MessageParams> = z.lazy(() =>
  z.record(z.string(), z.union([z.string(), z.number(), CodedMessageSchema])),
);

/** The message `code` with its params, each template param given (checked by the compiler). */
export function coded<Code extends MessageCode>(
  code: Code,
  ...[params]: ParamsArgument<Code>
): CodedMessage {
  return { code, params: (params ?? {}) as MessageParams };
}

/** The message in English: its template with every param filled in, nested messages first. */
export function englishOf(message: CodedMessage): string {
  const template: string | undefined = (ENGLISH_MESSAGES as Record<string, string>)[message.code];
  if (template === undefined) return message.code;
  return template.replace(/{{(\w+)}}/g, (whole, name: string) => {
    const value = message.params[name];
    if (value === undefined) return whole;
    return typeof value === "object" ? englishOf(value) : String(value);
  });
}

export function isCodedMessage(value: unknown): value is CodedMessage {
  return CodedMessageSchema.safeParse(value).success;
}

/** Where a text for a person travels with its code: the English beside `code` and `params`. */
export interface CodedText {
  code?: string | undefined;
  params?: MessageParams | undefined;
}

/** The code and params of `message`, to spread beside its English text. */
export function codeOf(message: CodedMessage): Required<CodedText> {
  return { code: message.code, params: message.params };
}

/** The message a text carries, when it carries one. */
export function messageOf(text: CodedText): CodedMessage | null {
  return text.code === undefined ? null : { code: text.code, params: text.params ?? {} };
}

/** The fields of a schema's `code` and `params` beside a text, for the contract's objects. */
export const codedTextShape = {
  code: z.string().optional(),
  params: MessageParamsSchema.optional(),
};

/** The options of a zod `refine` whose failure says `message`: its English, itself as params. */
export function codedRefinement(
  message: CodedMessage,
  path?: PropertyKey[],
): { message: string; params: Record<string, unknown>; path?: PropertyKey[] } {
  return { message: englishOf(message), params: { ...message }, ...(path ? { path } : {}) };
}

/** A custom zod issue saying `message` (issueMessage reads it back from its params). */
export function codedIssue(
  message: CodedMessage,
  path?: PropertyKey[],
): { code: "custom"; message: string; params: Record<string, unknown>; path?: PropertyKey[] } {
  return { code: "custom", ...codedRefinement(message, path) };
}

/** A parser's failure: `problem`, then what it expected (`"x" is not a rate; expected …`). */
export function failedParse(
  problem: CodedMessage,
  expected: CodedMessage,
): { ok: false; reason: CodedMessage } {
  return { ok: false, reason: coded("expectedExample", { problem, expected }) };
}
