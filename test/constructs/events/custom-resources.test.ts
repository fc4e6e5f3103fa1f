import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeCustomResourcesZip } from '../../../src/constructs/custom-resources';
import type { ServiceConfig } from '../../../src/constructs/model';
import { Service } from '../../../src/constructs/service';
import { makeHandler, statementId } from '../../../src/custom-resources/s3/handler';
import { ARTIFACT_DIR, synth } from '../../helpers/synth';
import { names } from '../../package/helpers';
import { withEvents } from './helpers';
import { responseUrl } from '../../helpers/response-url';

const customResources = suite('custom resources');

const existing = (bucket: string) => ({ s3: { bucket, existing: true } });

customResources('one function and one role serve every existing bucket, each bucket allowed once', () => {
  const t = synth({
    functions: {
      users: { handler: 'h.main', events: [existing('legacy-photos'), { s3: { bucket: 'legacy-photos', event: 's3:ObjectRemoved:*', existing: true } }] },
      archive: { handler: 'h.main', events: [existing('legacy-archive')] },
    },
  } as never);
  assert.equal(t.Resources.CustomDashresourceDashexistingDashs3LambdaFunction, {
    Type: 'AWS::Lambda::Function',
    Properties: {
      Code: { S3Bucket: { Ref: 'ServerlessDeploymentBucket' }, S3Key: `${ARTIFACT_DIR}/custom-resources.zip` },
      FunctionName: 'app-dev-custom-resource-existing-s3',
      Handler: 's3/handler.handler',
      MemorySize: 1024,
      Runtime: 'nodejs18.x',
      Timeout: 180,
      Role: { 'Fn::GetAtt': ['IamRoleCustomResourcesLambdaExecution', 'Arn'] },
    },
    DependsOn: ['IamRoleCustomResourcesLambdaExecution'],
  });
  const bucketStatement = (bucket: string) => ({
    Effect: 'Allow',
    Resource: { 'Fn::Join': [':', ['arn', { Ref: 'AWS::Partition' }, 's3', '', '', bucket]] },
    Action: ['s3:PutBucketNotification', 's3:GetBucketNotification'],
  });
  assert.equal(t.Resources.IamRoleCustomResourcesLambdaExecution, {
    Type: 'AWS::IAM::Role',
    Properties: {
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: ['lambda.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
      },
      Policies: [
        {
          PolicyName: { 'Fn::Join': ['-', ['dev', 'app', 'custom-resources-lambda']] },
          PolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              bucketStatement('legacy-photos'),
              bucketStatement('legacy-archive'),
              {
                Effect: 'Allow',
                Resource: {
                  'Fn::Join': [':', ['arn', { Ref: 'AWS::Partition' }, 'lambda', { Ref: 'AWS::Region' }, { Ref: 'AWS::AccountId' }, 'function', '*']],
                },
                Action: ['lambda:AddPermission', 'lambda:RemovePermission'],
              },
            ],
          },
        },
      ],
    },
  });
  assert.equal(Object.keys(t.Resources).filter(id => id.includes('CustomS3')), ['UsersCustomS31', 'ArchiveCustomS31']);
});

customResources('a function name over 64 characters keeps 32 and adds the md5 of the whole', () => {
  const t = synth({ service: 'a-rather-long-service-name-for-testing-truncation', ...withEvents('users', [existing('legacy')]) } as never);
  assert.is(
    (t.Resources.CustomDashresourceDashexistingDashs3LambdaFunction.Properties as any).FunctionName,
    'a-rather-long-service-name-for-t77471748f852258c646c84584bed62d3',
  );
});

function service(config: Partial<ServiceConfig>): Service {
  const full = { service: 'app', provider: { name: 'aws', runtime: 'nodejs18.x' }, ...config } as ServiceConfig;
  return new Service({ config: full, stage: 'dev', region: 'us-east-1', artifactDirectory: ARTIFACT_DIR, instanceId: '1' });
}

