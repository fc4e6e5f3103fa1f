import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand, DeleteStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import {
  CreateSecretCommand,
  DeleteSecretCommand,
  DescribeSecretCommand,
  GetRandomPasswordCommand,
  GetSecretValueCommand,
  ListSecretsCommand,
  PutSecretValueCommand,
  RestoreSecretCommand,
  SecretsManagerClient,
  UpdateSecretCommand,
} from '@aws-sdk/client-secrets-manager';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { failure, outputsOf, settle, startTestCloud, zip, type TestCloud } from './helpers';

const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

const secrets = suite<TestCloud & { client: SecretsManagerClient }>('the local Secrets Manager answers as AWS does');

secrets.before.each(async (context) => {
  Object.assign(context, await startTestCloud());
  context.client = new SecretsManagerClient({ ...context.config, maxAttempts: 1 });
});
secrets.after.each(async (context) => {
  context.client.destroy();
  await context.stop();
});

/** An SDK failure as [name, message]. */
async function refusal(call: Promise<unknown>): Promise<[string, string]> {
  const error = await failure(call);
  if (!error) throw new Error('the call succeeded');
  return [error.name, error.message];
}

secrets('a secret is created once, read by name and by ARN, and its ARN ends in six random characters', async ({ client }) => {
  const created = await client.send(new CreateSecretCommand({ Name: 'prod/db', SecretString: '{"password":"hunter2"}', Description: 'the database', Tags: [{ Key: 'team', Value: 'core' }] }));
  assert.match(created.ARN!, /^arn:aws:secretsmanager:us-east-1:000000000000:secret:prod\/db-[A-Za-z0-9]{6}$/);
  assert.is(created.Name, 'prod/db');
  assert.match(created.VersionId!, /^[0-9a-f-]{36}$/);
  for (const SecretId of ['prod/db', created.ARN!]) {
    const read = await client.send(new GetSecretValueCommand({ SecretId }));
    assert.equal([read.ARN, read.Name, read.VersionId, read.SecretString, read.VersionStages], [created.ARN, 'prod/db', created.VersionId, '{"password":"hunter2"}', ['AWSCURRENT']]);
    assert.instance(read.CreatedDate, Date);
  }
  assert.equal(await refusal(client.send(new CreateSecretCommand({ Name: 'prod/db', SecretString: 'again' }))), ['ResourceExistsException', 'The operation failed because the secret prod/db already exists.']);
  assert.equal(await refusal(client.send(new GetSecretValueCommand({ SecretId: 'prod/nope' }))), ['ResourceNotFoundException', "Secrets Manager can't find the specified secret."]);
  assert.equal(await refusal(client.send(new CreateSecretCommand({ Name: 'both', SecretString: 'a', SecretBinary: Buffer.from('b') }))), [
    'InvalidParameterException',
    "You can't specify both a binary secret value and a string secret value in the same secret.",
  ]);
});

secrets('a binary secret reads back as the bytes written', async ({ client }) => {
  const bytes = Buffer.from([0, 1, 2, 254, 255]);
  await client.send(new CreateSecretCommand({ Name: 'cert', SecretBinary: bytes }));
  const read = await client.send(new GetSecretValueCommand({ SecretId: 'cert' }));
  assert.equal(Buffer.from(read.SecretBinary!), bytes);
  assert.is(read.SecretString, undefined);
});

