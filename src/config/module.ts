import { packageRoot } from '../paths';
import { importEsm } from '../import-module';
import Module from 'node:module';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../errors';
import { FW_MODULE_NAMES } from '../fw-module';
import { syntaxError } from '../formats/code-frame';
import { checkReadableFile } from './read-file';
import { settleConfig } from './settle';

/**
 * Loads a JavaScript or TypeScript file the way a service file or a
 * `${file(x.js)}` needs it: CommonJS or ESM, `.ts` without a build step
 * (esbuild strips the types and never type-checks, so a type error does not
 * block loading). Returns the default export, or `module.exports`.
 */
export async function importModule(path: string): Promise<unknown> {
  const shown = relative(process.cwd(), path) || path;
  installFwAlias();
  checkReadableFile(path, shown);
  try {
    switch (extname(path)) {
      case '.mjs':
        return defaultExport(await importEsm(pathToFileURL(path).href));
      case '.cjs':
        return defaultExport(requireFresh(path));
      case '.ts':
      case '.mts':
      case '.cts':
        return await withTypeScriptImports(path, () => loadTranspiled(path, 'ts', shown));
      default:
        return await loadJavaScript(path, shown);
    }
  } catch (error) {
    throw asConfigError(error, path, shown);
  }
}

/**
 * While a TypeScript file loads, what it imports loads as Serverless v3 loads it (through ts-node,
 * with tsconfig-paths where the tsconfig asks for it): `.ts` files it imports are compiled as it is
 * (`./src/functions/hello` finds `hello.ts` or `hello/index.ts`), and the `compilerOptions.paths`
 * of the nearest tsconfig.json (`@functions/*`, following `extends`) resolve. Undone afterwards.
 */
async function withTypeScriptImports<T>(path: string, load: () => Promise<T>): Promise<T> {
  const extensions = (Module as unknown as { _extensions: Record<string, ((module: Module, filename: string) => void) | undefined> })._extensions;
  const withResolve = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
  const ownTs = extensions['.ts'];
  const resolveFilename = withResolve._resolveFilename;
  if (!ownTs) {
    extensions['.ts'] = (module, filename) => {
      const { transformSync } = require('esbuild') as typeof import('esbuild');
      const source = readFileSync(filename, 'utf8');
      let code: string;
      try {
        code = transformSync(source, { loader: 'ts', sourcefile: basename(filename), platform: 'node', target: 'node20', sourcemap: 'inline', format: 'cjs' }).code;
      } catch (error) {
        throw transpileError(error, relative(process.cwd(), filename) || filename, source);
      }
      (module as unknown as { _compile(code: string, file: string): void })._compile(code, filename);
    };
  }
  const paths = tsconfigPaths(dirname(path));
  if (paths.length > 0) {
    withResolve._resolveFilename = function resolveMapped(request: string, ...rest: unknown[]): string {
      try {
        return resolveFilename.call(this, request, ...rest);
      } catch (error) {
        if (request.startsWith('.') || request.startsWith('/')) throw error;
        for (const { prefix, suffix, targets } of paths) {
          if (!request.startsWith(prefix) || !request.endsWith(suffix) || request.length < prefix.length + suffix.length) continue;
          const star = request.slice(prefix.length, request.length - suffix.length);
          for (const target of targets) {
            try {
              return resolveFilename.call(this, target.replace('*', star), ...rest);
            } catch {
              // the next target
            }
          }
        }
        throw error;
      }
    };
  }
  try {
    return await load();
  } finally {
    if (!ownTs) delete extensions['.ts'];
    withResolve._resolveFilename = resolveFilename;
  }
}

interface PathMapping {
  prefix: string;
  suffix: string;
  /** Absolute paths, `*` where the matched part goes. */
  targets: string[];
}

