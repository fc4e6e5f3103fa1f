import { findServiceFile } from '../config/find';
import { readServiceFileText } from '../config/read-file';

/**
 * Whether the service file in `cwd` (or `--config`) might list plugins: one read (kept for the
 * configuration's loading, which then reads nothing), no parsing, so that `fw` in a service without
 * plugins loads nothing more than before.
 */
export function servicePluginsMentioned(argv: string[], cwd: string): boolean {
  let explicit: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--config=')) explicit = argv[i].slice('--config='.length);
    else if ((argv[i] === '--config' || argv[i] === '-c') && i + 1 < argv.length) explicit = argv[i + 1];
  }
  try {
    const file = findServiceFile(cwd, explicit).path;
    // A service file in code may add constructs: every command then knows `${construct:…}`.
    if (/\.[cm]?[jt]s$/.test(file)) (require('./constructs') as typeof import('./constructs')).installConstructSource();
    return /\bplugins\b/.test(readServiceFileText(file, file));
  } catch {
    return false;
  }
}
