import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStacksCommand, GetStackPolicyCommand } from '@aws-sdk/client-cloudformation';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { listDeployments, listKeys } from '../../src/deploy/bucket';
import { startTestService, type TestService } from '../helpers/local-cloud';

const POLICY = [{ Effect: 'Allow', Principal: '*', Action: 'Update:*', Resource: '*' }];
const ROLE = 'arn:aws:iam::000000000000:role/cloudformation-deployer';
const TOPIC = 'arn:aws:sns:us-east-1:000000000000:deploys';
const ALARM = 'arn:aws:cloudwatch:us-east-1:000000000000:alarm:errors';
const KEY = 'arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab';

const service = (method: string) => `service: settings
provider:
  name: aws
  runtime: nodejs20.x
  deploymentMethod: ${method}
  stackTags:
    team: core
  stackPolicy:
    - Effect: Allow
      Principal: '*'
      Action: 'Update:*'
      Resource: '*'
  notificationArns:
    - ${TOPIC}
  iam:
    deploymentRole: ${ROLE}
  rollbackConfiguration:
    RollbackTriggers:
      - Arn: ${ALARM}
        Type: AWS::CloudWatch::Alarm
    MonitoringTimeInMinutes: 5
  disableRollback: true
  stackParameters:
    - ParameterKey: Greeting
      ParameterValue: hi
  deploymentBucket:
    serverSideEncryption: aws:kms
    sseKMSKeyId: ${KEY}
    maxPreviousDeploymentArtifacts: 2
functions:
  hello:
    handler: handler.hello
resources:
  Parameters:
    Greeting:
      Type: String
`;

for (const method of ['changesets', 'direct']) {
  const settings = suite<TestService>(`fw deploy sends the deploy-time settings of provider (${method})`);

  settings.before(async context => {
    Object.assign(context, await startTestService({ 'fw.yml': service(method), 'handler.js': 'exports.hello = async () => "hi";\n' }));
  });
  settings.after(async context => context.stop());

  settings('the stack carries the role, topics, rollback settings, parameters and tags the config names', async context => {
    const result = await context.fw('deploy');
    assert.is(result.code, 0, result.stderr);
    const warning = result.stdout.slice(result.stdout.indexOf('Warning: the local cloud does not enforce or emulate'));
    for (const line of [
      `  - notification topics of settings-dev: recorded, no stack events are published to them\n`,
      `  - rollback triggers of settings-dev: recorded, their alarms are not watched\n`,
      `  - service role ${ROLE}: recorded, not assumed\n`,
    ]) assert.match(warning, line);
    assert.not.match(warning, 'stack policy', 'the local cloud enforces the stack policy');
    const stack = (await context.cfn.send(new DescribeStacksCommand({ StackName: 'settings-dev' }))).Stacks![0]!;
    assert.equal(
      {
        RoleARN: stack.RoleARN,
        NotificationARNs: stack.NotificationARNs,
        RollbackConfiguration: stack.RollbackConfiguration,
        DisableRollback: stack.DisableRollback,
        Parameters: stack.Parameters,
        Tags: stack.Tags,
      },
      {
        RoleARN: ROLE,
        NotificationARNs: [TOPIC],
        RollbackConfiguration: { RollbackTriggers: [{ Arn: ALARM, Type: 'AWS::CloudWatch::Alarm' }], MonitoringTimeInMinutes: 5 },
        DisableRollback: true,
        Parameters: [{ ParameterKey: 'Greeting', ParameterValue: 'hi' }],
        Tags: [
          { Key: 'STAGE', Value: 'dev' },
          { Key: 'team', Value: 'core' },
        ],
      },
    );
  });

  settings('the stack policy is the statements of provider.stackPolicy, a single Action as a list (as v3 sends it)', async context => {
    const policy = await context.cfn.send(new GetStackPolicyCommand({ StackName: 'settings-dev' }));
    assert.equal(JSON.parse(policy.StackPolicyBody!), { Statement: [{ ...POLICY[0], Action: ['Update:*'] }] });
  });

  settings('every uploaded object is encrypted with the key provider.deploymentBucket names', async context => {
    const bucket = await deploymentBucket(context);
    const keys = await listKeys({ s3: context.s3 } as never, bucket, 'serverless/settings/dev/');
    assert.equal(keys.map(key => key.split('/').at(-1)).sort(), ['compiled-cloudformation-template.json', 'serverless-state.json', 'settings.zip']);
    for (const key of keys) {
      const head = await context.s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      assert.equal({ key, ServerSideEncryption: head.ServerSideEncryption, SSEKMSKeyId: head.SSEKMSKeyId }, { key, ServerSideEncryption: 'aws:kms', SSEKMSKeyId: KEY });
    }
  });

  settings('after four deploys of new code, the bucket keeps the last maxPreviousDeploymentArtifacts (2) deployments', async context => {
    for (let i = 0; i < 3; i++) {
      // New code each time: an unchanged artifact stays where an older deployment stored it, keeping that folder.
      writeFileSync(join(context.service, 'handler.js'), `exports.hello = async () => "hi ${i}";\n`);
      const result = await context.fw('deploy');
      assert.is(result.code, 0, result.stderr);
    }
    const bucket = await deploymentBucket(context);
    const folders = await listDeployments({ s3: context.s3 } as never, bucket, 'serverless/settings/dev');
    assert.is(folders.length, 2);
  });

  settings.run();
}

async function deploymentBucket(context: TestService): Promise<string> {
  const stack = (await context.cfn.send(new DescribeStacksCommand({ StackName: 'settings-dev' }))).Stacks![0]!;
  return stack.Outputs!.find(output => output.OutputKey === 'ServerlessDeploymentBucketName')!.OutputValue!;
}
