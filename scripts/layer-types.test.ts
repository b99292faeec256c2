import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");

/** The files a config's program reads, type libraries and the TypeScript libs included. */
function programFiles(config: string): string[] {
  const path = join(root, config);
  const parsed = ts.getParsedCommandLineOfConfigFile(path, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  });
  if (parsed === undefined) throw new Error(`${config} cannot be read`);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  return program.getSourceFiles().map((file) => file.fileName);
}

const NODE_TYPES = /\/@types\/node\//;
const DOM_LIB = /\/typescript\/lib\/lib\.dom\./;

/**
 * What each layer may not see, checked on the files its program reads: a type library reaches a
 * program through any file it includes (the renderer's config once took in vite.config.ts, and
 * with it Node's types for every file of the renderer).
 */
describe("each layer's compiler config", () => {
  it.each<[string, string, RegExp[]]>([
    ["tsconfig.pure.json", "api, core, report: neither Node nor DOM", [NODE_TYPES, DOM_LIB]],
    ["apps/ui/tsconfig.json", "the renderer: DOM, no Node", [NODE_TYPES]],
    ["tsconfig.browser.json", "the web host's page script: DOM, no Node", [NODE_TYPES]],
  ])("%s (%s)", (config, _layer, forbidden) => {
    const files = programFiles(config);
    expect(files.some((file) => file.includes("/src/"))).toBe(true);
    expect(files.filter((file) => forbidden.some((types) => types.test(file)))).toEqual([]);
  });
});
