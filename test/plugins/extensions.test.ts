import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { packageService } from '../../src/package/service';
import { isEventType } from '../../src/constructs/events/registry';
import { sources } from '../../src/variables/sources';
import { copyFixture, removeDir, runFw } from './helpers';

const NOW = new Date('2024-01-01T00:00:00.000Z');

const extensions = suite('Event types and variable sources added by plugins');

extensions('a plugin event type with a schema becomes its construct in the template', async () => {
  const dir = copyFixture('event-type');
  try {
    const packaged = await packageService({ cwd: dir, options: {}, now: NOW });
    const ids = Object.keys(packaged.template.Resources);
    assert.equal(ids.filter(id => id.startsWith('ReportCronJob')), ['ReportCronJobRule', 'ReportCronJobPermission']);
    assert.equal(packaged.template.Resources.ReportCronJobRule, {
      Type: 'AWS::Events::Rule',
      Properties: {
        ScheduleExpression: 'cron(0 3 * * ? *)',
        State: 'ENABLED',
        Targets: [{ Id: 'ReportCronJobTarget', Arn: { 'Fn::GetAtt': ['ReportLambdaFunction', 'Arn'] }, Input: '{"kind":"nightly"}' }],
      },
    });
    assert.equal(packaged.template.Resources.ReportCronJobPermission, {
      Type: 'AWS::Lambda::Permission',
      Properties: {
        FunctionName: { 'Fn::GetAtt': ['ReportLambdaFunction', 'Arn'] },
        Action: 'lambda:InvokeFunction',
        Principal: 'events.amazonaws.com',
        SourceArn: { 'Fn::GetAtt': ['ReportCronJobRule', 'Arn'] },
      },
    });
    assert.is(isEventType('cronJob'), false, 'the event type is registered only while its service is built');
  } finally {
    removeDir(dir);
  }
});

extensions('the event schema of a plugin checks the config, with the path and the value', async () => {
  const dir = copyFixture('event-type');
  try {
    const file = join(dir, 'fw.yml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('schedule: cron(0 3 * * ? *)', 'schedule: 3\n          every: day'));
    const result = await runFw(['package'], dir);
    assert.is(result.code, 1);
    assert.is(
      result.stderr,
      'Error: Invalid configuration (configValidationMode: error):\n' +
        '  - at "functions.report.events[0].cronJob.schedule": expected a string, got 3\n' +
        '  - at "functions.report.events[0].cronJob.every": unknown property\n',
    );
  } finally {
    removeDir(dir);
  }
});

extensions('a plugin variable source resolves ${name(params):address}, can resolve other variables, and falls back', async () => {
  const dir = copyFixture('variables');
  try {
    const packaged = await packageService({ cwd: dir, options: { region: 'eu-west-1' }, now: NOW });
    const environment = (packaged.template.Resources.HelloLambdaFunction.Properties as { Environment: unknown }).Environment;
    assert.equal(environment, {
      Variables: {
        GREETING: 'hello from the vault',
        LOUD_GREETING: 'HELLO FROM THE VAULT',
        REGION_NOTE: 'deployed in us-east-1',
        FALLBACK: 'none',
      },
    });
    assert.is(sources.vault, undefined, 'the source is known only while its service resolves');
  } finally {
    removeDir(dir);
  }
});

extensions.run();
