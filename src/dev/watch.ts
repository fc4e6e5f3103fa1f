import { relative, sep } from 'node:path';

/** Folders whose changes are fw's own output or not the service's source. */
const IGNORED_FOLDERS = new Set(['node_modules', '.git', '.serverless']);

/** Whether a path under the service folder is ignored: inside node_modules, .git, .serverless or a packaging staging folder. */
export function isIgnored(serviceDir: string, path: string): boolean {
  return relative(serviceDir, path)
    .split(sep)
    .some(part => IGNORED_FOLDERS.has(part) || part.startsWith('.serverless.tmp-'));
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
 */
export function watchService(
  serviceDir: string,
  onChange: (files: string[], firstAt: number) => void,
  onError: (error: Error) => void,
  debounceMs = 100,
): ServiceWatcher {
  const { watch } = require('chokidar') as typeof import('chokidar');
  const watcher = watch(serviceDir, { ignored: path => isIgnored(serviceDir, path), ignoreInitial: true });
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let firstAt = 0;
  watcher.on('all', (_event, path) => {
    if (changed.size === 0) firstAt = performance.now();
    changed.add(relative(serviceDir, path));
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
