import type { MenuItemConstructorOptions } from "electron";
import { describe, expect, it } from "vitest";
import { appMenuTemplate } from "./app-menu.ts";

function roles(template: MenuItemConstructorOptions[]): string[] {
  return template.flatMap((item) => [
    ...(item.role ? [item.role] : []),
    ...(Array.isArray(item.submenu) ? roles(item.submenu) : []),
  ]);
}

describe("appMenuTemplate", () => {
  it("keeps reload and devtools out of a packaged app", () => {
    const menu = roles(appMenuTemplate({ platform: "linux", development: false }));
    expect(menu).not.toContain("reload");
    expect(menu).not.toContain("forceReload");
    expect(menu).not.toContain("toggleDevTools");
    expect(menu).toEqual(expect.arrayContaining(["quit", "editMenu", "zoomIn", "about"]));
  });

  it("offers them while developing", () => {
    const menu = roles(appMenuTemplate({ platform: "linux", development: true }));
    expect(menu).toEqual(expect.arrayContaining(["reload", "toggleDevTools"]));
  });

  it("starts with the app menu on macOS", () => {
    const [first] = appMenuTemplate({ platform: "darwin", development: false });
    expect(first?.role).toBe("appMenu");
  });
});
