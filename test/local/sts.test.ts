import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GetParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { failure, startTestCloud, type TestCloud } from './helpers';

const sts = suite<{ t: TestCloud; client: STSClient }>('local STS AssumeRole');
sts.before(async (context) => {
  context.t = await startTestCloud();
  context.client = new STSClient({ ...context.t.config, maxAttempts: 1 });
});
sts.after(async (context) => {
  context.client.destroy();
  await context.t.stop();
});

sts('AssumeRole returns temporary credentials for the role and session, valid for DurationSeconds', async ({ client }) => {
  const before = Math.floor(Date.now() / 1000) * 1000;
  const result = await client.send(new AssumeRoleCommand({ RoleArn: 'arn:aws:iam::123456789012:role/service/deployer', RoleSessionName: 'ci-run.42', DurationSeconds: 900 }));
  const after = Date.now();
  const credentials = result.Credentials!;
  assert.match(credentials.AccessKeyId!, /^ASIA[A-Z2-7]{16}$/);
  assert.ok(credentials.SecretAccessKey!.length >= 40);
  assert.ok(credentials.SessionToken!.length >= 100);
  const expires = credentials.Expiration!.getTime();
  assert.ok(expires >= before + 900_000 && expires <= after + 900_000, `${credentials.Expiration!.toISOString()} is not 900 s from now`);
  assert.match(result.AssumedRoleUser!.AssumedRoleId!, /^AROA[A-Z2-7]{16}:ci-run\.42$/);
  assert.is(result.AssumedRoleUser!.Arn, 'arn:aws:sts::123456789012:assumed-role/deployer/ci-run.42');

  const defaults = await client.send(new AssumeRoleCommand({ RoleArn: 'arn:aws:iam::000000000000:role/app', RoleSessionName: 'me' }));
  const hour = defaults.Credentials!.Expiration!.getTime() - Date.now();
  assert.ok(hour > 3_590_000 && hour <= 3_600_000, `default expiry is ${hour} ms away`);
  assert.is.not(defaults.Credentials!.AccessKeyId, credentials.AccessKeyId);
});

sts('the assumed credentials sign requests to the other APIs', async ({ t, client }) => {
  const { Credentials } = await client.send(new AssumeRoleCommand({ RoleArn: 'arn:aws:iam::000000000000:role/app', RoleSessionName: 'worker' }));
  const credentials = { accessKeyId: Credentials!.AccessKeyId!, secretAccessKey: Credentials!.SecretAccessKey!, sessionToken: Credentials!.SessionToken! };
  const ssm = new SSMClient({ ...t.config, credentials, maxAttempts: 1 });
  const assumed = new STSClient({ ...t.config, credentials, maxAttempts: 1 });
  try {
    await ssm.send(new PutParameterCommand({ Name: '/assumed/value', Value: 'yes', Type: 'String' }));
    assert.is((await ssm.send(new GetParameterCommand({ Name: '/assumed/value' }))).Parameter?.Value, 'yes');
    assert.is((await assumed.send(new GetCallerIdentityCommand({}))).Account, '000000000000');
  } finally {
    ssm.destroy();
    assumed.destroy();
  }
});

sts('AssumeRole validates its parameters as AWS does', async ({ client }) => {
  const cases: [Record<string, unknown>, string][] = [
    [{ DurationSeconds: 899 }, "1 validation error detected: Value '899' at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to 900"],
    [{ DurationSeconds: 43201 }, "1 validation error detected: Value '43201' at 'durationSeconds' failed to satisfy constraint: Member must have value less than or equal to 43200"],
    [{ RoleSessionName: 'a' }, "1 validation error detected: Value 'a' at 'roleSessionName' failed to satisfy constraint: Member must have length greater than or equal to 2"],
    [{ RoleSessionName: 'has space' }, "1 validation error detected: Value 'has space' at 'roleSessionName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]*"],
    [{ RoleArn: 'arn:aws:s3:::bucket/key/of/some/length' }, 'Request ARN is invalid'],
  ];
  for (const [change, message] of cases) {
    const error = await failure(client.send(new AssumeRoleCommand({ RoleArn: 'arn:aws:iam::000000000000:role/app', RoleSessionName: 'ok', ...change })));
    assert.is(error?.name, 'ValidationError', JSON.stringify(change));
    assert.is(error?.message, message);
    assert.is(error?.$metadata?.httpStatusCode, 400);
  }
});

sts.run();
