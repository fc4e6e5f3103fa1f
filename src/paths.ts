import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The folder fw is installed in (the one holding its package.json), found from this
 * file whether it runs from the bundle (dist/fw.js) or the compiled tree (dist/src/…).
 */
export const packageRoot: string = (() => {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();
