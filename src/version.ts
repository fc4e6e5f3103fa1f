import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** fw's own version, read from the package manifest it ships with. */
export const version: string = (() => {
  for (const candidate of [join(__dirname, '..', 'package.json'), join(__dirname, '..', '..', 'package.json')]) {
    try {
      return (JSON.parse(readFileSync(candidate, 'utf8')) as { version: string }).version;
    } catch {
      // not this layout; try the next one
    }
  }
  return '0.0.0';
})();
