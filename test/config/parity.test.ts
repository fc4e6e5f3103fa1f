import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadService } from '../../src/service/load';
import { FIXTURES } from './helpers';

const CASE = join(FIXTURES, 'variables-parity');

/** Keeps only the keys the service file sets, like expected/resolved.json does. */
function prune(shape: unknown, value: unknown): unknown {
  if (shape === null || typeof shape !== 'object' || Array.isArray(shape) || value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(shape).map((key) => [key, prune((shape as Record<string, unknown>)[key], (value as Record<string, unknown>)[key])]));
}

const parity = suite('variables: parity with Serverless Framework v3');

parity('resolves the service to what the reference resolved (--stage prod)', async () => {
  const expected = JSON.parse(readFileSync(join(CASE, 'expected', 'resolved.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  const env = { ...process.env };
  delete env.FW_PARITY_UNSET_VARIABLE;
  const { raw, config } = await loadService({ cwd: CASE, options: { stage: 'prod' }, env, warn: () => {} });
  // The reference stringifies function environment values when it writes the template.
  const functions = prune(raw.functions, config.functions) as { hello: { environment: Record<string, unknown> } };
  functions.hello.environment = Object.fromEntries(Object.entries(functions.hello.environment).map(([key, value]) => [key, String(value)]));
  assert.equal(
    { service: config.service, provider: prune(raw.provider, config.provider), custom: prune(raw.custom, config.custom), functions },
    expected,
  );
});

parity.run();
