import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const SOURCE_ROOTS = ["apps", "packages", "electron", "scripts"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/**
 * The files a module loads when it runs: its relative imports and re-exports, except the
 * `import type` / `export type` ones, which type stripping erases (an `import { type A }` stays,
 * as an import of nothing that still loads the module).
 */
function loadedModules(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    const typeOnly =
      (ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly === true) ||
      (ts.isExportDeclaration(statement) && statement.isTypeOnly);
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : null;
    if (typeOnly || specifier === null || !specifier.startsWith(".")) return [];
    return [resolve(dirname(path), specifier)];
  });
}

/** Each cycle of modules that load one another, as the paths around it. */
function importCycles(files: readonly string[]): string[][] {
  const graph = new Map(files.map((file) => [file, loadedModules(file)]));
  const state = new Map<string, "open" | "done">();
  const cycles: string[][] = [];
  const visit = (file: string, path: string[]) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === "open") cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next, path);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file, []);
  return cycles.map((cycle) => cycle.map((file) => relative(root, file)));
}

describe("import cycles", () => {
  it("no module loads, through its imports, a module that loads it", () => {
    const files = SOURCE_ROOTS.flatMap((folder) => sourceFiles(join(root, folder)));
    expect(importCycles(files)).toEqual([]);
  });

  it("follows imports and re-exports, not `import type`", () => {
    const dir = mkdtempSync(join(tmpdir(), "import-cycles-"));
    const modules = {
      "a.ts": 'import { b } from "./b.ts";\nexport const a = b;\n',
      "b.ts": 'export { a } from "./a.ts";\nexport const b = 1;\n',
      "c.ts": 'import type { d } from "./d.ts";\nexport const c: typeof d = 1;\n',
      "d.ts": 'import { c } from "./c.ts";\nexport const d = c;\n',
    };
    for (const [name, text] of Object.entries(modules)) writeFileSync(join(dir, name), text);
    const cycles = importCycles(Object.keys(modules).map((name) => join(dir, name)));
    expect(cycles.map((cycle) => cycle.map((file) => basename(file)))).toEqual([
      ["a.ts", "b.ts", "a.ts"],
    ]);
  });
});
