import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../src/errors';
import { synth, versionId } from '../helpers/synth';

const aliases = suite('function aliases (provisioned concurrency, SnapStart) and the settings around them');

aliases('provisioned concurrency gets an alias on a version, even with versioning off', () => {
  const t = synth({ functions: { hello: { handler: 'h.main', provisionedConcurrency: 3, versionFunction: false } } });
  const version = versionId(t, 'Hello')!;
  assert.equal(t.Resources.HelloProvConcLambdaAlias, {
    Type: 'AWS::Lambda::Alias',
    Properties: {
      FunctionName: { Ref: 'HelloLambdaFunction' },
      FunctionVersion: { 'Fn::GetAtt': [version, 'Version'] },
      Name: 'provisioned',
      ProvisionedConcurrencyConfig: { ProvisionedConcurrentExecutions: 3 },
    },
    DependsOn: 'HelloLambdaFunction',
  });
  // a version kept only for the alias is not retained on update
  assert.is(t.Resources[version].DeletionPolicy, undefined);
});

aliases('versionFunction: false leaves the function without a version or its output', () => {
  const t = synth({ functions: { hello: { handler: 'h.main', versionFunction: false } } });
  assert.is(versionId(t, 'Hello'), undefined);
  assert.is(t.Outputs?.HelloLambdaFunctionQualifiedArn, undefined);
});

aliases('SnapStart with provisioned concurrency is refused with the reference message', () => {
  try {
    synth({ functions: { hello: { handler: 'h.main', runtime: 'java17', snapStart: true, provisionedConcurrency: 1 } } });
    assert.unreachable('expected a configuration error');
  } catch (error) {
    assert.instance(error, ConfigError);
    assert.is(
      (error as Error).message,
      `Invalid configuration in 'functions.hello': Functions with enabled SnapStart does not support provisioned concurrency. Please remove at least one of the settings on function "hello".`,
    );
  }
});

aliases('a service without functions has no execution role', () => {
  const t = synth({ functions: {}, resources: { Resources: { Topic: { Type: 'AWS::SNS::Topic' } } } });
  assert.equal(Object.keys(t.Resources).sort(), ['ServerlessDeploymentBucket', 'ServerlessDeploymentBucketPolicy', 'Topic']);
});

aliases.run();
