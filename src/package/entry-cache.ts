import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync, writeFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { ZipEntry } from '../artifacts/zip';

/** The index of the last package's compressed files, written beside its zips. */
export const ENTRY_CACHE_FILE = 'package-cache.json';
const FORMAT = 1;

/**
 * How long after a file's last change its stat can still be trusted to say nothing changed.
 * File systems keep times to 1 ns (ext4, APFS) … 2 s (FAT): a file changed twice within one tick
 * keeps its size and times. A file recorded less than this after its last change is "racy" (as
 * git calls it): its content hash is kept, and the next run reads and hashes it before reuse.
 */
const RACY_MS = 2_000;

/** What a file is recognised by, and where its compressed bytes are. */
interface CachedFile {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  executable: boolean;
  crc: number;
  method: 0 | 8;
  /** Length of the compressed (or stored) bytes. */
  dataLength: number;
  /** Zip (in the cache folder) and offset of the local header that precedes the bytes. */
  zip: string;
  offset: number;
  /** sha256 of the content, base64: set when the stat alone cannot be trusted (racy, generated). */
  hash?: string;
}

type Row = [number, number, number, number, 0 | 1, number, 0 | 8, number, string, number, string | null];

const contentHash = (content: Buffer) => createHash('sha256').update(content).digest('base64');

/** What the entry was made from, until it is written into a zip and recorded. */
interface Origin {
  key: string;
  stats?: Pick<Stats, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>;
  hash?: string;
}

/**
 * Compressed files of the last package, reused when a file has not changed: the bytes are read
 * back from the last package's zips (no copy is kept), so a package that changes one file
 * re-reads and re-deflates only that file. A file is recognised by path, size, mtime, ctime,
 * inode and execute bit; one changed within RACY_MS of being recorded must also hash the same.
 * A cached entry whose bytes are not where the index says (the zip was replaced or cut) is
 * not used. The bytes written are those a build from scratch writes: same deflate, same entry.
 */
export class EntryCache {
  private readonly previous = new Map<string, CachedFile>();
  private readonly next = new Map<string, CachedFile>();
  private readonly origins = new WeakMap<Buffer, Origin>();
  private readonly zips = new Map<string, ZipBytes | null>();
  /** Files changed after this are racy (packaging started, less the timestamp resolution). */
  private readonly racyAfter = Date.now() - RACY_MS;
  hits = 0;
  misses = 0;

  /** `from`: the folder of the last package (its index and zips); nothing there is an empty cache. */
  constructor(private readonly from: string) {
    let rows: Record<string, Row> = {};
    try {
      const index = JSON.parse(readFileSync(join(from, ENTRY_CACHE_FILE), 'utf8')) as { format?: number; files?: Record<string, Row> };
      if (index.format === FORMAT && index.files && typeof index.files === 'object') rows = index.files;
    } catch {
      // no index, or an unreadable one: nothing cached
    }
    for (const [key, row] of Object.entries(rows)) {
      if (!Array.isArray(row) || row.length !== 11) continue;
      const [size, mtimeMs, ctimeMs, ino, executable, crc, method, dataLength, zip, offset, hash] = row;
      this.previous.set(key, { size, mtimeMs, ctimeMs, ino, executable: executable === 1, crc, method, dataLength, zip, offset, ...(hash ? { hash } : {}) });
    }
  }

  /**
   * The entry of a file on disk, when the last package had it and its stat says it did not change
   * (`read` gives its content when only its hash can tell); undefined otherwise.
   */
  fileEntry(name: string, abs: string, stats: Stats, read: () => Buffer): ZipEntry | undefined {
    const cached = this.previous.get(abs);
    const executable = (stats.mode & 0o111) !== 0;
    if (
      !cached ||
      cached.size !== stats.size ||
      cached.mtimeMs !== stats.mtimeMs ||
      cached.ctimeMs !== stats.ctimeMs ||
      cached.ino !== stats.ino ||
      cached.executable !== executable
    ) {
      return this.miss();
    }
    let hash = cached.hash;
    if (hash !== undefined) {
      const now = contentHash(read());
      if (now !== hash) return this.miss();
      // No longer racy once it has stayed the same for RACY_MS.
      if (Math.max(stats.mtimeMs, stats.ctimeMs) < this.racyAfter) hash = undefined;
    }
    const entry = this.stored(name, cached, executable);
    if (!entry) return this.miss();
    this.hits++;
    this.origins.set(entry.data, { key: abs, stats, hash });
    return entry;
  }

  /**
   * The entry of a file that fw dev's watcher saw no change of since the last package began (no stat):
   * undefined when the last package did not have it or it was racy (then it is checked as usual).
   */
  trustedEntry(name: string, abs: string): ZipEntry | undefined {
    const cached = this.previous.get(abs);
    if (!cached || cached.hash !== undefined) return undefined;
    const entry = this.stored(name, cached, cached.executable);
    if (!entry) return undefined;
    this.hits++;
    this.origins.set(entry.data, { key: abs, stats: cached });
    return entry;
  }

