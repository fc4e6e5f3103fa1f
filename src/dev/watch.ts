import { join, relative, sep } from 'node:path';

/** Folders whose changes are fw's own output or not the service's source. */
const IGNORED_FOLDERS = new Set(['node_modules', '.git', '.serverless']);

/** Folders not watched at all: version control and fw's own output. */
const UNWATCHED_FOLDERS = new Set(['.git', '.serverless']);

const parts = (serviceDir: string, path: string) => relative(serviceDir, path).split(sep);
const isStaging = (part: string) => part.startsWith('.serverless.tmp-');

/** Whether a change under the service folder starts no round: inside node_modules, .git, .serverless or a packaging staging folder. */
export function isIgnored(serviceDir: string, path: string): boolean {
  return parts(serviceDir, path).some(part => IGNORED_FOLDERS.has(part) || isStaging(part));
}

/** Whether a path is not watched: inside .git, .serverless or a staging folder (node_modules is, to know what changed there). */
function isUnwatched(serviceDir: string, path: string): boolean {
  return parts(serviceDir, path).some(part => UNWATCHED_FOLDERS.has(part) || isStaging(part));
}

export interface ServiceWatcher {
  /** Resolves once the folder is being watched. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Watches the service folder (chokidar: Node 20.0's recursive fs.watch reports nothing on Linux) and
 * calls `onChange` with the changed paths, relative and sorted, once a burst of changes has been
 * quiet for `debounceMs`; `firstAt` is when the burst's first change was seen (performance.now()).
 * node_modules is watched too, without starting rounds: `onEvent` hears of every event (absolute path),
 * so that packaging knows which files it need not look at again.
 */
export function watchService(
  serviceDir: string,
  onChange: (files: string[], firstAt: number) => void,
  onError: (error: Error) => void,
  debounceMs = 100,
  onEvent: (event: string, path: string) => void = () => undefined,
): ServiceWatcher {
  const { watch } = require('chokidar') as typeof import('chokidar');
  const watcher = watch(serviceDir, { ignored: path => isUnwatched(serviceDir, path), ignoreInitial: true });
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let firstAt = 0;
  watcher.on('all', (event, path) => {
    const abs = join(path);
    onEvent(event, abs);
    if (isIgnored(serviceDir, abs)) return;
    if (changed.size === 0) firstAt = performance.now();
    changed.add(relative(serviceDir, abs));
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed].sort();
      changed.clear();
      onChange(files, firstAt);
    }, debounceMs);
  });
  watcher.on('error', error => onError(error as Error));
  return {
    ready: new Promise(resolve => watcher.once('ready', () => resolve())),
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
