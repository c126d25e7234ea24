// The import graph of a source folder, read with the TypeScript compiler's parser (no type
// checking): every `import` and `export ... from` (type-only ones included), `import("x")`
// expressions and `import("x").T` types, resolved to files of the folder. Cycles are found as the
// strongly connected components of the graph (Tarjan), each reported with one circle through it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** How a module uses the one it imports: evaluated with it, only for types, or loaded later. */
export type ImportKind = "value" | "type" | "dynamic";
export type ImportEdge = { from: string; to: string; kind: ImportKind };

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Whether an import declaration brings in types only (`import type`, or every name marked `type`). */
function typeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly)
  );
}

function typeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

function importsOf(file: string): { specifier: string; kind: ImportKind }[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const found: { specifier: string; kind: ImportKind }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, kind: typeOnlyImport(node) ? "type" : "value" });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, kind: typeOnlyExport(node) ? "type" : "value" });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, kind: "type" });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push({ specifier: argument.text, kind: "dynamic" });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The edges between the folder's own files (paths relative to `root`); packages are left out. */
export function importGraph(root: string, folder: string): ImportEdge[] {
  const files = sourceFiles(join(root, folder));
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    for (const { specifier, kind } of importsOf(file)) {
      if (!specifier.startsWith(".")) continue;
      const target = resolve(dirname(file), specifier);
      if (!known.has(target)) continue;
      edges.push({ from: relative(root, file), to: relative(root, target), kind });
    }
  }
  return edges;
}

/**
 * Every circle of imports among `edges`: one per strongly connected component, as a path that
 * closes, in the order of their first files. (A component with more files than its circle has
 * more circles through it; breaking the one shown shows the next.)
 */
export function importCycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (next.get(node) ?? []).includes(node)) components.push(component);
  };
  for (const node of next.keys()) if (!index.has(node)) connect(node);
  return components.map((component) => circleThrough(component, next)).sort((one, other) => one[0]!.localeCompare(other[0]!));
}

/** A shortest circle from the component's first file (alphabetically) back to itself, inside it. */
function circleThrough(component: string[], next: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    for (const target of next.get(queue[at]!) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const circle = [start];
        for (let node = queue[at]!; node !== start; node = previous.get(node)!) circle.splice(1, 0, node);
        return [...circle, start];
      }
      if (!previous.has(target)) {
        previous.set(target, queue[at]!);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
