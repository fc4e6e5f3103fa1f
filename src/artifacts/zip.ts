import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync, writevSync } from 'node:fs';
import { constants, deflateRawSync } from 'node:zlib';
import { crc32 } from './crc32';

/**
 * A minimal, deterministic zip writer.
 *
 * Why not yazl (measured on a 5,000-file node_modules): yazl deflates every added buffer at
 * once on the thread pool, each with a zlib context of its own (~300 KB), which took 1.2 GB
 * and seconds; it cannot take an entry that is already deflated, which is what lets one file
 * be compressed once and shared by the service zip and every per-function zip; and it stamps
 * the local time zone into DOS dates. The format written here is the plain PKZIP subset every
 * unzip (and Lambda) reads: no extra fields, no data descriptors, one fixed timestamp
 * (1980-01-01 00:00), Unix modes 0644/0755, UTF-8 names, zip64 end records only when the
 * entry count needs them.
 */

/** One file ready to be written: compressed once, reusable in any number of zips. */
export interface ZipEntry {
  /** Forward-slash path inside the zip, relative, no `..`. */
  readonly name: string;
  readonly nameBytes: Buffer;
  /** 8 = deflate, 0 = stored (when deflating does not make it smaller). */
  readonly method: 0 | 8;
  readonly crc: number;
  readonly size: number;
  readonly data: Buffer;
  readonly executable: boolean;
}

export interface WrittenZip {
  sha256: string;
  codeSha256: string;
  size: number;
}

// 1980-01-01 00:00:00, the earliest DOS date: (year-1980)<<9 | month<<5 | day, time 0.
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;
const UTF8_NAMES = 1 << 11;
const VERSION_NEEDED = 20;
// Made by Unix (3) with spec 2.0, so unzip and Lambda honour the mode in the external attributes.
const VERSION_MADE_BY = (3 << 8) | 20;
const REGULAR_FILE = 0o100000;

/** Compresses `content` into an entry; the same bytes always give the same entry. */
export function zipEntry(name: string, content: Buffer, executable: boolean): ZipEntry {
  const deflated = content.length > 0 ? deflateRawSync(content, { level: constants.Z_DEFAULT_COMPRESSION }) : content;
  return compressedEntry(name, content, deflated, executable);
}

/**
 * An entry from a file's bytes and their raw deflate; stores the bytes when deflating does not
 * make them smaller. `content` may be a reused read buffer: the entry keeps its own copy.
 */
export function compressedEntry(name: string, content: Buffer, deflated: Buffer, executable: boolean): ZipEntry {
  const stored = deflated.length >= content.length;
  return {
    name,
    nameBytes: Buffer.from(name, 'utf8'),
    method: stored ? 0 : 8,
    crc: crc32(content),
    size: content.length,
    data: stored ? Buffer.from(content) : deflated,
    executable,
  };
}

/** The same entry under another name (a file placed at a different path in a layer, say). */
export function renamed(entry: ZipEntry, name: string): ZipEntry {
  return { ...entry, name, nameBytes: Buffer.from(name, 'utf8') };
}

/** Sorts entries by name (UTF-16 code unit order, independent of locale) and refuses duplicates. */
export function sortEntries(entries: ZipEntry[]): ZipEntry[] {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].name === sorted[i - 1].name) throw new Error(`Two files for one zip entry: ${sorted[i].name}`);
  }
  return sorted;
}

/**
 * Writes a zip to disk entry by entry, so a big node_modules never sits in memory whole;
 * hashes the bytes as they go. Entries must come in strictly increasing name order (code unit
 * order, independent of locale): that is what makes the bytes depend only on the entries.
 */
