import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { packageService } from '../../src/package/service';
import { copyFixture, removeDir, runFw } from './helpers';

const NOW = new Date('2024-01-01T00:00:00.000Z');

const hooks = suite('Plugin lifecycle hooks in fw package');

hooks('a local plugin hooking before:package:finalize adds a resource that resources can reference', async () => {
  const dir = copyFixture('finalize-resource');
  try {
    const packaged = await packageService({ cwd: dir, options: {}, now: NOW });
    assert.equal(packaged.template.Resources.AuditBucket, {
      Type: 'AWS::S3::Bucket',
      Properties: { BucketName: 'audit-dev', Tags: [{ Key: 'added-by', Value: './plugins/audit-bucket' }] },
    });
    assert.equal(packaged.template.Outputs?.AuditBucketName, {
      Value: { Ref: 'AuditBucket' },
    });
    assert.equal(Object.keys(packaged.template.Resources), [
      'ServerlessDeploymentBucket',
      'ServerlessDeploymentBucketPolicy',
      'IamRoleLambdaExecution',
      'HelloLogGroup',
      'HelloLambdaFunction',
      Object.keys(packaged.template.Resources).find(id => id.startsWith('HelloLambdaVersion'))!,
      'AuditBucket',
    ]);
  } finally {
    removeDir(dir);
  }
});

for (const fixture of ['shared-layers', 'shared-layers-v3']) {
hooks(`a plugin changing one function in place changes only that function (the template it gets shares nothing with the configuration): ${fixture}`, async () => {
  const dir = copyFixture(fixture);
  try {
    const packaged = await packageService({ cwd: dir, options: {}, now: NOW });
    const layersOf = (id: string) => (packaged.template.Resources[id] as { Properties: { Layers: string[] } }).Properties.Layers;
    assert.equal(layersOf('OneLambdaFunction'), ['arn:aws:lambda:us-east-1:123456789012:layer:common:1', 'arn:aws:lambda:us-east-1:123456789012:layer:extra:1']);
    assert.equal(layersOf('TwoLambdaFunction'), ['arn:aws:lambda:us-east-1:123456789012:layer:common:1']);
    assert.equal(packaged.config.provider.layers, ['arn:aws:lambda:us-east-1:123456789012:layer:common:1']);
  } finally {
    removeDir(dir);
  }
});
}

hooks('a TypeScript plugin finds, adds and changes constructs before synthesis', async () => {
  const dir = copyFixture('tree');
  try {
    const { template } = await packageService({ cwd: dir, options: {}, now: NOW });
    const resources = template.Resources as Record<string, { Properties: Record<string, unknown> }>;
    assert.equal(Object.keys(resources).filter(id => id.endsWith('ErrorsAlarm')), ['ApiErrorsAlarm', 'CronErrorsAlarm']);
    assert.equal(resources.ApiErrorsAlarm, {
      Type: 'AWS::CloudWatch::Alarm',
      Properties: {
        Namespace: 'AWS/Lambda',
        MetricName: 'Errors',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: 'ApiLambdaFunction' } }],
        Statistic: 'Sum',
        Period: 60,
        EvaluationPeriods: 1,
        Threshold: 3,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      },
    });
    assert.equal([resources.ApiLambdaFunction.Properties.Timeout, resources.CronLambdaFunction.Properties.Timeout], [15, 60]);
  } finally {
    removeDir(dir);
  }
});

hooks('template edits of a v3 plugin during the compile steps are kept: an added, a changed and a deleted resource', async () => {
  const dir = copyFixture('v3-compile');
  try {
    const { template } = await packageService({ cwd: dir, options: {}, now: NOW });
    const resources = template.Resources as Record<string, { Properties: Record<string, unknown>; DependsOn?: unknown }>;
    assert.equal(resources.TuneTopic, { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'compiled-tune' } });
    assert.is(resources.HelloLambdaFunction.Properties.MemorySize, 2048);
    assert.is(resources.ByeLambdaFunction.Properties.MemorySize, 1024);
    assert.is(resources.ByeLogGroup, undefined);
    assert.equal(resources.ByeLambdaFunction.DependsOn, []);
    assert.equal(resources.HelloLogGroup, { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: '/aws/lambda/compiled-dev-hello' } });
    assert.equal(resources.HelloLambdaFunction.Properties.Code, {
      S3Bucket: { Ref: 'ServerlessDeploymentBucket' },
      S3Key: 'serverless/compiled/dev/1704067200000-2024-01-01T00:00:00.000Z/compiled.zip',
    });
  } finally {
    removeDir(dir);
  }
});

hooks('hooks of two plugins run event by event in lifecycle order, plugins in the order plugins: lists them', async () => {
  const dir = copyFixture('order');
  try {
    const packaged = await packageService({ cwd: dir, options: {}, now: NOW });
    const events = ['initialize', 'before:package:initialize', 'package:compileFunctions', 'after:package:compileEvents', 'before:package:finalize', 'after:package:finalize'];
    assert.equal(
      (packaged.config.custom as { order: string[] }).order,
      events.flatMap(event => [`first ${event}`, `second ${event}`]),
    );
  } finally {
    removeDir(dir);
  }
});

hooks('a plugin that throws stops fw package with the plugin name, the hook and its message, exit 1', async () => {
  const dir = copyFixture('throws');
  try {
    const result = await runFw(['package'], dir);
    assert.is(result.code, 1);
    assert.is(
      result.stderr,
      'Error: Plugin "./plugins/strict-tags" failed in "before:package:finalize": every function needs a "team" tag (plugins/strict-tags.js:3:11)\n',
    );
  } finally {
    removeDir(dir);
  }
});

hooks.run();