  /**
   * The entry of generated content (a bundled handler) under `key`, when the last package had
   * the same bytes; `content` is hashed, never trusted by its size.
   */
  contentEntry(name: string, key: string, content: Buffer): ZipEntry | undefined {
    const cached = this.previous.get(key);
    const hash = contentHash(content);
    const entry = cached?.hash === hash && cached.size === content.length ? this.stored(name, cached, false) : undefined;
    if (entry) {
      this.hits++;
      this.origins.set(entry.data, { key, hash });
    } else this.misses++;
    return entry;
  }

  /** Notes what a freshly compressed file's entry was made from, so that it is cached once written. */
  madeFromFile(entry: ZipEntry, abs: string, stats: Stats, content: Buffer): void {
    const racy = Math.max(stats.mtimeMs, stats.ctimeMs) >= this.racyAfter;
    this.origins.set(entry.data, { key: abs, stats, hash: racy ? contentHash(content) : undefined });
  }

  /** Notes what generated content an entry holds (always cached by its hash). */
  madeFromContent(entry: ZipEntry, key: string, content: Buffer): void {
    this.origins.set(entry.data, { key, hash: contentHash(content) });
  }

  /** Records where an entry was written; the first zip that holds a file is where the next run reads it. */
  written(entry: ZipEntry, zip: string, offset: number): void {
    const origin = this.origins.get(entry.data);
    if (!origin || this.next.has(origin.key)) return;
    const stats = origin.stats;
    this.next.set(origin.key, {
      size: stats?.size ?? entry.size,
      mtimeMs: stats?.mtimeMs ?? 0,
      ctimeMs: stats?.ctimeMs ?? 0,
      ino: stats?.ino ?? 0,
      executable: entry.executable,
      crc: entry.crc,
      method: entry.method,
      dataLength: entry.data.length,
      zip,
      offset,
      ...(origin.hash ? { hash: origin.hash } : {}),
    });
  }

  /** Writes the index of what `written` recorded into `folder` (where the zips it names are), and closes the old zips. */
  save(folder: string): void {
    this.close();
    if (this.next.size === 0) return;
    const files: Record<string, Row> = {};
    for (const [key, f] of this.next) {
      files[key] = [f.size, f.mtimeMs, f.ctimeMs, f.ino, f.executable ? 1 : 0, f.crc, f.method, f.dataLength, f.zip, f.offset, f.hash ?? null];
    }
    writeFileSync(join(folder, ENTRY_CACHE_FILE), JSON.stringify({ format: FORMAT, files }));
  }

  close(): void {
    for (const zip of this.zips.values()) zip?.close();
    this.zips.clear();
  }

  private miss(): undefined {
    this.misses++;
    return undefined;
  }

  /** The entry read back from the last package's zip, checked against its local header. */
  private stored(name: string, cached: CachedFile, executable: boolean): ZipEntry | undefined {
    let zip = this.zips.get(cached.zip);
    if (zip === undefined) {
      zip = readZip(join(this.from, cached.zip));
      this.zips.set(cached.zip, zip);
    }
    if (zip === null) return undefined;
    const header = zip.read(cached.offset, 30);
    if (
      !header ||
      header.readUInt32LE(0) !== 0x04034b50 ||
      header.readUInt16LE(8) !== cached.method ||
      header.readUInt32LE(14) !== cached.crc >>> 0 ||
      header.readUInt32LE(18) !== cached.dataLength ||
      header.readUInt32LE(22) !== cached.size
    ) {
      return undefined;
    }
    const data = zip.read(cached.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28), cached.dataLength);
    if (!data) return undefined;
    return { name, nameBytes: Buffer.from(name, 'utf8'), method: cached.method, crc: cached.crc, size: cached.size, data, executable };
  }
}

/** Zips up to this size are read whole, once (thousands of small reads cost more); bigger ones a range at a time. */
const READ_WHOLE_BYTES = 64 << 20;

interface ZipBytes {
  /** `length` bytes at `offset`, or undefined past the end. */
  read(offset: number, length: number): Buffer | undefined;
  close(): void;
}

function readZip(path: string): ZipBytes | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  const size = fstatSync(fd).size;
  if (size <= READ_WHOLE_BYTES) {
    const whole = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, whole, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    closeSync(fd);
    // Entries are slices of the one buffer: no copy per file.
    return { read: (offset, length) => (offset + length <= read ? whole.subarray(offset, offset + length) : undefined), close: () => undefined };
  }
  return {
    read: (offset, length) => {
      const bytes = Buffer.allocUnsafe(length);
      let read = 0;
      while (read < length) {
        const n = readSync(fd, bytes, read, length - read, offset + read);
        if (n === 0) return undefined;
        read += n;
      }
      return bytes;
    },
    close: () => closeSync(fd),
  };
}
