import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  AttachUserPolicyCommand,
  CreateAccessKeyCommand,
  CreatePolicyCommand,
  CreateUserCommand,
  DeleteAccessKeyCommand,
  DeletePolicyCommand,
  DeleteUserCommand,
  DetachUserPolicyCommand,
  GetPolicyCommand,
  GetPolicyVersionCommand,
  GetUserCommand,
  IAMClient,
  ListAccessKeysCommand,
  ListAttachedUserPoliciesCommand,
  ListPoliciesCommand,
  ListUsersCommand,
} from '@aws-sdk/client-iam';
import { failure, startTestCloud, type TestCloud } from './helpers';

const iam = suite<{ t: TestCloud; client: IAMClient }>('IAM users, access keys and managed policies in the local cloud, with the SDK v3 client');

iam.before(async (context) => {
  context.t = await startTestCloud();
  context.client = new IAMClient({ ...context.t.config, maxAttempts: 1 });
});

iam.after(async ({ t, client }) => {
  client.destroy();
  await t.stop();
});

const errorOf = async (promise: Promise<unknown>) => {
  const error = await failure(promise);
  return { name: error?.name, message: error?.message, status: (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode };
};

iam('a user with an access key and a customer managed policy, listed, then removed in the order IAM requires, across a restart', async (context) => {
  const { client } = context;
  const document = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }] });
  const { Policy } = await client.send(new CreatePolicyCommand({ PolicyName: 'read-objects', PolicyDocument: document, Description: 'reads', Path: '/app/' }));
  assert.equal({ ...Policy, PolicyId: /^ANPA[A-Z2-7]{17}$/.test(Policy!.PolicyId!), CreateDate: Policy!.CreateDate instanceof Date, UpdateDate: undefined }, {
    PolicyName: 'read-objects',
    PolicyId: true,
    Arn: 'arn:aws:iam::000000000000:policy/app/read-objects',
    Path: '/app/',
    DefaultVersionId: 'v1',
    AttachmentCount: 0,
    PermissionsBoundaryUsageCount: 0,
    IsAttachable: true,
    Description: 'reads',
    CreateDate: true,
    UpdateDate: undefined,
  });
  assert.equal(await errorOf(client.send(new CreatePolicyCommand({ PolicyName: 'read-objects', PolicyDocument: document, Path: '/app/' }))), { name: 'EntityAlreadyExistsException', message: 'A policy called read-objects already exists. Duplicate names are not allowed.', status: 409 });
  assert.equal(await errorOf(client.send(new CreatePolicyCommand({ PolicyName: 'broken', PolicyDocument: '{"Version":' }))), { name: 'MalformedPolicyDocumentException', message: 'This policy contains invalid Json', status: 400 });
  const version = (await client.send(new GetPolicyVersionCommand({ PolicyArn: Policy!.Arn, VersionId: 'v1' }))).PolicyVersion!;
  assert.equal([JSON.parse(decodeURIComponent(version.Document!)), version.IsDefaultVersion], [JSON.parse(document), true]);

  const { User } = await client.send(new CreateUserCommand({ UserName: 'ci-bot', Tags: [{ Key: 'team', Value: 'ops' }] }));
  assert.equal([User!.Arn, /^AIDA[A-Z2-7]{17}$/.test(User!.UserId!), User!.Tags], ['arn:aws:iam::000000000000:user/ci-bot', true, [{ Key: 'team', Value: 'ops' }]]);
  assert.equal(await errorOf(client.send(new CreateUserCommand({ UserName: 'CI-BOT' }))), { name: 'EntityAlreadyExistsException', message: 'User with name CI-BOT already exists.', status: 409 });
  const { AccessKey } = await client.send(new CreateAccessKeyCommand({ UserName: 'ci-bot' }));
  assert.equal([/^AKIA[A-Z2-7]{16}$/.test(AccessKey!.AccessKeyId!), AccessKey!.SecretAccessKey!.length, AccessKey!.Status], [true, 40, 'Active']);
  await client.send(new AttachUserPolicyCommand({ UserName: 'ci-bot', PolicyArn: Policy!.Arn }));
  assert.is((await client.send(new GetPolicyCommand({ PolicyArn: Policy!.Arn }))).Policy!.AttachmentCount, 1);
  assert.equal(await errorOf(client.send(new DeleteUserCommand({ UserName: 'ci-bot' }))), { name: 'DeleteConflictException', message: 'Cannot delete entity, must delete access keys and detach policies first.', status: 409 });

  await context.t.stop({ keepData: true });
  client.destroy();
  context.t = await startTestCloud(context.t.dataDir);
  context.client = new IAMClient({ ...context.t.config, maxAttempts: 1 });
  const again = context.client;
  assert.equal((await again.send(new ListUsersCommand({}))).Users!.map((user) => user.UserName), ['ci-bot']);
  assert.equal((await again.send(new ListAccessKeysCommand({ UserName: 'ci-bot' }))).AccessKeyMetadata!.map((key) => key.AccessKeyId), [AccessKey!.AccessKeyId]);
  assert.equal((await again.send(new ListAttachedUserPoliciesCommand({ UserName: 'ci-bot' }))).AttachedPolicies, [{ PolicyName: 'read-objects', PolicyArn: Policy!.Arn }]);
  assert.equal((await again.send(new ListPoliciesCommand({ Scope: 'Local' }))).Policies!.map((policy) => policy.Arn), [Policy!.Arn]);
  assert.equal((await again.send(new ListPoliciesCommand({ Scope: 'AWS' }))).Policies, []);

  await again.send(new DetachUserPolicyCommand({ UserName: 'ci-bot', PolicyArn: Policy!.Arn }));
  await again.send(new DeleteAccessKeyCommand({ UserName: 'ci-bot', AccessKeyId: AccessKey!.AccessKeyId }));
  await again.send(new DeleteUserCommand({ UserName: 'ci-bot' }));
  await again.send(new DeletePolicyCommand({ PolicyArn: Policy!.Arn }));
  assert.equal(await errorOf(again.send(new GetUserCommand({ UserName: 'ci-bot' }))), { name: 'NoSuchEntityException', message: 'The user with name ci-bot cannot be found.', status: 404 });
  assert.equal(await errorOf(again.send(new GetPolicyCommand({ PolicyArn: Policy!.Arn }))), { name: 'NoSuchEntityException', message: `Policy ${Policy!.Arn} does not exist or is not attachable.`, status: 404 });
  // Without a name, GetUser describes the caller: the local account's root.
  assert.is((await again.send(new GetUserCommand({}))).User!.Arn, 'arn:aws:iam::000000000000:root');
});

iam.run();