customResources('the packaging hook writes custom-resources.zip only when a custom resource is used', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-custom-resources-'));
  try {
    assert.is(writeCustomResourcesZip(service({ functions: { a: { handler: 'h.main' } } } as never), dir), undefined);
    const artifact = writeCustomResourcesZip(service(withEvents('users', [existing('legacy')]) as never), dir);
    assert.is(artifact?.name, 'custom-resources.zip');
    assert.is(artifact?.path, join(dir, 'custom-resources.zip'));
    // Every kind's handler ships in the one zip; only compiled JavaScript, no declarations.
    const entries = names(artifact!.path);
    assert.ok(entries.includes('response.js') && entries.includes('s3/handler.js'), entries.join(', '));
    assert.equal(entries.filter(name => !name.endsWith('.js') || name.endsWith('.d.js')), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A fake SDK client: records each command by name and answers from `replies`. */
function fakeClient(calls: Array<{ command: string; input: any }>, replies: Record<string, unknown> = {}) {
  return {
    send: async (command: { constructor: { name: string }; input: unknown }) => {
      calls.push({ command: command.constructor.name, input: command.input });
      const reply = replies[command.constructor.name];
      if (reply instanceof Error) throw reply;
      return reply ?? {};
    },
  } as never;
}

const context = { invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:app-dev-custom-resource-existing-s3', logStreamName: 'stream' };
const event = (RequestType: 'Create' | 'Update' | 'Delete', ResponseURL: string) => ({
  RequestType,
  ResponseURL,
  StackId: 'stack',
  RequestId: 'request',
  LogicalResourceId: 'UsersCustomS31',
  ResourceProperties: { FunctionName: 'app-dev-users', BucketName: 'legacy', BucketConfigs: [{ Event: 's3:ObjectCreated:*', Rules: [{ Prefix: 'up/' }] }] },
});

customResources('the handler grants S3 the invoke permission and adds its configuration beside the others', async () => {
  const answer = await responseUrl();
  const s3Calls: Array<{ command: string; input: any }> = [];
  const lambdaCalls: Array<{ command: string; input: any }> = [];
  const other = { Id: 'someone-else', LambdaFunctionArn: 'arn:x', Events: ['s3:ObjectRemoved:*'] };
  const stale = { Id: 'fw:app-dev-users:0', LambdaFunctionArn: 'arn:old', Events: ['s3:ObjectCreated:*'] };
  try {
    const handler = makeHandler({
      s3: fakeClient(s3Calls, { GetBucketNotificationConfigurationCommand: { LambdaFunctionConfigurations: [other, stale] } }),
      lambda: fakeClient(lambdaCalls),
    });
    await handler(event('Create', answer.url), context);
    assert.equal(lambdaCalls, [
      {
        command: 'AddPermissionCommand',
        input: {
          FunctionName: 'app-dev-users',
          StatementId: statementId('legacy'),
          Action: 'lambda:InvokeFunction',
          Principal: 's3.amazonaws.com',
          SourceArn: 'arn:aws:s3:::legacy',
          SourceAccount: '123456789012',
        },
      },
    ]);
    assert.equal(s3Calls[1], {
      command: 'PutBucketNotificationConfigurationCommand',
      input: {
        Bucket: 'legacy',
        NotificationConfiguration: {
          TopicConfigurations: undefined,
          QueueConfigurations: undefined,
          EventBridgeConfiguration: undefined,
          LambdaFunctionConfigurations: [
            other,
            {
              Id: 'fw:app-dev-users:0',
              LambdaFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:app-dev-users',
              Events: ['s3:ObjectCreated:*'],
              Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'up/' }] } },
            },
          ],
        },
      },
    });
    assert.equal(answer.bodies, [
      {
        Status: 'SUCCESS',
        Reason: 'See CloudWatch log stream stream',
        PhysicalResourceId: 'app-dev-users-legacy',
        StackId: 'stack',
        RequestId: 'request',
        LogicalResourceId: 'UsersCustomS31',
        Data: {},
      },
    ]);
  } finally {
    answer.close();
  }
});

customResources('on delete the handler removes only its configuration and the permission', async () => {
  const answer = await responseUrl();
  const s3Calls: Array<{ command: string; input: any }> = [];
  const lambdaCalls: Array<{ command: string; input: any }> = [];
  const other = { Id: 'someone-else', LambdaFunctionArn: 'arn:x', Events: ['s3:ObjectRemoved:*'] };
  try {
    const handler = makeHandler({
      s3: fakeClient(s3Calls, {
        GetBucketNotificationConfigurationCommand: { LambdaFunctionConfigurations: [other, { Id: 'fw:app-dev-users:0', Events: [] }] },
      }),
      lambda: fakeClient(lambdaCalls),
    });
    await handler(event('Delete', answer.url), context);
    assert.equal(s3Calls[1].input.NotificationConfiguration.LambdaFunctionConfigurations, [other]);
    assert.equal(lambdaCalls, [{ command: 'RemovePermissionCommand', input: { FunctionName: 'app-dev-users', StatementId: statementId('legacy') } }]);
    assert.is(answer.bodies[0].Status, 'SUCCESS');
  } finally {
    answer.close();
  }
});

customResources('a failing call is reported to CloudFormation instead of leaving it waiting', async () => {
  const answer = await responseUrl();
  try {
    const denied = Object.assign(new Error('Access Denied'), { name: 'AccessDenied' });
    const handler = makeHandler({ s3: fakeClient([], { GetBucketNotificationConfigurationCommand: denied }), lambda: fakeClient([]) });
    const quiet = console.error;
    console.error = () => undefined;
    try {
      await handler(event('Create', answer.url), context);
    } finally {
      console.error = quiet;
    }
    assert.is(answer.bodies[0].Status, 'FAILED');
    assert.is(answer.bodies[0].Reason, 'Access Denied (log stream stream)');
  } finally {
    answer.close();
  }
});

customResources.run();
