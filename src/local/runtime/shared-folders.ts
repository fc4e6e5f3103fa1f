import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { PRIVATE_DIR, readJson, writeJsonAtomic, writePrivateFile } from '../state/files';
import { entryData, listZip, type ListedEntry } from './unzip';

/**
 * Unpacked code shares folders: a zip that differs from one unpacked before in a few files (fw dev
 * saving one handler of a service whose zip holds 3,500 files of node_modules) gets real folders only
 * where something changed, and a symbolic link for each folder whose whole content was unpacked before.
 * A folder is known by a hash of everything under it (each file's path below the folder, mode, CRC-32,
 * size and a SHA-256 of its compressed bytes, all read from the zip without inflating it); unpacked
 * folders are never changed or removed (until `fw local reset`), so a link stays true.
 * Functions run with Node's --preserve-symlinks, so a module's __dirname and its require() lookups stay
 * under the function's own folder, as under /var/task on AWS.
 */

/** What the data folder's `functions/` holds: folder hash → its absolute path, read from the side files once per process. */
const indexes = new Map<string, Map<string, string>>();

/** The side file of an unpacked code folder: its real folders by hash (paths relative to it). */
const sideFile = (codeDir: string) => `${codeDir}.folders.json`;

function indexOf(functionsDir: string): Map<string, string> {
  let index = indexes.get(functionsDir);
  if (!index) {
    index = new Map();
    indexes.set(functionsDir, index);
    let names: string[] = [];
    try {
      names = readdirSync(functionsDir);
    } catch {
      // nothing unpacked yet
    }
    for (const name of names.filter(n => n.endsWith('.folders.json')).sort()) {
      const codeDir = join(functionsDir, name.slice(0, -'.folders.json'.length));
      const folders = readJson<Record<string, string>>(join(functionsDir, name), {});
      for (const [hash, rel] of Object.entries(folders)) if (!index.has(hash)) index.set(hash, join(codeDir, rel));
    }
  }
  return index;
}

interface Folder {
  files: ListedEntry[];
  /** Relative paths of the subfolders. */
  folders: string[];
  hash: string;
}

/**
 * Each folder of the archive (relative path, '' for the root) with its files, subfolders and content hash:
 * a hash of its files' names, modes, CRC-32s, sizes and compressed bytes and of its subfolders' names and hashes.
 */
function foldersOf(entries: ListedEntry[], zip: Buffer): Map<string, Folder> {
  const folders = new Map<string, Folder>();
  const folder = (path: string): Folder => {
    let found = folders.get(path);
    if (!found) {
      found = { files: [], folders: [], hash: '' };
      folders.set(path, found);
      if (path !== '') folder(parentOf(path)).folders.push(path);
    }
    return found;
  };
  folder('');
  for (const entry of entries) folder(parentOf(entry.name)).files.push(entry);
  const hashOf = (path: string): string => {
    const found = folders.get(path)!;
    const lines: string[] = [];
    for (const entry of found.files) {
      const digest = createHash('sha256').update(zip.subarray(entry.dataStart, entry.dataStart + entry.compressedSize)).digest('base64');
      lines.push(`f ${baseOf(entry.name)}\0${entry.mode ?? 0}\0${entry.method}\0${entry.crc}\0${entry.size}\0${digest}\n`);
    }
    for (const sub of found.folders) lines.push(`d ${baseOf(sub)}\0${hashOf(sub)}\n`);
    found.hash = createHash('sha256').update(lines.sort().join('')).digest('hex');
    return found.hash;
  };
  hashOf('');
  return folders;
}

const parentOf = (path: string) => (path.lastIndexOf('/') < 0 ? '' : path.slice(0, path.lastIndexOf('/')));
const baseOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * Unpacks `zip` into `dir` (a temporary folder that becomes `finalDir`), linking folders unpacked before
 * (a link whose target is gone is not made); `record`, once `finalDir` is in place, writes its side file
 * so that later packages link to its folders.
 */
export function unpackSharing(zip: Buffer, dir: string, finalDir: string): { record: () => void } {
  const functionsDir = dirname(finalDir);
  const index = indexOf(functionsDir);
  const root = resolve(dir);
  const entries = listZip(zip);
  for (const entry of entries) {
    const target = resolve(join(root, entry.name));
    if (!target.startsWith(root + sep)) throw new Error(`Could not unzip uploaded file: entry ${entry.name} is outside the archive root`);
  }
  const folders = foldersOf(entries, zip);
  const made: Record<string, string> = {};
  const unpack = (path: string) => {
    const folder = folders.get(path)!;
    const known = path === '' ? undefined : index.get(folder.hash);
    if (known !== undefined && existsSync(known)) {
      const link = join(finalDir, path);
      symlinkSync(relative(dirname(link), known), join(root, path), 'dir');
      return;
    }
    mkdirSync(join(root, path), { recursive: true, mode: PRIVATE_DIR });
    if (!(folder.hash in made)) made[folder.hash] = path;
    for (const entry of folder.files) {
      const target = join(root, entry.name);
      writePrivateFile(target, entryData(zip, entry));
      // The owner's execute bit survives (a bundled binary); nothing is opened to the group or others.
      if (entry.mode) chmodSync(target, (entry.mode & 0o700) | 0o600);
    }
    for (const sub of folder.folders) unpack(sub);
  };
  unpack('');
  return {
    record: () => {
      writeJsonAtomic(sideFile(finalDir), made);
      for (const [hash, path] of Object.entries(made)) if (!index.has(hash)) index.set(hash, join(finalDir, path));
    },
  };
}
