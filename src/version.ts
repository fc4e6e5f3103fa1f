import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './paths';

/** fw's own version, read from the package manifest it ships with. */
export const version: string = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
