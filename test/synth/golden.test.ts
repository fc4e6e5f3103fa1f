import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CORRECTED_GOLDENS } from '../../src/config/corrected-settings';
import { ConfigError } from '../../src/errors';
import { childEnv } from '../helpers/env';
import { goldenCases, normalize, packageCopy } from '../helpers/golden';

/**
 * Where the reference is wrong, fw does better; each such case says what fw does instead.
 * http-authorizers-arn-name-collision: two different authorizer ARNs whose names end in the
 * same "-" segment get one logical id in the reference, which silently drops one of them.
 */
const DEVIATIONS: Record<string, string> = {
  'http-authorizers-arn-name-collision':
    `Invalid configuration in 'functions.byArn.events[1].http.authorizer': this authorizer's logical id "AuthorizerApiGatewayAuthorizer" is already used by a different authorizer at 'functions.byArn.events[0].http.authorizer'; give one of them a distinct "name"`,
};

for (const folder of ['golden', 'events']) {
  const golden = suite(`golden templates (${folder}) equal serverless@3.40.0 output`);
  for (const c of goldenCases(folder)) {
    const deviation = DEVIATIONS[c.name];
    if (deviation !== undefined) {
      golden(`${c.name}: fw refuses what the reference gets wrong`, async () => {
        try {
          await packageCopy(c.dir, c.options);
          assert.unreachable('expected a configuration error');
        } catch (error) {
          assert.instance(error, ConfigError);
          assert.is((error as Error).message, deviation);
        }
      });
      continue;
    }
    if (c.error !== undefined) {
      golden(`${c.name}: rejected, as by the reference`, async () => {
        try {
          await packageCopy(c.dir, c.options);
          assert.unreachable('expected a configuration error');
        } catch (error) {
          assert.instance(error, ConfigError);
        }
      });
      continue;
    }
    const correction = CORRECTED_GOLDENS[c.name];
    if (correction !== undefined) {
      golden(`${c.name}: the reference's template, corrected (${correction.reason})`, async () => {
        const result = await packageCopy(c.dir, c.options);
        try {
          const reference = normalize(c.expected!.update);
          const corrected = structuredClone(reference) as { Resources: Record<string, any> };
          correction.correct(corrected);
          assert.not.equal(corrected, reference, 'the correction changes nothing: take it off CORRECTED_GOLDENS');
          assert.equal(normalize(result.template), corrected);
        } finally {
          rmSync(result.cwd, { recursive: true, force: true });
        }
      });
      continue;
    }
    golden(`${c.name}: same template`, async () => {
      const result = await packageCopy(c.dir, c.options);
      try {
        assert.equal(normalize(result.template), normalize(c.expected!.update));
        assert.equal(result.create === undefined ? undefined : normalize(result.create), c.expected!.create && normalize(c.expected!.create));
      } finally {
        rmSync(result.cwd, { recursive: true, force: true });
      }
    });
  }
  golden.run();
}

const deterministic = suite('templates are deterministic');

deterministic('the same service packaged twice at the same instant gives the same bytes', async () => {
  const c = goldenCases('events').find(candidate => candidate.name === 'all-events');
  assert.ok(c, 'the all-events fixture is missing');
  const first = await packageCopy(c!.dir, c!.options);
  const second = await packageCopy(c!.dir, c!.options);
  try {
    assert.is(JSON.stringify(first.template, null, 2), JSON.stringify(second.template, null, 2));
  } finally {
    rmSync(first.cwd, { recursive: true, force: true });
    rmSync(second.cwd, { recursive: true, force: true });
  }
});

deterministic(
  'the built CLI, in a process of its own, packages every event type as the reference does (modules load on first use there)',
  () => {
    const c = goldenCases('events').find(candidate => candidate.name === 'all-events')!;
    const cwd = mkdtempSync(join(tmpdir(), 'fw-golden-cli-'));
    try {
      cpSync(c.dir, cwd, { recursive: true, filter: source => !source.includes(join(c.dir, 'expected')) });
      const run = spawnSync(process.execPath, [join(__dirname, '..', '..', '..', 'bin', 'fw.js'), 'package'], { cwd, env: childEnv(), encoding: 'utf8' });
      assert.is(run.status, 0, run.stderr);
      // The CLI packages now, not at the golden instant: the artifact folder and REST deployment id differ.
      const instant = (template: unknown) =>
        JSON.parse(
          JSON.stringify(normalize(template))
            .replace(/\/\d{13}-\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\//g, '/<instant>/')
            .replace(/ApiGatewayDeployment\d{13}/g, 'ApiGatewayDeployment<instant>'),
        );
      const template = JSON.parse(readFileSync(join(cwd, '.serverless', 'cloudformation-template-update-stack.json'), 'utf8'));
      assert.equal(instant(template), instant(c.expected!.update));
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  },
);

deterministic.run();
