import { join, sep } from 'node:path';
import type { SourceFile } from './files';

/**
 * What a package may take on trust from fw dev's watcher: files it saw no event for since the last
 * package began are as that package read them.
 */
export interface WatchedTrust {
  /** The walk of `root` with these pruned folders, reused when no file or folder was added or removed since it was made. */
  walk(key: string, walk: () => SourceFile[]): SourceFile[];
  /** Whether the watcher saw no change of this file since the last package began (one reached through a symbolic link: never). */
  unchanged(file: SourceFile): boolean;
}

/**
 * fw dev's watcher's knowledge between two packages of one process (the watcher sees every file of the
 * service folder but .git and .serverless, node_modules included), so that a package after a one-file
 * change reads only what changed: the last walk of the folder is reused when nothing was added or
 * removed, and a file without a change event is taken from the last package's zip without a stat.
 * A package gets that trust only when the previous one began after the watcher was ready and
 * finished; after a watcher error nothing is trusted again.
 */
export class WatchedFiles {
  private changed = new Set<string>();
  private added = false;
  /** Whether the last package began while the watcher was watching, and finished. */
  private baseline = false;
  private failed = false;
  private readonly walks = new Map<string, SourceFile[]>();

  /** `root`: the service folder as the watcher names it, without symbolic links (realpath). */
  constructor(private readonly root: string) {}

  /** Where a file found at `path` (forward slashes, relative to the root) is when no link led there. */
  private pathOf(path: string): string {
    return sep === '/' ? `${this.root}/${path}` : join(this.root, ...path.split('/'));
  }

  /** A watcher event: `change` of a file, or anything else (add, unlink, addDir, unlinkDir). */
  note(event: string, abs: string): void {
    this.changed.add(abs);
    if (event !== 'change') this.added = true;
  }

  /** The watcher failed: from now on every package walks and stats everything. */
  fail(): void {
    this.failed = true;
  }

  /**
   * Called as a package begins (with the watcher ready): what it may trust, or undefined; `done(ok)`
   * once it has written its zips and index (or failed, when the next package trusts nothing).
   */
  begin(): { trust: WatchedTrust; done: (ok: boolean) => void } {
    const changed = this.changed;
    const trusted = this.baseline && !this.failed;
    // A walk made now is reused by the next package (if nothing is added meanwhile); one made before is reused now if nothing was.
    if (!trusted || this.added) this.walks.clear();
    this.changed = new Set();
    this.added = false;
    this.baseline = false;
    const trust: WatchedTrust = {
      walk: (key, walk) => {
        let files = this.walks.get(key);
        if (!files) this.walks.set(key, (files = walk()));
        return files;
      },
      // The watcher names a file by where it was found; the walk by where a link led (then not trusted).
      unchanged: file => trusted && file.abs === this.pathOf(file.path) && !changed.has(file.abs),
    };
    return {
      trust,
      done: ok => {
        this.baseline = ok && !this.failed;
        if (!ok) this.walks.clear();
      },
    };
  }
}
