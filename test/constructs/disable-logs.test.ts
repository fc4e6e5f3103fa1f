import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../helpers/synth';

const logs = (suffix: string) => ({ 'Fn::Sub': `arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:/aws/lambda/${suffix}` });
const role = (template: ReturnType<typeof synth>) => (template.Resources.IamRoleLambdaExecution as { Properties: Record<string, any> }).Properties;

const disableLogs = suite('disableLogs and the shared role');

disableLogs('no function logs: no log statements (v3 writes them with empty Resource lists, which IAM rejects), the other statements stay', () => {
  const t = synth({
    provider: { name: 'aws', runtime: 'nodejs18.x', iam: { role: { statements: [{ Effect: 'Allow', Action: ['s3:GetObject'], Resource: '*' }] } } },
    functions: { hello: { handler: 'handler.hello', disableLogs: true } },
  } as never);
  assert.equal(role(t).Policies[0].PolicyDocument.Statement, [{ Effect: 'Allow', Action: ['s3:GetObject'], Resource: '*' }]);
  assert.is(t.Resources.HelloLogGroup, undefined);
});

disableLogs('no function logs and no other statement: the role has no inline policy (an empty one is not a valid policy document)', () => {
  const t = synth({ functions: { hello: { handler: 'handler.hello', disableLogs: true } } });
  assert.equal(Object.keys(role(t)), ['AssumeRolePolicyDocument', 'Path', 'RoleName']);
});

disableLogs('another function logs under the service prefix: the prefix is allowed and the silent function denied, as in v3', () => {
  const t = synth({ functions: { hello: { handler: 'handler.hello', disableLogs: true }, other: { handler: 'handler.hello' } } });
  assert.equal(role(t).Policies[0].PolicyDocument.Statement, [
    { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:CreateLogGroup', 'logs:TagResource'], Resource: [logs('app-dev*:*')] },
    { Effect: 'Allow', Action: ['logs:PutLogEvents'], Resource: [logs('app-dev*:*:*')] },
    { Effect: 'Deny', Action: 'logs:PutLogEvents', Resource: [logs('app-dev-hello:*')] },
  ]);
});

disableLogs('only a custom-named function logs: its own group alone, no prefix and no deny (v3 writes the same)', () => {
  const t = synth({ functions: { hello: { handler: 'handler.hello', disableLogs: true }, named: { handler: 'handler.hello', name: 'custom-named' } } });
  assert.equal(role(t).Policies[0].PolicyDocument.Statement, [
    { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:CreateLogGroup', 'logs:TagResource'], Resource: [logs('custom-named:*')] },
    { Effect: 'Allow', Action: ['logs:PutLogEvents'], Resource: [logs('custom-named:*:*')] },
  ]);
});

disableLogs.run();
