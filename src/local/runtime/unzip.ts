import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

/** A file of a zip archive as its central directory describes it: where its bytes are, not yet inflated. */
export interface ListedEntry {
  name: string;
  method: number;
  crc: number;
  size: number;
  compressedSize: number;
  /** Offset of the (compressed) bytes in the archive. */
  dataStart: number;
  mode?: number;
}

/** The files of a zip archive (stored or deflated, as fw and every common tool writes them), from its central directory. */
export function listZip(zip: Buffer): ListedEntry[] {
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
  const entries: ListedEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(offset) !== CENTRAL_FILE_HEADER) throw new Error('Could not unzip uploaded file: bad central directory');
    const method = zip.readUInt16LE(offset + 10);
    const crc = zip.readUInt32LE(offset + 16);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const externalAttributes = zip.readUInt32LE(offset + 38);
    const localOffset = zip.readUInt32LE(offset + 42);
    const name = zip.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    offset += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (zip.readUInt32LE(localOffset) !== LOCAL_FILE_HEADER) throw new Error(`Could not unzip uploaded file: bad entry ${name}`);
    if (method !== 0 && method !== 8) throw new Error(`Could not unzip uploaded file: ${name} uses compression method ${method}`);
    const dataStart = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const mode = (externalAttributes >>> 16) & 0o777;
    entries.push({ name, method, crc, size, compressedSize, dataStart, mode: mode || undefined });
  }
  return entries;
}

/** The content of a listed entry. */
export function entryData(zip: Buffer, entry: ListedEntry): Buffer {
  const raw = zip.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  return entry.method === 0 ? Buffer.from(raw) : inflateRawSync(raw);
}
