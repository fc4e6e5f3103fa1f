import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import {
  CreateAliasCommand,
  CreateFunctionCommand,
  DeleteAliasCommand,
  GetAliasCommand,
  InvokeCommand,
  LambdaClient,
  ListAliasesCommand,
  ListVersionsByFunctionCommand,
  PublishVersionCommand,
  UpdateAliasCommand,
  UpdateFunctionCodeCommand,
  UpdateFunctionConfigurationCommand,
} from '@aws-sdk/client-lambda';
import { failure, settle, startTestCloud, zip, type TestCloud } from './helpers';

const ROLE = 'arn:aws:iam::000000000000:role/r';
const ARN = 'arn:aws:lambda:us-east-1:000000000000:function';
const REVISION = /^[0-9a-f-]{36}$/;

interface Context {
  t: TestCloud;
  lambda: LambdaClient;
}

const versions = suite<Context>('Lambda versions and aliases by API, and a stack\'s AWS::Lambda::Alias: a qualifier runs its version\'s code');

versions.before(async (context) => {
  context.t = await startTestCloud();
  context.lambda = new LambdaClient({ ...context.t.config, maxAttempts: 1 });
});
versions.after(async ({ t, lambda }) => {
  lambda.destroy();
  await t.stop();
});

const answer = async (lambda: LambdaClient, name: string, qualifier?: string) => {
  const result = await lambda.send(new InvokeCommand({ FunctionName: name, Qualifier: qualifier, Payload: Buffer.from('{}') }));
  return [result.ExecutedVersion, JSON.parse(Buffer.from(result.Payload!).toString('utf8')) as unknown];
};

const code = async (label: string) => zip({ 'index.js': `exports.handler = async () => '${label}';` });

versions('PublishVersion, CreateAlias, UpdateAlias, GetAlias, ListAliases, DeleteAlias; `name:alias` and Qualifier run that version', async ({ lambda }) => {
  await lambda.send(new CreateFunctionCommand({ FunctionName: 'greeter', Runtime: 'nodejs20.x', Role: ROLE, Handler: 'index.handler', Code: { ZipFile: await code('one') } }));
  const first = await lambda.send(new PublishVersionCommand({ FunctionName: 'greeter', Description: 'first' }));
  assert.equal([first.Version, first.FunctionArn, first.Description], ['1', `${ARN}:greeter:1`, 'first']);
  // Publishing unchanged code returns the version that has it.
  assert.is((await lambda.send(new PublishVersionCommand({ FunctionName: 'greeter' }))).Version, '1');
  await lambda.send(new UpdateFunctionCodeCommand({ FunctionName: 'greeter', ZipFile: await code('two') }));
  assert.is((await lambda.send(new PublishVersionCommand({ FunctionName: 'greeter' }))).Version, '2');
  await lambda.send(new UpdateFunctionCodeCommand({ FunctionName: 'greeter', ZipFile: await code('three') }));

  const created = await lambda.send(new CreateAliasCommand({ FunctionName: 'greeter', Name: 'live', FunctionVersion: '1', Description: 'production' }));
  const { $metadata: _created, ...alias } = created;
  assert.equal({ ...alias, RevisionId: REVISION.test(alias.RevisionId!) }, { AliasArn: `${ARN}:greeter:live`, Name: 'live', FunctionVersion: '1', Description: 'production', RevisionId: true });
  assert.equal(
    [await answer(lambda, 'greeter:live'), await answer(lambda, 'greeter', 'live'), await answer(lambda, `${ARN}:greeter:2`), await answer(lambda, 'greeter')],
    [['1', 'one'], ['1', 'one'], ['2', 'two'], ['$LATEST', 'three']],
  );

  const stale = await failure(lambda.send(new UpdateAliasCommand({ FunctionName: 'greeter', Name: 'live', FunctionVersion: '2', RevisionId: 'not-the-revision' })));
  assert.equal([stale?.name, stale?.message], ['PreconditionFailedException', 'The Revision Id provided does not match the latest Revision Id. Call the GetAlias API to retrieve the latest Revision Id']);
  const updated = await lambda.send(new UpdateAliasCommand({ FunctionName: 'greeter', Name: 'live', FunctionVersion: '2', RevisionId: created.RevisionId }));
  assert.is(updated.FunctionVersion, '2');
  assert.is.not(updated.RevisionId, created.RevisionId);
  assert.equal(await answer(lambda, 'greeter:live'), ['2', 'two']);
  await lambda.send(new CreateAliasCommand({ FunctionName: 'greeter', Name: 'edge', FunctionVersion: '$LATEST' }));
  assert.equal(await answer(lambda, 'greeter:edge'), ['$LATEST', 'three']);

  const got = await lambda.send(new GetAliasCommand({ FunctionName: 'greeter', Name: 'live' }));
  assert.equal([got.FunctionVersion, got.RevisionId], ['2', updated.RevisionId]);
  assert.equal((await lambda.send(new ListAliasesCommand({ FunctionName: 'greeter' }))).Aliases!.map((a) => `${a.Name}->${a.FunctionVersion}`), ['live->2', 'edge->$LATEST']);
  assert.equal((await lambda.send(new ListAliasesCommand({ FunctionName: 'greeter', FunctionVersion: '2' }))).Aliases!.map((a) => a.Name), ['live']);
  assert.equal((await lambda.send(new ListVersionsByFunctionCommand({ FunctionName: 'greeter' }))).Versions!.map((v) => v.Version), ['$LATEST', '1', '2']);

  await lambda.send(new DeleteAliasCommand({ FunctionName: 'greeter', Name: 'edge' }));
  const errors = await Promise.all([
    failure(lambda.send(new CreateAliasCommand({ FunctionName: 'greeter', Name: 'live', FunctionVersion: '1' }))),
    failure(lambda.send(new CreateAliasCommand({ FunctionName: 'greeter', Name: 'future', FunctionVersion: '9' }))),
    failure(lambda.send(new GetAliasCommand({ FunctionName: 'greeter', Name: 'edge' }))),
    failure(lambda.send(new InvokeCommand({ FunctionName: 'greeter:edge' }))),
  ]);
  assert.equal(
    errors.map((error) => [error?.name, error?.message]),
    [
      ['ResourceConflictException', `Alias already exists: ${ARN}:greeter:live`],
      ['ResourceNotFoundException', `Function not found: ${ARN}:greeter:9`],
      ['ResourceNotFoundException', `Alias not found: ${ARN}:greeter:edge`],
      ['ResourceNotFoundException', `Function not found: ${ARN}:greeter:edge`],
    ],
  );
});

