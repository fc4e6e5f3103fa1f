import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { v3Naming } from '../../src/plugins/v3-naming';
import { FIXTURES } from './helpers';

/** Every member of v3's `provider.naming`, called with sample arguments, as Serverless v3.40.0 answered (scripts/plugin-goldens.js). */
const golden = JSON.parse(readFileSync(join(FIXTURES, 'v3-naming.golden.json'), 'utf8')) as Array<{ member: string; args: unknown[]; result: unknown }>;

const namingSuite = suite('provider.naming for v3 plugins');

const naming = v3Naming({ service: () => 'app', stage: () => 'dev', region: () => 'us-east-1', stackName: () => undefined, albTargetGroupPrefix: () => '' }) as unknown as Record<
  string,
  (...args: unknown[]) => unknown
>;

namingSuite('has every member v3 has', () => {
  assert.equal(
    golden.map((entry) => entry.member).filter((member) => typeof naming[member] !== 'function'),
    [],
  );
});

for (const { member, args, result } of golden) {
  namingSuite(`${member}(${args.map((arg) => JSON.stringify(arg)).join(', ')}) answers as v3 does`, () => {
    const answer = naming[member](...args);
    assert.equal(answer instanceof RegExp ? String(answer) : answer, result);
  });
}

namingSuite.run();
