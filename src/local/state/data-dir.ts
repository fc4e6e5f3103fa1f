import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Where the local cloud keeps its state: the folder given (`--data`), else $FW_LOCAL_DATA, else ~/.fw/local. */
export function localDataDir(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (option) return resolve(option);
  if (env.FW_LOCAL_DATA) return resolve(env.FW_LOCAL_DATA);
  return join(homedir(), '.fw', 'local');
}
