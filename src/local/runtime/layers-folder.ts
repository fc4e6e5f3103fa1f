/**
 * Where a function's layers are when it runs. Lambda extracts a function's layers into /opt, in
 * the order the function lists them (a later layer's file replaces an earlier one's); the local
 * cloud cannot write /opt, so it gives each list of layers a folder of its own (one layer: its
 * unpacked folder; several: a merged copy made once), and the runtime points the paths Lambda
 * sets to /opt there (NODE_PATH, PYTHONPATH, PATH, LD_LIBRARY_PATH, and `/opt/…` in `require`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { codeDirectory } from './code';

export const LAYER_VERSION_TYPE = 'AWS::Lambda::LayerVersion';

/** The layer version ARNs a function's `Layers` lists. */
export function layerArns(properties: Record<string, unknown>): string[] {
  const layers = properties.Layers;
  return Array.isArray(layers) ? layers.map(String) : [];
}

/** The unpacked folders of the layers, in order, and the ARNs the local cloud does not have. */
export function layerFolders(dataDir: string, arns: string[], versions: { physicalId: string; attributes: Record<string, unknown> }[]): { folders: string[]; missing: string[] } {
  const folders: string[] = [];
  const missing: string[] = [];
  for (const arn of arns) {
    const version = versions.find((record) => record.physicalId === arn);
    if (version && typeof version.attributes.CodeSha256 === 'string') folders.push(codeDirectory(dataDir, version.attributes.CodeSha256));
    else missing.push(arn);
  }
  return { folders, missing };
}

/** The folder that plays /opt for these layer folders, or undefined when there are none. */
export function optFolder(dataDir: string, folders: string[]): string | undefined {
  if (folders.length <= 1) return folders[0];
  const dir = join(dataDir, 'layers', createHash('sha256').update(folders.join('\n')).digest('hex'));
  if (!existsSync(dir)) {
    const temporary = `${dir}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      // Copied, not linked: a later layer's file replaces an earlier one's inside shared folders too.
      for (const folder of folders) cpSync(folder, temporary, { recursive: true, force: true, dereference: true });
      renameSync(temporary, dir);
    } catch (error) {
      rmSync(temporary, { recursive: true, force: true });
      if (!existsSync(dir)) throw error;
    }
  }
  return dir;
}

/**
 * The environment Lambda's runtimes derive from /opt, with the local folder in its place: modules
 * of `nodejs/node<major>/node_modules` and `nodejs/node_modules`, Python packages of
 * `python/lib/python<version>/site-packages` and `python`, programs of `bin`, libraries of `lib`.
 */
export function layerEnvironment(opt: string, runtime: string, pythonVersion: string | undefined, inherited: Record<string, string | undefined>): Record<string, string> {
  const environment: Record<string, string> = {
    FW_LOCAL_OPT: opt,
    PATH: [join(opt, 'bin'), inherited.PATH].filter(Boolean).join(':'),
    LD_LIBRARY_PATH: [join(opt, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
  };
  if (runtime.startsWith('nodejs')) {
    const major = /^nodejs(\d+)/.exec(runtime)?.[1];
    environment.NODE_PATH = [major ? join(opt, 'nodejs', `node${major}`, 'node_modules') : undefined, join(opt, 'nodejs', 'node_modules'), inherited.NODE_PATH].filter(Boolean).join(':');
  }
  if (runtime.startsWith('python')) {
    environment.PYTHONPATH = [pythonVersion ? join(opt, 'python', 'lib', `python${pythonVersion}`, 'site-packages') : undefined, join(opt, 'python')].filter(Boolean).join(':');
  }
  return environment;
}
