import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import type { ArtifactInput, FunctionToPackage } from '../../src/package/artifacts';

export interface ZipListing {
  name: string;
  mode: number;
  content: Buffer;
  /** DOS date and time fields as stored. */
  date: number;
  time: number;
}

/** Reads a zip through its central directory, the way unzip and Lambda do. */
export function readZip(file: string): ZipListing[] {
  const bytes = readFileSync(file);
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${file} is not a zip`);
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries: ZipListing[] = [];
  for (let i = 0; i < count; i++) {
    if (bytes.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central record at ${at}`);
    const method = bytes.readUInt16LE(at + 10);
    const time = bytes.readUInt16LE(at + 12);
    const date = bytes.readUInt16LE(at + 14);
    const compressedSize = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const mode = bytes.readUInt32LE(at + 38) >>> 16;
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataStart = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(dataStart, dataStart + compressedSize);
    entries.push({ name, mode, date, time, content: method === 8 ? inflateRawSync(data) : Buffer.from(data) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

export function names(file: string): string[] {
  return readZip(file).map((entry) => entry.name);
}

export function text(file: string, name: string): string | undefined {
  return readZip(file).find((entry) => entry.name === name)?.content.toString('utf8');
}

/** A throwaway folder; `tree` maps relative paths to contents (a string) or `{ link }` / `{ mode }`. */
export type Tree = Record<string, string | { content: string; mode: number } | { link: string }>;

export function tempDir(prefix = 'fw-package-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function writeTree(root: string, tree: Tree): string {
  for (const [path, value] of Object.entries(tree)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    if (typeof value === 'string') writeFileSync(file, value);
    else if ('link' in value) symlinkSync(value.link, file);
    else {
      writeFileSync(file, value.content);
      chmodSync(file, value.mode);
    }
  }
  return root;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function input(serviceDir: string, overrides: Partial<ArtifactInput> = {}): ArtifactInput & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    serviceDir,
    serviceName: 'app',
    serviceFile: join(serviceDir, 'serverless.yml'),
    outDir: join(serviceDir, '.serverless'),
    functions: [fn('hello')],
    warn: (message) => warnings.push(message),
    warnings,
    ...overrides,
  };
}

export function fn(key: string, overrides: Partial<FunctionToPackage> = {}): FunctionToPackage {
  return { key, handler: 'handler.main', runtime: 'nodejs20.x', ...overrides };
}