const stackTemplate = (label: string, description: string) =>
  JSON.stringify({
    Resources: {
      Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'stacked', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: ROLE, Code: { ZipFile: `exports.handler = async () => '${label}';` } } },
      [`Version${label}`]: { Type: 'AWS::Lambda::Version', DeletionPolicy: 'Retain', Properties: { FunctionName: { Ref: 'Fn' } } },
      Alias: { Type: 'AWS::Lambda::Alias', Properties: { FunctionName: { Ref: 'Fn' }, Name: 'live', Description: description, FunctionVersion: { 'Fn::GetAtt': [`Version${label}`, 'Version'] } } },
    },
    Outputs: { AliasRef: { Value: { Ref: 'Alias' } } },
  });

versions('a stack\'s AWS::Lambda::Alias points `name:live` at the stack\'s version, and follows it on update', async ({ t, lambda }) => {
  await t.cfn.send(new CreateStackCommand({ StackName: 'aliased', TemplateBody: stackTemplate('first', 'one') }));
  const created = await settle(t.cfn, 'aliased');
  assert.equal([created.StackStatus, created.Outputs?.[0]?.OutputValue], ['CREATE_COMPLETE', `${ARN}:stacked:live`]);
  assert.equal(await answer(lambda, 'stacked:live'), ['1', 'first']);
  await t.cfn.send(new UpdateStackCommand({ StackName: 'aliased', TemplateBody: stackTemplate('second', 'two') }));
  assert.is((await settle(t.cfn, 'aliased')).StackStatus, 'UPDATE_COMPLETE');
  assert.equal([await answer(lambda, 'stacked:live'), await answer(lambda, 'stacked', '1')], [['2', 'second'], ['1', 'first']]);
  const alias = await lambda.send(new GetAliasCommand({ FunctionName: 'stacked', Name: 'live' }));
  assert.equal([alias.FunctionVersion, alias.Description], ['2', 'two']);
});

versions('UpdateFunctionConfiguration reaches the next invocation: a changed variable, then a changed handler, each in a new environment', async ({ lambda }) => {
  const source = `exports.main = async () => ({ greeting: process.env.GREETING, pid: process.pid });
exports.other = async () => ({ greeting: 'other ' + process.env.GREETING, pid: process.pid });`;
  await lambda.send(new CreateFunctionCommand({ FunctionName: 'configured', Runtime: 'nodejs20.x', Role: ROLE, Handler: 'index.main', Environment: { Variables: { GREETING: 'hello' } }, Code: { ZipFile: await zip({ 'index.js': source }) } }));
  const call = async () => (await answer(lambda, 'configured'))[1] as { greeting: string; pid: number };
  const first = await call();
  const warm = await call();
  assert.equal([first.greeting, warm.greeting, warm.pid === first.pid], ['hello', 'hello', true]);
  await lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'configured', Environment: { Variables: { GREETING: 'bonjour' } } }));
  const changed = await call();
  assert.equal([changed.greeting, changed.pid === first.pid], ['bonjour', false]);
  await lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'configured', Handler: 'index.other' }));
  assert.is((await call()).greeting, 'other bonjour');
});

versions.run();