/** `compilerOptions.paths` of the nearest tsconfig.json above `dir` (its `extends` chain followed), longest prefix first. */
function tsconfigPaths(dir: string): PathMapping[] {
  let file: string | undefined;
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'tsconfig.json'))) {
      file = join(at, 'tsconfig.json');
      break;
    }
    if (dirname(at) === at) return [];
  }
  let baseUrl: string | undefined;
  let paths: { value: Record<string, unknown>; dir: string } | undefined;
  for (let depth = 0; file && depth < 10; depth++) {
    let config: { extends?: unknown; compilerOptions?: { baseUrl?: unknown; paths?: unknown } };
    try {
      config = JSON.parse(withoutJsonComments(readFileSync(file, 'utf8')));
    } catch {
      break;
    }
    const options = config.compilerOptions ?? {};
    if (baseUrl === undefined && typeof options.baseUrl === 'string') baseUrl = resolve(dirname(file), options.baseUrl);
    if (paths === undefined && options.paths !== null && typeof options.paths === 'object') paths = { value: options.paths as Record<string, unknown>, dir: dirname(file) };
    const parent: string | undefined = typeof config.extends === 'string' && config.extends.startsWith('.') ? resolve(dirname(file), config.extends) : undefined;
    file = parent === undefined ? undefined : existsSync(parent) ? parent : existsSync(`${parent}.json`) ? `${parent}.json` : undefined;
  }
  if (!paths) return [];
  const base = baseUrl ?? paths.dir;
  return Object.entries(paths.value)
    .filter((entry): entry is [string, string[]] => Array.isArray(entry[1]))
    .map(([pattern, targets]) => {
      const star = pattern.indexOf('*');
      return {
        prefix: star < 0 ? pattern : pattern.slice(0, star),
        suffix: star < 0 ? '' : pattern.slice(star + 1),
        targets: targets.filter((target) => typeof target === 'string').map((target) => resolve(base, target)),
      };
    })
    .sort((a, b) => b.prefix.length - a.prefix.length);
}

/** tsconfig.json is JSON with comments and trailing commas. */
function withoutJsonComments(text: string): string {
  return text
    .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_match, string: string | undefined) => string ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
}

async function loadJavaScript(path: string, shown: string): Promise<unknown> {
  if (packageType(dirname(path)) === 'module') return defaultExport(await importEsm(pathToFileURL(path).href));
  try {
    return defaultExport(requireFresh(path));
  } catch (error) {
    // ESM syntax in a file Node takes for CommonJS: compile it instead of failing.
    const code = (error as { code?: string }).code;
    if (error instanceof SyntaxError || code === 'ERR_REQUIRE_ESM' || code === 'ERR_REQUIRE_ASYNC_MODULE') {
      return loadTranspiled(path, 'js', shown);
    }
    throw error;
  }
}

function requireFresh(path: string): unknown {
  const resolved = require.resolve(path);
  delete require.cache[resolved];
  return require(resolved);
}

/** `export default x` compiled to CommonJS arrives as `{ __esModule, default }`. */
function defaultExport(exports: unknown): unknown {
  if (exports !== null && typeof exports === 'object' && 'default' in exports) {
    const namespace = exports as { default: unknown; __esModule?: boolean; [Symbol.toStringTag]?: string };
    if (namespace.__esModule || namespace[Symbol.toStringTag] === 'Module' || Object.keys(exports).length === 1) return namespace.default;
  }
  return exports;
}

