import type { MenuItemConstructorOptions } from "electron";

/**
 * The standard menus, with the developer items (reload, devtools) only in a development build:
 * a reload would drop the UI's state mid-run, and devtools would hand page scripting to anyone.
 */
export function appMenuTemplate(options: {
  platform: NodeJS.Platform;
  development: boolean;
}): MenuItemConstructorOptions[] {
  const mac = options.platform === "darwin";
  const developerItems: MenuItemConstructorOptions[] = options.development
    ? [
        { role: "reload" },
        { role: "forceReload" },
        { role: "toggleDevTools" },
        { type: "separator" },
      ]
    : [];
  const template: MenuItemConstructorOptions[] = [
    {
      label: "File",
      submenu: [mac ? { role: "close" } : { role: "quit" }],
    },
    { role: "editMenu" },
    {
      label: "View",
      submenu: [
        ...developerItems,
        { role: "resetZoom" },
        { role: "zoomIn" },
        { role: "zoomOut" },
        { type: "separator" },
        { role: "togglefullscreen" },
      ],
    },
    { role: "windowMenu" },
    {
      role: "help",
      submenu: [{ role: "about" }],
    },
  ];
  // macOS puts About, Hide and Quit in a menu named after the app, before File.
  return mac ? [{ role: "appMenu" }, ...template] : template;
}
