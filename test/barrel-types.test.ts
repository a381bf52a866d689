// A type that a public declaration names must be importable: every type an export of a barrel refers to
// (through its signature, its fields, and the fields of the types they name), when declared in one of the
// packages, is exported by some barrel. A review (2026-12-07) found two that were not: ReportGrid's
// `seed_cells` (SeedCell) and BackendContext's `stop` (BudgetShare), which a script could read but not name.
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;
const BARRELS = ['core/src/index.ts', 'stats/src/index.ts', 'tasks/src/index.ts', 'tasks/src/adapter.ts', 'prove/src/index.ts', 'models/src/index.ts'];

/** Types declared in the packages' sources that an export names, directly or through other such types, but no barrel exports. */
function unexportedTypes(): Record<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (config === undefined) throw new Error('tsconfig.json does not parse');
  const roots = BARRELS.map((b) => join(ROOT, 'packages', b));
  const program = ts.createProgram(roots, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const resolve = (s: ts.Symbol): ts.Symbol => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  const exported = new Set<ts.Symbol>();
  const queue: [ts.Symbol, string][] = [];
  for (const root of roots) {
    const file = program.getSourceFile(root);
    const module = file && checker.getSymbolAtLocation(file);
    if (module === undefined) throw new Error(`${root} is not a module`);
    for (const e of checker.getExportsOfModule(module)) {
      exported.add(resolve(e));
      queue.push([resolve(e), e.name]);
    }
  }
  const inPackages = (f: string): boolean => f.startsWith(join(ROOT, 'packages')) && f.includes('/src/') && !f.includes('/node_modules/');
  const missing = new Map<string, Set<string>>();
  const seen = new Set<ts.Symbol>();
  const visit = (node: ts.Node, from: string): void => {
    if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
      const at = ts.isTypeReferenceNode(node) ? node.typeName : node.expression;
      const raw = checker.getSymbolAtLocation(at);
      const sym = raw && resolve(raw);
      const decl = sym?.declarations?.[0];
      if (sym && decl && !(sym.flags & ts.SymbolFlags.TypeParameter) && inPackages(decl.getSourceFile().fileName)) {
        if (!exported.has(sym)) {
          const key = `${sym.name} (${decl.getSourceFile().fileName.slice(ROOT.length)})`;
          missing.set(key, (missing.get(key) ?? new Set()).add(from));
        }
        queue.push([sym, `${from} > ${sym.name}`]);
      }
    }
    // Function bodies are not the contract: only what a declaration file would show.
    if (ts.isBlock(node)) return;
    ts.forEachChild(node, (c) => visit(c, from));
  };
  while (queue.length > 0) {
    const [sym, from] = queue.shift() as [ts.Symbol, string];
    if (seen.has(sym)) continue;
    seen.add(sym);
    for (const d of sym.declarations ?? []) {
      if (ts.isVariableDeclaration(d) && d.type === undefined) continue; // an inferred const: its type is its value's
      if (ts.isClassDeclaration(d)) {
        for (const m of d.members) {
          const mods = ts.canHaveModifiers(m) ? ts.getModifiers(m) : undefined;
          if (mods?.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword) || (m.name !== undefined && ts.isPrivateIdentifier(m.name))) continue;
          visit(m, from);
        }
        for (const h of d.heritageClauses ?? []) visit(h, from);
        continue;
      }
      visit(d, from);
    }
  }
  return Object.fromEntries([...missing].map(([k, v]) => [k, [...v].sort().slice(0, 3)]));
}

describe('the barrels export every type their exports name', () => {
  it('has no public declaration naming a type a script cannot import', () => {
    expect(unexportedTypes()).toEqual({});
  }, 60_000);
});
