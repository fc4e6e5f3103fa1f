import { mkdirSync, chmodSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { PRIVATE_DIR, writePrivateFile } from '../state/files';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

export interface ZipEntry {
  name: string;
  data: Buffer;
  mode?: number;
}

/** The files of a zip archive (stored or deflated, as fw and every common tool writes them). */
export function readZip(zip: Buffer): ZipEntry[] {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65_535); i--) {
    if (zip.readUInt32LE(i) === END_OF_CENTRAL_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end === -1) throw new Error('Could not unzip uploaded file. Please check your file, then try to upload again.');
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(offset) !== CENTRAL_FILE_HEADER) throw new Error('Could not unzip uploaded file: bad central directory');
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const externalAttributes = zip.readUInt32LE(offset + 38);
    const localOffset = zip.readUInt32LE(offset + 42);
    const name = zip.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    offset += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (zip.readUInt32LE(localOffset) !== LOCAL_FILE_HEADER) throw new Error(`Could not unzip uploaded file: bad entry ${name}`);
    const dataStart = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const raw = zip.subarray(dataStart, dataStart + compressedSize);
    const data = method === 0 ? Buffer.from(raw) : method === 8 ? inflateRawSync(raw) : undefined;
    if (!data) throw new Error(`Could not unzip uploaded file: ${name} uses compression method ${method}`);
    const mode = (externalAttributes >>> 16) & 0o777;
    entries.push({ name, data, mode: mode || undefined });
  }
  return entries;
}

/** Writes the archive's files under dir; names that would escape it are refused. */
export function extractZip(zip: Buffer, dir: string): void {
  const root = resolve(dir);
  for (const entry of readZip(zip)) {
    const target = resolve(join(root, entry.name));
    if (!target.startsWith(root + sep)) throw new Error(`Could not unzip uploaded file: entry ${entry.name} is outside the archive root`);
    mkdirSync(dirname(target), { recursive: true, mode: PRIVATE_DIR });
    writePrivateFile(target, entry.data);
    // The owner's execute bit survives (a bundled binary); nothing is opened to the group or others.
    if (entry.mode) chmodSync(target, (entry.mode & 0o700) | 0o600);
  }
}
