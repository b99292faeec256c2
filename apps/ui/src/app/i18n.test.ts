import { describe, expect, it } from "vitest";
import { MESSAGES, type MessageTree } from "./i18n.ts";

function keysOf(tree: MessageTree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

describe("messages", () => {
  it.each(Object.keys(MESSAGES))("%s has every English text in Chinese too", (namespace) => {
    const messages = MESSAGES[namespace];
    if (!messages) throw new Error(namespace);
    expect(keysOf(messages["zh-CN"]).sort()).toEqual(keysOf(messages.en).sort());
  });
});
