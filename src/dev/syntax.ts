import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';

const LOADERS: Record<string, 'js' | 'ts' | 'jsx' | 'tsx'> = { '.js': 'js', '.cjs': 'js', '.mjs': 'js', '.ts': 'ts', '.cts': 'ts', '.mts': 'ts', '.jsx': 'jsx', '.tsx': 'tsx' };

/**
 * The first syntax error of each changed JavaScript or TypeScript file, as one line naming the file,
 * line and column (`handler.js:3:9: Expected ";" but found "oops"`); a file that is gone has none.
 */
export async function syntaxErrors(serviceDir: string, files: string[]): Promise<string[]> {
  const { transform } = require('esbuild') as typeof import('esbuild');
  const errors: string[] = [];
  for (const file of files) {
    const loader = LOADERS[extname(file)];
    if (!loader) continue;
    let text: string;
    try {
      text = readFileSync(join(serviceDir, file), 'utf8');
    } catch {
      continue;
    }
    await transform(text, { loader, sourcefile: file, logLevel: 'silent' }).catch((failure: import('esbuild').TransformFailure) => {
      const first = failure.errors[0];
      const where = first?.location ? `${file}:${first.location.line}:${first.location.column + 1}` : file;
      errors.push(`${where}: ${first?.text ?? failure.message}`);
    });
  }
  return errors;
}
