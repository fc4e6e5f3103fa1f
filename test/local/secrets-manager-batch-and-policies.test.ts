import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BatchGetSecretValueCommand,
  CreateSecretCommand,
  DeleteResourcePolicyCommand,
  DeleteSecretCommand,
  GetResourcePolicyCommand,
  PutResourcePolicyCommand,
  SecretsManagerClient,
  ValidateResourcePolicyCommand,
} from '@aws-sdk/client-secrets-manager';
import { failure, startTestCloud, type TestCloud } from './helpers';

const batch = suite<{ t: TestCloud; client: SecretsManagerClient }>('local Secrets Manager BatchGetSecretValue and resource policies');
batch.before(async (context) => {
  context.t = await startTestCloud();
  context.client = new SecretsManagerClient({ ...context.t.config, maxAttempts: 1 });
  for (const [Name, SecretString, team] of [['batch/a', 'A', 'x'], ['batch/b', 'B', 'y'], ['batch/c', 'C', 'x'], ['other', 'O', 'x']]) {
    await context.client.send(new CreateSecretCommand({ Name, SecretString, Tags: [{ Key: 'team', Value: team }] }));
  }
  await context.client.send(new CreateSecretCommand({ Name: 'batch/deleted', SecretString: 'D' }));
  await context.client.send(new DeleteSecretCommand({ SecretId: 'batch/deleted' }));
});
batch.after(async (context) => {
  context.client.destroy();
  await context.t.stop();
});

const policy = (statement: Record<string, unknown>) => JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: '*', ...statement }] });

batch('BatchGetSecretValue by SecretIdList returns the values it can read and an Errors entry for each other id', async ({ client }) => {
  const result = await client.send(new BatchGetSecretValueCommand({ SecretIdList: ['batch/a', 'missing', 'batch/c', 'batch/deleted'] }));
  assert.equal(result.SecretValues!.map((value) => [value.Name, value.SecretString, value.VersionStages]), [['batch/a', 'A', ['AWSCURRENT']], ['batch/c', 'C', ['AWSCURRENT']]]);
  assert.match(result.SecretValues![0].ARN!, /^arn:aws:secretsmanager:us-east-1:\d{12}:secret:batch\/a-[A-Za-z0-9]{6}$/);
  assert.equal(result.Errors, [
    { SecretId: 'missing', ErrorCode: 'ResourceNotFoundException', Message: "Secrets Manager can't find the specified secret." },
    { SecretId: 'batch/deleted', ErrorCode: 'InvalidRequestException', Message: "You can't perform this operation on the secret because it was marked for deletion." },
  ]);
});

batch('BatchGetSecretValue by Filters pages through the matching live secrets', async ({ client }) => {
  const first = await client.send(new BatchGetSecretValueCommand({ Filters: [{ Key: 'name', Values: ['batch/'] }, { Key: 'tag-value', Values: ['x'] }], MaxResults: 1 }));
  assert.equal(first.SecretValues!.map((value) => value.SecretString), ['A']);
  assert.type(first.NextToken, 'string');
  const second = await client.send(new BatchGetSecretValueCommand({ Filters: [{ Key: 'name', Values: ['batch/'] }, { Key: 'tag-value', Values: ['x'] }], MaxResults: 1, NextToken: first.NextToken }));
  assert.equal([second.SecretValues!.map((value) => value.SecretString), second.NextToken, second.Errors], [['C'], undefined, []]);
});

batch('BatchGetSecretValue refuses both or neither of SecretIdList and Filters, and more than 20 ids', async ({ client }) => {
  const both = await failure(client.send(new BatchGetSecretValueCommand({ SecretIdList: ['batch/a'], Filters: [{ Key: 'name', Values: ['b'] }] })));
  assert.equal([both?.name, both?.message], ['InvalidParameterException', 'Either Filters or SecretIdList must be provided, but not both.']);
  assert.is((await failure(client.send(new BatchGetSecretValueCommand({}))))?.name, 'InvalidParameterException');
  const many = await failure(client.send(new BatchGetSecretValueCommand({ SecretIdList: Array.from({ length: 21 }, (_, i) => `s${i}`) })));
  assert.is(many?.name, 'InvalidParameterException');
});

batch('PutResourcePolicy, GetResourcePolicy and DeleteResourcePolicy keep a policy on the secret across a restart', async (context) => {
  const document = policy({ Principal: { AWS: 'arn:aws:iam::123456789012:root' } });
  const put = await context.client.send(new PutResourcePolicyCommand({ SecretId: 'batch/b', ResourcePolicy: document, BlockPublicPolicy: true }));
  assert.is(put.Name, 'batch/b');
  await context.t.stop({ keepData: true });
  context.client.destroy();
  context.t = await startTestCloud(context.t.dataDir);
  context.client = new SecretsManagerClient({ ...context.t.config, maxAttempts: 1 });
  const got = await context.client.send(new GetResourcePolicyCommand({ SecretId: 'batch/b' }));
  assert.equal([got.Name, got.ResourcePolicy], ['batch/b', document]);
  await context.client.send(new DeleteResourcePolicyCommand({ SecretId: 'batch/b' }));
  const gone = await context.client.send(new GetResourcePolicyCommand({ SecretId: 'batch/b' }));
  assert.equal([gone.Name, gone.ResourcePolicy], ['batch/b', undefined]);
  assert.is((await failure(context.client.send(new GetResourcePolicyCommand({ SecretId: 'nowhere' }))))?.name, 'ResourceNotFoundException');
});

batch('a public policy is refused with BlockPublicPolicy and fails ValidateResourcePolicy; a malformed one is refused', async ({ client }) => {
  const open = policy({ Principal: '*' });
  const blocked = await failure(client.send(new PutResourcePolicyCommand({ SecretId: 'batch/a', ResourcePolicy: open, BlockPublicPolicy: true })));
  assert.is(blocked?.name, 'PublicPolicyException');
  const validated = await client.send(new ValidateResourcePolicyCommand({ SecretId: 'batch/a', ResourcePolicy: open }));
  assert.equal([validated.PolicyValidationPassed, validated.ValidationErrors!.map((entry) => entry.CheckName)], [false, ['BLOCK_PUBLIC_POLICY']]);
  const narrowed = await client.send(new ValidateResourcePolicyCommand({ ResourcePolicy: policy({ Principal: '*', Condition: { StringEquals: { 'aws:PrincipalOrgID': 'o-1' } } }) }));
  assert.equal([narrowed.PolicyValidationPassed, narrowed.ValidationErrors], [true, []]);
  await client.send(new PutResourcePolicyCommand({ SecretId: 'batch/a', ResourcePolicy: open }));
  const malformed = await failure(client.send(new PutResourcePolicyCommand({ SecretId: 'batch/a', ResourcePolicy: '{"Statement": [' })));
  assert.equal([malformed?.name, malformed?.message], ['MalformedPolicyDocumentException', 'This resource policy contains a syntax error: the document is not valid JSON.']);
  const noPrincipal = await failure(client.send(new ValidateResourcePolicyCommand({ ResourcePolicy: JSON.stringify({ Statement: { Effect: 'Allow', Action: '*' } }) })));
  assert.is(noPrincipal?.name, 'MalformedPolicyDocumentException');
});

batch.run();
