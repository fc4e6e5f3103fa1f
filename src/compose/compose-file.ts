import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import * as t from 'typanion';
import { ConfigError, show } from '../errors';
import { SERVICE_FILE_NAMES } from '../config/find';
import { readConfigText } from '../config/read-file';
import { either, shape } from '../config/schema';

/** fw's own names first, then Serverless Compose's, read unchanged. */
export const COMPOSE_FILE_NAMES = [
  'fw-compose.yml', 'fw-compose.yaml', 'fw-compose.json',
  'serverless-compose.yml', 'serverless-compose.yaml', 'serverless-compose.json',
];

/** One service of the application, as the compose file lists it. */
export interface ComposeService {
  /** Its key under `services` (what `${name.Output}` and `dependsOn` name). */
  name: string;
  /** Its folder, absolute. */
  dir: string;
  /** The service file in `dir`, when not the default name. */
  config?: string;
  /** `${param:…}` values, as written (they may hold `${other.Output}`). */
  params: Record<string, unknown>;
  /** The services named by `dependsOn`. */
  dependsOn: string[];
}

/** The application: its compose file and its services, in the file's order. */
export interface Application {
  file: string;
  dir: string;
  services: ComposeService[];
}

const SERVICE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

const serviceSchema = shape(
  {
    path: t.isString(),
    config: t.isString(),
    params: t.isRecord(t.isUnknown()),
    dependsOn: either('a service name or a list of them', t.isString(), t.isArray(t.isString())),
  },
  { required: ['path'] },
);

const composeSchema = shape({ name: t.isString(), services: shape({}, { extra: serviceSchema }) }, { required: ['services'] });
type ComposeFile = t.InferType<typeof composeSchema>;

/**
 * The compose file a command runs on: the one `--config` names when its name is a compose
 * file's, else one in `cwd` when `cwd` holds no service file.
 */
export function findComposeFile(cwd: string, explicit?: string): string | undefined {
  if (explicit !== undefined) {
    return /(^|[-.])compose\.(ya?ml|json)$/.test(basename(explicit)) ? resolve(cwd, explicit) : undefined;
  }
  if (SERVICE_FILE_NAMES.some(name => existsSync(join(cwd, name)))) return undefined;
  return COMPOSE_FILE_NAMES.map(name => join(cwd, name)).find(path => existsSync(path));
}

/** Reads and checks a compose file; a mistake is one line naming the path in the file and the value. */
export function loadComposeFile(file: string): Application {
  const shown = basename(file);
  if (!existsSync(file)) throw new ConfigError(`Compose file "${shown}" (--config) does not exist`);
  const text = readConfigText(file, shown);
  const raw = file.endsWith('.json')
    ? (require('../formats/json') as typeof import('../formats/json')).parseJson(text, shown)
    : (require('../formats/yaml') as typeof import('../formats/yaml')).parseYaml(text, shown);
  const errors: string[] = [];
  if (!composeSchema(raw, { errors })) {
    const { path, problem } = readableProblem(errors[0] ?? '');
    throw new ConfigError(`Invalid configuration in '${path}' of ${shown}: ${problem}`);
  }
  const dir = dirname(file);
  const services = Object.entries((raw as ComposeFile).services).map(([name, entry]): ComposeService => {
    if (!SERVICE_NAME.test(name)) {
      throw new ConfigError(`Invalid configuration in 'services' of ${shown}: service name ${show(name)} may hold only letters, digits, "-" and "_"`);
    }
    const serviceDir = resolve(dir, entry.path);
    if (!existsSync(serviceDir) || !statSync(serviceDir).isDirectory()) {
      throw new ConfigError(`Invalid configuration in 'services.${name}.path' of ${shown}: folder ${show(entry.path)} does not exist`);
    }
    const dependsOn = entry.dependsOn === undefined || entry.dependsOn === null ? [] : typeof entry.dependsOn === 'string' ? [entry.dependsOn] : entry.dependsOn;
    return { name, dir: serviceDir, config: entry.config ?? undefined, params: entry.params ?? {}, dependsOn };
  });
  if (services.length === 0) throw new ConfigError(`Invalid configuration in 'services' of ${shown}: expected at least one service`);
  return { file, dir, services };
}

/** `.services.api.path: Expected a string (got 1)` → `services.api.path` and `expected a string, got 1`. */
function readableProblem(error: string): { path: string; problem: string } {
  const match = /^\.?([^:]*): (.*?)(?: \(got (.*)\))?$/s.exec(error);
  if (!match) return { path: '', problem: error };
  const what = match[2].charAt(0).toLowerCase() + match[2].slice(1);
  return { path: match[1].replace(/#\d+/g, ''), problem: `${what}${match[3] !== undefined ? `, got ${match[3]}` : ''}` };
}
