import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A minimal, deterministic zip writer.
 *
 * Why not yazl: yazl deflates every added buffer at once on the thread pool, each with its
 * own zlib context (about 300 KB), so a 5,000-file node_modules took 1.2 GB and seconds; and
 * it cannot take an entry that is already deflated, which is what lets one file be compressed
 * once and shared by the service zip and every per-function zip. The format written here is
 * the plain PKZIP subset every unzip (and Lambda) reads: no extra fields, no data descriptors,
 * one fixed timestamp, Unix modes, zip64 records only when the entry count needs them.
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
  const stored = deflated.length >= content.length;
  return {
    name,
    nameBytes: Buffer.from(name, 'utf8'),
    method: stored ? 0 : 8,
    crc: crc32(content),
    size: content.length,
    data: stored ? content : deflated,
    executable,
  };
}

/** The same entry under another name (a file placed at a different path in a layer, say). */
export function renamed(entry: ZipEntry, name: string): ZipEntry {
  return { ...entry, name, nameBytes: Buffer.from(name, 'utf8') };
}

/** Sorts entries by name (byte order, independent of locale) and refuses duplicates. */
export function sortEntries(entries: ZipEntry[]): ZipEntry[] {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].name === sorted[i - 1].name) throw new Error(`Two files for one zip entry: ${sorted[i].name}`);
  }
  return sorted;
}

/** The zip's bytes, as parts to write in order. Entries are written in the order given. */
export function zipParts(entries: readonly ZipEntry[]): Buffer[] {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    if (offset > 0xfffffffe || entry.data.length > 0xfffffffe || entry.size > 0xfffffffe) {
      throw new Error(`Zip too large for a Lambda artifact at ${entry.name}`);
    }
    const mode = (REGULAR_FILE | (entry.executable ? 0o755 : 0o644)) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION_NEEDED, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(entry.nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    parts.push(local, entry.nameBytes, entry.data);

    const record = Buffer.alloc(46);
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
    record.writeUInt16LE(entry.nameBytes.length, 28);
    // extra length, comment length, disk number, internal attributes: all 0
    record.writeUInt32LE((mode << 16) >>> 0, 38);
    record.writeUInt32LE(offset, 42);
    central.push(record, entry.nameBytes);
    offset += 30 + entry.nameBytes.length + entry.data.length;
  }
  const centralSize = central.reduce((sum, part) => sum + part.length, 0);
  parts.push(...central);
  const count = entries.length;
  if (count > 0xfffe || offset + centralSize > 0xfffffffe) {
    parts.push(zip64End(count, centralSize, offset, offset + centralSize));
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, 0xffff), 8);
  end.writeUInt16LE(Math.min(count, 0xffff), 10);
  end.writeUInt32LE(Math.min(centralSize, 0xffffffff), 12);
  end.writeUInt32LE(Math.min(offset, 0xffffffff), 16);
  parts.push(end);
  return parts;
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

/** Writes the entries (already sorted) to `file` and returns the hashes of the bytes. */
export function writeZip(file: string, entries: readonly ZipEntry[]): WrittenZip {
  const bytes = Buffer.concat(zipParts(entries));
  writeFileSync(file, bytes);
  return hashBytes(bytes);
}

export function hashBytes(bytes: Buffer): WrittenZip {
  const digest = createHash('sha256').update(bytes).digest();
  return { sha256: digest.toString('hex'), codeSha256: digest.toString('base64'), size: bytes.length };
}