secrets('a new value becomes AWSCURRENT and the one it replaces AWSPREVIOUS', async ({ client }) => {
  const first = await client.send(new CreateSecretCommand({ Name: 'api-key', SecretString: 'one' }));
  const second = await client.send(new PutSecretValueCommand({ SecretId: 'api-key', SecretString: 'two' }));
  assert.equal(second.VersionStages, ['AWSCURRENT']);
  const third = await client.send(new UpdateSecretCommand({ SecretId: 'api-key', SecretString: 'three', Description: 'rotated' }));
  const read = async (input: { VersionId?: string; VersionStage?: string }) => (await client.send(new GetSecretValueCommand({ SecretId: 'api-key', ...input }))).SecretString;
  assert.equal([await read({}), await read({ VersionStage: 'AWSCURRENT' }), await read({ VersionStage: 'AWSPREVIOUS' }), await read({ VersionId: first.VersionId })], ['three', 'three', 'two', 'one']);
  const described = await client.send(new DescribeSecretCommand({ SecretId: 'api-key' }));
  assert.equal(described.VersionIdsToStages, { [second.VersionId!]: ['AWSPREVIOUS'], [third.VersionId!]: ['AWSCURRENT'] });
  assert.is(described.Description, 'rotated');
  assert.equal(await refusal(read({ VersionStage: 'AWSPENDING' })), ['ResourceNotFoundException', "Secrets Manager can't find the specified secret value for staging label: AWSPENDING"]);
  assert.equal(await refusal(read({ VersionId: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee' })), ['ResourceNotFoundException', "Secrets Manager can't find the specified secret value for VersionId: aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"]);
});

secrets('a deleted secret waits out its recovery window, can be restored, and a forced deletion removes it now', async ({ client }) => {
  await client.send(new CreateSecretCommand({ Name: 'kept', SecretString: 'v' }));
  await client.send(new CreateSecretCommand({ Name: 'gone', SecretString: 'v' }));
  const before = Date.now();
  const deleted = await client.send(new DeleteSecretCommand({ SecretId: 'kept' }));
  const days = (deleted.DeletionDate!.getTime() - before) / 86_400_000;
  assert.ok(days > 29.99 && days < 30.01, `30 days, got ${days}`);
  assert.equal(await refusal(client.send(new GetSecretValueCommand({ SecretId: 'kept' }))), ['InvalidRequestException', "You can't perform this operation on the secret because it was marked for deletion."]);
  assert.equal(await refusal(client.send(new CreateSecretCommand({ Name: 'kept', SecretString: 'v' }))), ['InvalidRequestException', "You can't create this secret because a secret with this name is already scheduled for deletion."]);
  assert.instance((await client.send(new DescribeSecretCommand({ SecretId: 'kept' }))).DeletedDate, Date);
  assert.equal((await client.send(new ListSecretsCommand({}))).SecretList!.map((secret) => secret.Name), ['gone']);
  assert.equal((await client.send(new ListSecretsCommand({ IncludePlannedDeletion: true }))).SecretList!.map((secret) => secret.Name), ['kept', 'gone']);
  await client.send(new RestoreSecretCommand({ SecretId: 'kept' }));
  assert.is((await client.send(new GetSecretValueCommand({ SecretId: 'kept' }))).SecretString, 'v');

  assert.equal(await refusal(client.send(new DeleteSecretCommand({ SecretId: 'gone', RecoveryWindowInDays: 3 }))), ['InvalidParameterException', 'The RecoveryWindowInDays value must be between 7 and 30 days (inclusive).']);
  assert.equal(await refusal(client.send(new DeleteSecretCommand({ SecretId: 'gone', RecoveryWindowInDays: 7, ForceDeleteWithoutRecovery: true }))), [
    'InvalidParameterException',
    "You can't use ForceDeleteWithoutRecovery in conjunction with RecoveryWindowInDays.",
  ]);
  await client.send(new DeleteSecretCommand({ SecretId: 'gone', ForceDeleteWithoutRecovery: true }));
  assert.equal(await refusal(client.send(new DescribeSecretCommand({ SecretId: 'gone' }))), ['ResourceNotFoundException', "Secrets Manager can't find the specified secret."]);
  // Forcing the deletion of a secret that is not there succeeds, as AWS documents; a second create of the name works.
  await client.send(new DeleteSecretCommand({ SecretId: 'gone', ForceDeleteWithoutRecovery: true }));
  await client.send(new CreateSecretCommand({ Name: 'gone', SecretString: 'new' }));
  assert.equal((await client.send(new ListSecretsCommand({ Filters: [{ Key: 'name', Values: ['go'] }] }))).SecretList!.map((secret) => secret.Name), ['gone']);
});

secrets('GetRandomPassword makes 32 characters of every class by default and honours the exclusions', async ({ client }) => {
  const classes = [/[A-Z]/, /[a-z]/, /[0-9]/, new RegExp(`[${PUNCTUATION.replace(/[\\\]^-]/g, '\\$&')}]`)];
  for (let attempt = 0; attempt < 20; attempt++) {
    const { RandomPassword } = await client.send(new GetRandomPasswordCommand({}));
    assert.is(RandomPassword!.length, 32);
    assert.equal(classes.map((pattern) => pattern.test(RandomPassword!)), [true, true, true, true], RandomPassword);
    assert.not.match(RandomPassword!, / /);
  }
  const { RandomPassword } = await client.send(new GetRandomPasswordCommand({ PasswordLength: 200, ExcludePunctuation: true, ExcludeUppercase: true, ExcludeCharacters: 'abc123', IncludeSpace: true }));
  assert.is(RandomPassword!.length, 200);
  assert.match(RandomPassword!, /^[d-z04-9 ]+$/);
  assert.match(RandomPassword!, / /);
});

secrets('a stack declares secrets, functions read them, an update makes a new version and deleting the stack removes them at once', async ({ cfn, client }) => {
  const template = (value: string) => ({
    Resources: {
      DbSecret: {
        Type: 'AWS::SecretsManager::Secret',
        Properties: { Name: 'app/db', Description: 'generated', GenerateSecretString: { SecretStringTemplate: '{"username":"admin"}', GenerateStringKey: 'password', PasswordLength: 20, ExcludeCharacters: '"@/\\' } },
      },
      ApiKey: { Type: 'AWS::SecretsManager::Secret', Properties: { SecretString: value } },
    },
    Outputs: { DbArn: { Value: { Ref: 'DbSecret' } }, ApiKeyId: { Value: { 'Fn::GetAtt': ['ApiKey', 'Id'] } } },
  });
  await cfn.send(new CreateStackCommand({ StackName: 'secrets', TemplateBody: JSON.stringify(template('k1')) }));
  const stack = await settle(cfn, 'secrets');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE');
  const outputs = outputsOf(stack);
  assert.match(outputs.DbArn, /^arn:aws:secretsmanager:us-east-1:000000000000:secret:app\/db-[A-Za-z0-9]{6}$/);
  assert.match(outputs.ApiKeyId, /^arn:aws:secretsmanager:us-east-1:000000000000:secret:ApiKey-[A-Z0-9]{12}-[A-Za-z0-9]{6}$/);
  const db = JSON.parse((await client.send(new GetSecretValueCommand({ SecretId: 'app/db' }))).SecretString!) as Record<string, string>;
  assert.equal(Object.keys(db), ['username', 'password']);
  assert.is(db.username, 'admin');
  assert.is(db.password.length, 20);
  assert.not.match(db.password, /["@/\\]/);
  assert.is((await client.send(new GetSecretValueCommand({ SecretId: outputs.ApiKeyId }))).SecretString, 'k1');

  await cfn.send(new UpdateStackCommand({ StackName: 'secrets', TemplateBody: JSON.stringify(template('k2')) }));
  assert.is((await settle(cfn, 'secrets')).StackStatus, 'UPDATE_COMPLETE');
  assert.equal((await client.send(new GetSecretValueCommand({ SecretId: outputs.ApiKeyId }))).SecretString, 'k2');
  assert.equal((await client.send(new GetSecretValueCommand({ SecretId: outputs.ApiKeyId, VersionStage: 'AWSPREVIOUS' }))).SecretString, 'k1');
  // The generated password is not drawn again when its declaration did not change.
  assert.equal(JSON.parse((await client.send(new GetSecretValueCommand({ SecretId: 'app/db' }))).SecretString!), db);

  await cfn.send(new DeleteStackCommand({ StackName: 'secrets' }));
  assert.is((await settle(cfn, stack.StackId!)).StackStatus, 'DELETE_COMPLETE');
  assert.equal((await client.send(new ListSecretsCommand({ IncludePlannedDeletion: true }))).SecretList, []);
});

secrets("a function reads a stack's secret with the Secrets Manager client its runtime hands it", async ({ cfn, s3, config }) => {
  const handler = `
    const { SecretsManagerClient, GetSecretValueCommand } = require('@aws-sdk/client-secrets-manager');
    exports.handler = async () => JSON.parse((await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: process.env.SECRET }))).SecretString);`;
  await s3.send(new CreateBucketCommand({ Bucket: 'deploys' }));
  await s3.send(new PutObjectCommand({ Bucket: 'deploys', Key: 'code.zip', Body: await zip({ 'reader.js': handler }) }));
  const template = {
    Resources: {
      Credentials: { Type: 'AWS::SecretsManager::Secret', Properties: { SecretString: '{"user":"app","password":"s3cr3t"}' } },
      Reader: {
        Type: 'AWS::Lambda::Function',
        Properties: {
          Code: { S3Bucket: 'deploys', S3Key: 'code.zip' },
          Handler: 'reader.handler',
          Runtime: 'nodejs20.x',
          FunctionName: 'secret-reader',
          Role: 'arn:aws:iam::000000000000:role/reader',
          Environment: { Variables: { SECRET: { Ref: 'Credentials' } } },
        },
      },
    },
  };
  await cfn.send(new CreateStackCommand({ StackName: 'reader', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(cfn, 'reader');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE', stack.StackStatusReason);
  const lambda = new LambdaClient({ ...config, maxAttempts: 1 });
  const result = await lambda.send(new InvokeCommand({ FunctionName: 'secret-reader' }));
  lambda.destroy();
  assert.equal(JSON.parse(Buffer.from(result.Payload!).toString()), { user: 'app', password: 's3cr3t' });
});

secrets('acknowledged writes survive a restart on the same data folder', async (context) => {
  const created = await context.client.send(new CreateSecretCommand({ Name: 'durable', SecretString: 'one' }));
  await context.client.send(new PutSecretValueCommand({ SecretId: 'durable', SecretString: 'two' }));
  await context.client.send(new CreateSecretCommand({ Name: 'doomed', SecretString: 'x' }));
  await context.client.send(new DeleteSecretCommand({ SecretId: 'doomed', RecoveryWindowInDays: 7 }));
  context.client.destroy();
  await context.stop({ keepData: true });
  Object.assign(context, await startTestCloud(context.dataDir));
  context.client = new SecretsManagerClient({ ...context.config, maxAttempts: 1 });
  const read = await context.client.send(new GetSecretValueCommand({ SecretId: created.ARN }));
  assert.equal([read.SecretString, read.VersionStages], ['two', ['AWSCURRENT']]);
  assert.is((await context.client.send(new GetSecretValueCommand({ SecretId: 'durable', VersionStage: 'AWSPREVIOUS' }))).SecretString, 'one');
  assert.equal(await refusal(context.client.send(new GetSecretValueCommand({ SecretId: 'doomed' }))), ['InvalidRequestException', "You can't perform this operation on the secret because it was marked for deletion."]);
});

secrets.run();