export class ZipWriter {
  private readonly fd: number;
  private readonly hash = createHash('sha256');
  private readonly central: Buffer[] = [];
  private pending: Buffer[] = [];
  private pendingSize = 0;
  private offset = 0;
  private lastName: string | undefined;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'w');
  }

  /** Appends the entry; returns the offset of its local header (where a later run finds its bytes). */
  add(entry: ZipEntry): number {
    if (this.lastName !== undefined && !(entry.name > this.lastName)) {
      throw new Error(`Zip entries out of order or repeated: ${entry.name} after ${this.lastName}`);
    }
    this.lastName = entry.name;
    if (this.offset > 0xfffffffe || entry.data.length > 0xfffffffe || entry.size > 0xfffffffe) {
      throw new Error(`Zip too large for a Lambda artifact at ${entry.name}`);
    }
    const nameLength = entry.nameBytes.length;
    const local = Buffer.allocUnsafe(30 + nameLength);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION_NEEDED, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(nameLength, 26);
    local.writeUInt16LE(0, 28);
    entry.nameBytes.copy(local, 30);

    const mode = (REGULAR_FILE | (entry.executable ? 0o755 : 0o644)) >>> 0;
    const record = Buffer.alloc(46 + nameLength);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(VERSION_MADE_BY, 4);
    record.writeUInt16LE(VERSION_NEEDED, 6);
    record.writeUInt16LE(UTF8_NAMES, 8);
    record.writeUInt16LE(entry.method, 10);
    record.writeUInt16LE(DOS_TIME, 12);
    record.writeUInt16LE(DOS_DATE, 14);
    record.writeUInt32LE(entry.crc >>> 0, 16);
    record.writeUInt32LE(entry.data.length, 20);
    record.writeUInt32LE(entry.size, 24);
    record.writeUInt16LE(nameLength, 28);
    // extra length, comment length, disk number, internal attributes: all 0
    record.writeUInt32LE((mode << 16) >>> 0, 38);
    record.writeUInt32LE(this.offset, 42);
    entry.nameBytes.copy(record, 46);
    this.central.push(record);

    const at = this.offset;
    this.push(local);
    this.push(entry.data);
    return at;
  }

  /** Writes the central directory, closes the file and returns the hashes of all its bytes. */
  finish(): WrittenZip {
    const centralOffset = this.offset;
    let centralSize = 0;
    for (const record of this.central) {
      centralSize += record.length;
      this.push(record);
    }
    const count = this.central.length;
    if (count > 0xfffe || centralOffset + centralSize > 0xfffffffe) {
      this.push(zip64End(count, centralSize, centralOffset, centralOffset + centralSize));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(count, 0xffff), 8);
    end.writeUInt16LE(Math.min(count, 0xffff), 10);
    end.writeUInt32LE(Math.min(centralSize, 0xffffffff), 12);
    end.writeUInt32LE(Math.min(centralOffset, 0xffffffff), 16);
    this.push(end);
    this.flush();
    closeSync(this.fd);
    const digest = this.hash.digest();
    return { sha256: digest.toString('hex'), codeSha256: digest.toString('base64'), size: this.offset };
  }

  /** Closes the file after a failure (the caller removes it). */
  abort(): void {
    closeSync(this.fd);
  }

  private push(bytes: Buffer): void {
    this.hash.update(bytes);
    this.pending.push(bytes);
    this.pendingSize += bytes.length;
    this.offset += bytes.length;
    if (this.pendingSize >= 1 << 20) this.flush();
  }

  private flush(): void {
    let parts = this.pending;
    while (parts.length > 0) {
      // writev takes at most IOV_MAX (1024) buffers at a time
      const batch = parts.slice(0, 1024);
      const total = batch.reduce((sum, part) => sum + part.length, 0);
      let written = writevSync(this.fd, batch);
      if (written < total) {
        const all = Buffer.concat(batch);
        while (written < total) written += writeSync(this.fd, all, written, total - written);
      }
      parts = parts.slice(1024);
    }
    this.pending = [];
    this.pendingSize = 0;
  }
}

function zip64End(count: number, centralSize: number, centralOffset: number, recordOffset: number): Buffer {
  const record = Buffer.alloc(56 + 20);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(VERSION_MADE_BY, 12);
  record.writeUInt16LE(45, 14);
  record.writeBigUInt64LE(BigInt(count), 24);
  record.writeBigUInt64LE(BigInt(count), 32);
  record.writeBigUInt64LE(BigInt(centralSize), 40);
  record.writeBigUInt64LE(BigInt(centralOffset), 48);
  // locator
  record.writeUInt32LE(0x07064b50, 56);
  record.writeBigUInt64LE(BigInt(recordOffset), 64);
  record.writeUInt32LE(1, 72);
  return record;
}

/** Writes the entries, sorted by name, to `file` and returns the hashes of the bytes. */
export function writeZip(file: string, entries: readonly ZipEntry[]): WrittenZip {
  const sorted = sortEntries([...entries]);
  const writer = new ZipWriter(file);
  try {
    for (const entry of sorted) writer.add(entry);
  } catch (error) {
    writer.abort();
    throw error;
  }
  return writer.finish();
}

export function hashBytes(bytes: Buffer): WrittenZip {
  const digest = createHash('sha256').update(bytes).digest();
  return { sha256: digest.toString('hex'), codeSha256: digest.toString('base64'), size: bytes.length };
}
