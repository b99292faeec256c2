import { OperationSchema } from "../packages/api/src/operations/registry.ts";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
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
/** Where an operation's name belongs: its modules and their registries. */
const OPERATION_MODULES = ["packages/api/src/operations/", "packages/engine/src/operations/"];
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

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules" || entry.name === "test-support") return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const isTest = /\.(test|spec)\.tsx?$/.test(entry.name);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") && !isTest ? [path] : [];
  });
}

/** The operation names a file's code spells as strings (comments are prose, and free to name them). */
function spelledNames(path: string, text = readFileSync(path, "utf8")): Set<string> {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) && CHECKED_NAMES.has(node.text)) names.add(node.text);
    node.forEachChild(visit);
  };
  visit(source);
  return names;
}

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
});
