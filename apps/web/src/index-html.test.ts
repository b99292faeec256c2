import { describe, expect, it } from "vitest";
import { injectBridgeScript } from "./index-html.ts";

describe("injectBridgeScript", () => {
  it("puts the bridge right before the UI's module script", () => {
    const html = `<head><meta charset="UTF-8" />\n<script type="module" crossorigin src="./assets/index.js"></script></head>`;
    expect(injectBridgeScript(html)).toBe(
      `<head><meta charset="UTF-8" />\n<script src="./taillab-bridge.js"></script>\n    <script type="module" crossorigin src="./assets/index.js"></script></head>`,
    );
  });

  it("refuses a page without a module script", () => {
    expect(() => injectBridgeScript("<p>hello</p>")).toThrow(/no module script/);
  });
});