async function loadTranspiled(path: string, loader: 'ts' | 'js', shown: string): Promise<unknown> {
  const { transformSync } = require('esbuild') as typeof import('esbuild');
  const source = readFileSync(path, 'utf8');
  const options = { loader, sourcefile: basename(path), platform: 'node', target: 'node20', sourcemap: 'inline' } as const;
  let code: string;
  try {
    code = transformSync(source, { ...options, format: 'cjs' }).code;
  } catch (error) {
    if (!/top-level await/i.test(String((error as Error).message))) throw transpileError(error, shown, source);
    // Top-level await needs ESM: write it next to the source so relative imports still resolve.
    let esm: string;
    try {
      esm = transformSync(source, { ...options, format: 'esm' }).code;
    } catch (again) {
      throw transpileError(again, shown, source);
    }
    const fwUrl = pathToFileURL(fwEntry()).href;
    esm = esm.replace(/(from\s*|import\s*\(\s*)(["'])(fw|fw-deploy)\2/g, (_match, head: string) => `${head}${JSON.stringify(fwUrl)}`);
    const temp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.mjs`);
    const removeTemp = removedOnExit(temp);
    writeFileSync(temp, esm);
    try {
      return defaultExport(await settleConfig(importEsm(pathToFileURL(temp).href), shown));
    } finally {
      removeTemp();
    }
  }
  const mod = new Module(path, module);
  mod.filename = path;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(path));
  (mod as unknown as { _compile(code: string, file: string): void })._compile(code, path);
  return defaultExport(mod.exports);
}

/**
 * Makes sure `temp` is gone however the run ends: normally (call the returned function), on
 * `process.exit`, or on Ctrl-C / SIGTERM (removed, then the signal is raised again so the
 * process still ends the way the signal means).
 */
function removedOnExit(temp: string): () => void {
  const remove = () => rmSync(temp, { force: true });
  const onSignal = (signal: NodeJS.Signals) => {
    release();
    process.kill(process.pid, signal);
  };
  const release = () => {
    remove();
    process.off('exit', remove);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.once('exit', remove);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return release;
}

function transpileError(error: unknown, shown: string, source: string): ConfigError {
  const first = (error as { errors?: Array<{ text: string; location?: { line: number; column: number } }> }).errors?.[0];
  if (!first) return new ConfigError(`Cannot parse ${shown}: ${(error as Error).message}`);
  return syntaxError(shown, source, first.text, first.location ? { line: first.location.line, column: first.location.column + 1 } : undefined);
}

/** "Cannot load fw.js: boom (fw.js:3:9)" — the file, the error, and where in the file it happened. */
export function asConfigError(error: unknown, path: string, shown: string): ConfigError {
  if (error instanceof ConfigError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? error.stack ?? '' : '';
  const frame = stack
    .split('\n')
    .map((line) => line.includes(path) || line.includes(pathToFileURL(path).href) ? /:(\d+):(\d+)\)?\s*$/.exec(line) : null)
    .find((match) => match !== null);
  const where = frame ? ` (${shown}:${frame[1]}:${frame[2]})` : '';
  return new ConfigError(`Cannot load ${shown}: ${message}${where}`);
}

function packageType(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    try {
      const file = join(current, 'package.json');
      if (statSync(file).isFile()) return (JSON.parse(readFileSync(file, 'utf8')) as { type?: string }).type ?? 'commonjs';
    } catch {
      // no (readable) package.json here; look further up
    }
    if (dirname(current) === current) return undefined;
  }
}

/** This package's entry point, which `import … from 'fw-deploy'` (or `'fw'`) inside a service file means. */
function fwEntry(): string {
  // From the package root: this code runs both from dist/src/config and bundled in dist/fw.js.
  return join(packageRoot, 'dist', 'src', 'index.js');
}

let aliasInstalled = false;

/**
 * `import { defineConfig } from 'fw-deploy'` in fw.ts must work even when fw is only
 * installed globally: when Node cannot find `fw-deploy` (or `fw`) from the service folder, it
 * gets the running fw.
 */
function installFwAlias(): void {
  if (aliasInstalled) return;
  aliasInstalled = true;
  const moduleWithResolve = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
  const original = moduleWithResolve._resolveFilename;
  moduleWithResolve._resolveFilename = function resolveFilename(request: string, ...rest: unknown[]): string {
    try {
      return original.call(this, request, ...rest);
    } catch (error) {
      if (FW_MODULE_NAMES.has(request)) return fwEntry();
      throw error;
    }
  };
}
