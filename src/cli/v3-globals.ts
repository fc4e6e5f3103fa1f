import type { Writable } from 'node:stream';

/** The global options of Serverless v3 as a command holds them (fields of ServiceCommand and GlobalCommand). */
export interface V3Globals {
  verbose: boolean;
  debug?: string | boolean;
  showVersion?: boolean;
  app?: string;
  org?: string;
  useLocalCredentials?: boolean;
}

/**
 * What v3's global options do in fw, before a command runs: `--version` prints the version (the
 * command then does not run: returns true); `--debug` turns on `--verbose` and plugins' debug logs;
 * the Serverless Dashboard options (`--app`, `--org`, `--use-local-credentials`) say in one line that
 * fw ignores them. Returns undefined when the command must not run, else what undoes `--debug`'s
 * environment once it has.
 */
export function acceptV3Globals(command: V3Globals, stderr: Writable, stdout: Writable): (() => void) | undefined {
  if (command.showVersion) {
    const { version } = require('../version') as typeof import('../version');
    stdout.write(`${version}\n`);
    return undefined;
  }
  let restore = () => {};
  if (command.debug !== undefined && process.env.SLS_DEBUG === undefined) {
    command.verbose = true;
    process.env.SLS_DEBUG = typeof command.debug === 'string' ? command.debug : '*';
    restore = () => delete process.env.SLS_DEBUG;
  }
  const dashboard = [
    command.app !== undefined ? '--app' : undefined,
    command.org !== undefined ? '--org' : undefined,
    command.useLocalCredentials ? '--use-local-credentials' : undefined,
  ].filter(Boolean);
  if (dashboard.length > 0) stderr.write(`${dashboard.join(', ')}: Serverless Dashboard option${dashboard.length > 1 ? 's' : ''}, ignored (fw has no dashboard)\n`);
  return restore;
}

