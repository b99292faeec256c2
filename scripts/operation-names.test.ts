import { OperationSchema } from "../packages/api/src/operations/registry.ts";
import { ROUTED_OPERATIONS } from "../packages/testbed/src/operations/registry.ts";
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
/** The client side: everything but the testbed, a server of its own with its own names. */
const CLIENT_ROOTS = [
  "packages/api/src",
  "packages/core/src",
  "packages/engine/src",
  "packages/report/src",
  "packages/backend/src",
  "packages/store/src",
  "apps/cli/src",
  "apps/ui/src",
  "apps/web/src",
  "electron/src",
];
const TESTBED_ROOT = "packages/testbed/src";
/** Where an operation's name belongs: its modules and their registries. */
const OPERATION_MODULES = ["packages/api/src/operations/", "packages/engine/src/operations/"];
const TESTBED_OPERATION_MODULES = "packages/testbed/src/operations/";
/**
 * The files of an operations folder every file may import: its registry, the interface its
 * modules implement, and the parts they share. Any other is one operation's own module.
 */
const SHARED_MODULES = new Set([
  "registry.ts",
  "operation-entry.ts",
  "engine-operation.ts",
  "testbed-operation.ts",
  "request-parts.ts",
]);
/**
 * Files that still spell some operation's name, each with the names it may: a rule about
 * operations that has not moved into their modules yet. The list only shrinks: a file or a name
 * not on it fails the test.
 */
const NOT_MOVED_YET: Record<string, readonly string[]> = {
  // Other tools' words for our operations, as their output files spell them.
  "packages/core/src/elbencho-import.ts": [
    "CREATE_BUCKET",
    "DELETE_BUCKET",
    "DELETE_OBJECTS",
    "LIST",
  ],
  "packages/core/src/warp-csv-import.ts": ["LIST", "UPLOAD_PART"],
  // The connection test times one request of each and names it.
  "packages/backend/src/app/connection-test.ts": ["LIST", "LIST_BUCKETS"],
};

/** HTTP's methods are spelled as methods everywhere; only names that are nothing else are checked. */
const HTTP_METHODS = new Set(["GET", "PUT", "HEAD", "DELETE", "POST"]);
const CHECKED_NAMES: ReadonlySet<string> = new Set(
  OperationSchema.options.filter((op) => !HTTP_METHODS.has(op)),
);
/** The testbed's names are S3's (CopyObject, UploadPart…), which nothing else is called. */
const TESTBED_NAMES: ReadonlySet<string> = new Set(
  ROUTED_OPERATIONS.map((operation) => operation.name),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules" || entry.name === "test-support") return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const isTest = /\.(test|spec)\.tsx?$/.test(entry.name);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") && !isTest ? [path] : [];
  });
}

function parsed(path: string, text = readFileSync(path, "utf8")): ts.SourceFile {
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
}

/** The names a file's code spells as strings (comments are prose, and free to name them). */
function spelledNames(
  path: string,
  text?: string,
  checked: ReadonlySet<string> = CHECKED_NAMES,
): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) && checked.has(node.text)) names.add(node.text);
    node.forEachChild(visit);
  };
  visit(parsed(path, text));
  return names;
}

/** The files under root a file imports by a relative path. */
function importedFiles(path: string): string[] {
  return parsed(path).statements.flatMap((statement) => {
    const isImport = ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement);
    const specifier = isImport ? statement.moduleSpecifier : undefined;
    if (specifier === undefined || !ts.isStringLiteral(specifier)) return [];
    if (!specifier.text.startsWith(".")) return [];
    return [relative(root, resolve(dirname(path), specifier.text))];
  });
}

const inOperationModules = (path: string) =>
  [...OPERATION_MODULES, TESTBED_OPERATION_MODULES].some((dir) => path.startsWith(dir));

describe("operation names", () => {
  const files = CLIENT_ROOTS.flatMap((dir) => sourceFiles(join(root, dir))).map((path) => ({
    path: relative(root, path),
    names: spelledNames(path),
  }));

  it("are spelled only in the operations' modules and registries", () => {
    const outside = files.flatMap(({ path, names }) => {
      if (OPERATION_MODULES.some((dir) => path.startsWith(dir))) return [];
      const allowed = new Set(NOT_MOVED_YET[path] ?? []);
      const stray = [...names].filter((name) => !allowed.has(name));
      return stray.length > 0 ? [`${path}: ${stray.join(", ")}`] : [];
    });
    expect(outside).toEqual([]);
  });

  it("leave no file on the not-moved list that no longer spells them", () => {
    const stale = Object.entries(NOT_MOVED_YET).flatMap(([path, allowed]) => {
      const spelled = files.find((file) => file.path === path)?.names ?? new Set<string>();
      const gone = allowed.filter((name) => !spelled.has(name));
      return gone.length > 0 ? [`${path}: ${gone.join(", ")}`] : [];
    });
    expect(stale).toEqual([]);
  });

  it("finds a name spelled in a module outside them, not one named in a comment", () => {
    expect(CHECKED_NAMES.has("COPY")).toBe(true);
    const source = 'const op = "COPY"; // DELETE_OBJECTS\nconst ops = [`LIST`];';
    expect(spelledNames("outside.ts", source)).toEqual(new Set(["COPY", "LIST"]));
  });

  it("are spelled by the testbed only in its operations' modules and registry", () => {
    const outside = sourceFiles(join(root, TESTBED_ROOT)).flatMap((file) => {
      const path = relative(root, file);
      if (path.startsWith(TESTBED_OPERATION_MODULES)) return [];
      const names = [...spelledNames(file, undefined, TESTBED_NAMES)];
      return names.length > 0 ? [`${path}: ${names.join(", ")}`] : [];
    });
    expect(TESTBED_NAMES.has("CopyObject")).toBe(true);
    expect(outside).toEqual([]);
  });
});

describe("operation modules", () => {
  it("are imported only through their registry, outside the operations' folders", () => {
    const roots = [...CLIENT_ROOTS, TESTBED_ROOT];
    const reaching = roots.flatMap((dir) =>
      sourceFiles(join(root, dir)).flatMap((file) => {
        const path = relative(root, file);
        if (inOperationModules(path)) return [];
        const modules = importedFiles(file).filter(
          (imported) => inOperationModules(imported) && !SHARED_MODULES.has(basename(imported)),
        );
        return modules.map((module) => `${path} imports ${module}`);
      }),
    );
    expect(reaching).toEqual([]);
  });
});
