import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageService } from '../../src/package/service';
import type { Template } from '../../src/synth/template';

/** The instant the golden fixtures were recorded at (the recorder pins the reference's clock to it). */
export const GOLDEN_TIME = new Date('2024-01-01T00:00:00.000Z');

export const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures');

export interface GoldenCase {
  name: string;
  dir: string;
  options: Record<string, unknown>;
  expected?: { update: Template; create?: Template };
  error?: string;
}

/** `--stage prod --region eu-central-1` → `{ stage: 'prod', region: 'eu-central-1' }` */
export function parseArgs(text: string): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const words = text.trim().split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i += 2) {
    const key = words[i].replace(/^--/, '');
    if (key === 'param') options.param = [...((options.param as string[]) ?? []), words[i + 1]];
    else options[key] = words[i + 1];
  }
  return options;
}

export function goldenCases(folder: string): GoldenCase[] {
  const root = join(FIXTURES, folder);
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter(entry => entry.isDirectory())
    .map(entry => {
      const dir = join(root, entry.name);
      const read = (file: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : undefined);
      const update = read('expected/update.json');
      const create = read('expected/create.json');
      const args = read('args.txt');
      return {
        name: entry.name,
        dir,
        options: args ? parseArgs(args) : {},
        expected: update ? { update: JSON.parse(update), create: create ? JSON.parse(create) : undefined } : undefined,
        error: read('expected/error.txt'),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The fields that differ by construction between fw and the reference: the code hash
 * (different zip bytes), the version logical ids derived from it, and a layer's zip hash output.
 */
export function normalize(template: unknown): unknown {
  const text = JSON.stringify(template)
    .replace(/LambdaVersion[0-9A-Za-z]{20,}/g, 'LambdaVersion<hash>')
    .replace(/"CodeSha256":"[^"]*"/g, '"CodeSha256":"<sha256>"')
    .replace(/("Description":"Current Lambda layer hash","Value":)"[0-9a-f]*"/g, '$1"<hash>"');
  return JSON.parse(text);
}

/** Packages a copy of a fixture folder (its `expected/` left out) at the golden instant. */
export async function packageCopy(dir: string, options: Record<string, unknown>): Promise<{ template: Template; create?: Template; cwd: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-golden-'));
  cpSync(dir, cwd, { recursive: true, filter: source => !source.includes(`${join(dir, 'expected')}`) });
  try {
    const result = await packageService({ cwd, options, now: GOLDEN_TIME });
    return { template: result.template, create: result.createTemplate, cwd };
  } catch (error) {
    rmSync(cwd, { recursive: true, force: true });
    throw error;
  }
}
