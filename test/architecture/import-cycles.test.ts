import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const SRC = join(__dirname, '..', '..', '..', 'src');
const ARCHITECTURE = join(__dirname, '..', '..', '..', 'docs', 'architecture.md');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Whether an import or re-export brings in types only (erased from the JavaScript). */
function typeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) {
    return statement.isTypeOnly || (!!statement.exportClause && ts.isNamedExports(statement.exportClause) && statement.exportClause.elements.every((element) => element.isTypeOnly));
  }
  const clause = statement.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return !clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

/** The files of `src/` a file imports by relative path, re-exports included; type-only ones when `withTypes`. */
function importsOf(file: string, withTypes = true): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) return [];
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return [];
    if (!withTypes && typeOnly(statement)) return [];
    const base = resolve(dirname(file), specifier.text.replace(/\.js$/, ''));
    const found = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
    return found ? [found] : [];
  });
}

/** Every import cycle among `files` (Tarjan's strongly connected components), each as a list of paths relative to `src/`. */
function cycles(files: string[], withTypes: boolean): string[][] {
  const graph = new Map(files.map((file) => [file, importsOf(file, withTypes)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(relative(SRC, member));
    } while (member !== file);
    const selfImport = graph.get(file)!.includes(file);
    if (component.length > 1 || selfImport) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

const importCycles = suite('import cycles');

importCycles('no file of src/local/ imports itself through others, type-only imports included', () => {
  assert.equal(cycles(sourceFiles(join(SRC, 'local')), true), []);
});

importCycles('no file of src/constructs/ imports itself through others at run time', () => {
  assert.equal(cycles(sourceFiles(join(SRC, 'constructs')), false), []);
});

importCycles('only the composition root and its entry points import src/local/cloud.ts', () => {
  const cloud = join(SRC, 'local', 'cloud.ts');
  const importers = sourceFiles(join(SRC, 'local'))
    .filter((file) => importsOf(file).includes(cloud))
    .map((file) => relative(SRC, file));
  assert.equal(importers.sort(), ['local/index.ts', 'local/server.ts']);
});

importCycles('an import that brings types only is told apart from one that runs', () => {
  const statements = ts.createSourceFile('a.ts', "import type { A } from './a';\nimport { type B } from './b';\nimport { type C, D } from './c';\nexport type { E } from './e';\nimport './f';\n", ts.ScriptTarget.Latest).statements;
  assert.equal(statements.map((statement) => typeOnly(statement as ts.ImportDeclaration)), [true, true, false, true, false]);
});

/**
 * Every file of `src/` a file depends on, by any means: `import` and `export … from` (type-only
 * included), `require('…')`, `import('…')` (calls and `typeof import('…')` types).
 */
function dependenciesOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      if ((ts.isIdentifier(callee) && callee.text === 'require') || callee.kind === ts.SyntaxKind.ImportKeyword) specifiers.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) specifiers.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.flatMap((specifier) => {
    if (!specifier.startsWith('.')) return [];
    const base = resolve(dirname(file), specifier.replace(/\.js$/, ''));
    const found = [`${base}.ts`, join(base, 'index.ts'), base].find((candidate) => existsSync(candidate) && statSync(candidate).isFile() && candidate.startsWith(SRC));
    return found ? [found] : [];
  });
}

/** The layers of docs/architecture.md's "Layers" section, top first. */
function documentedLayers(): string[] {
  const text = readFileSync(ARCHITECTURE, 'utf8');
  const section = text.slice(text.indexOf('## Layers'));
  const block = /```\n([\s\S]*?)```/.exec(section)![1];
  return block.trim().split('\n').map((line) => line.split(/\s+/)[0]);
}

/** A file's layer: its folder under `src/`, `index` for src/index.ts, `base` for the other files at the root. */
function layerOf(file: string): string {
  const parts = relative(SRC, file).split(/[\\/]/);
  if (parts.length > 1) return parts[0];
  return parts[0] === 'index.ts' ? 'index' : 'base';
}

importCycles('every folder and file of src/ has a layer in docs/architecture.md', () => {
  const layers = new Set(documentedLayers());
  const unplaced = [...new Set(sourceFiles(SRC).map(layerOf))].filter((layer) => !layers.has(layer));
  assert.equal(unplaced, []);
});

importCycles('folders import only downward in the order docs/architecture.md draws, type-only imports included', () => {
  const rank = new Map(documentedLayers().map((layer, index) => [layer, index]));
  const upward = sourceFiles(SRC).flatMap((file) =>
    [...new Set(dependenciesOf(file))]
      .filter((target) => rank.get(layerOf(target))! < rank.get(layerOf(file))!)
      .map((target) => `${relative(SRC, file)} -> ${relative(SRC, target)}`),
  );
  assert.equal(upward.sort(), []);
});

importCycles('no two folders of src/ import each other, even through others', () => {
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    for (const target of dependenciesOf(file)) {
      if (layerOf(file) === layerOf(target)) continue;
      if (!edges.has(layerOf(file))) edges.set(layerOf(file), new Set());
      edges.get(layerOf(file))!.add(layerOf(target));
    }
  }
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
    [...(edges.get(from) ?? [])].some((next) => next === to || (!seen.has(next) && seen.add(next) && reaches(next, to, seen)));
  const circles = [...edges.keys()].filter((layer) => reaches(layer, layer));
  assert.equal(circles, []);
});

importCycles('a require() and a typeof import() count as imports', () => {
  const file = join(SRC, 'deploy', 'connect.ts');
  const found = dependenciesOf(file).map((target) => relative(SRC, target));
  assert.ok(found.includes('local/state/data-dir.ts'), found.join(', '));
  assert.ok(found.includes('local/cloudformation/engine.ts'), found.join(', '));
});

importCycles('the test would catch a folder that imports one above it', () => {
  const rank = new Map(documentedLayers().map((layer, index) => [layer, index]));
  assert.ok(rank.get('cli')! < rank.get('aws')!);
  assert.ok(rank.get('aws')! < rank.get('base')!);
  assert.is(layerOf(join(SRC, 'errors.ts')), 'base');
  assert.is(layerOf(join(SRC, 'index.ts')), 'index');
  assert.is(layerOf(join(SRC, 'aws', 'clients.ts')), 'aws');
});

importCycles.run();
