import { describe, expect, it } from "vitest";
import { shortcutOf, type KeyPress } from "./shortcuts.ts";

const press = (changes: Partial<KeyPress>): KeyPress => ({
  key: "",
  code: "",
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  typing: false,
  ...changes,
});

describe("shortcutOf", () => {
  it.each<[string, Partial<KeyPress>, ReturnType<typeof shortcutOf>]>([
    ["Ctrl+Enter runs", { key: "Enter", ctrlKey: true }, { kind: "run" }],
    ["Cmd+Enter runs", { key: "Enter", metaKey: true }, { kind: "run" }],
    [
      "Ctrl+Enter runs from a text box",
      { key: "Enter", ctrlKey: true, typing: true },
      { kind: "run" },
    ],
    ["Enter alone does nothing", { key: "Enter" }, null],
    ["Ctrl+. stops", { key: ".", ctrlKey: true }, { kind: "stop", escape: false }],
    [
      "Cmd+. stops while typing",
      { key: ".", metaKey: true, typing: true },
      { kind: "stop", escape: false },
    ],
    ["Escape stops", { key: "Escape" }, { kind: "stop", escape: true }],
    ["Escape in a text box is the box's", { key: "Escape", typing: true }, null],
    [
      "Alt+1 opens Endpoints",
      { key: "1", code: "Digit1", altKey: true },
      { kind: "go", view: "endpoints" },
    ],
    [
      "Alt+5 opens Compare",
      { key: "5", code: "Digit5", altKey: true },
      { kind: "go", view: "compare" },
    ],
    [
      "macOS Alt+2 types ™ but is still Digit2",
      { key: "™", code: "Digit2", altKey: true },
      { kind: "go", view: "experiments" },
    ],
    ["Alt+6 is no screen", { key: "6", code: "Digit6", altKey: true }, null],
    ["Ctrl+Alt+1 is not ours", { key: "1", code: "Digit1", altKey: true, ctrlKey: true }, null],
    ["? opens help", { key: "?" }, { kind: "help" }],
    ["? in a text box is a character", { key: "?", typing: true }, null],
  ])("%s", (_name, changes, expected) => {
    expect(shortcutOf(press(changes))).toEqual(expected);
  });
});
