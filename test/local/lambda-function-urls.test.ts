import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { GetFunctionCodeSigningConfigCommand, LambdaClient, ListCodeSigningConfigsCommand, ListFunctionUrlConfigsCommand } from '@aws-sdk/client-lambda';
import { failure, settle, startTestCloud, type TestCloud } from './helpers';

const urls = suite<{ t: TestCloud; lambda: LambdaClient }>('local Lambda function URL configs and code signing reads');
urls.before(async (context) => {
  context.t = await startTestCloud();
  context.lambda = new LambdaClient({ ...context.t.config, maxAttempts: 1 });
  const fn = (name: string) => ({
    Type: 'AWS::Lambda::Function',
    Properties: { FunctionName: name, Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'arn:aws:iam::000000000000:role/r', Code: { ZipFile: 'exports.handler = async () => ({ statusCode: 200, body: "hi" });' } },
  });
  const template = {
    Resources: {
      WebFunction: fn('web'),
      PlainFunction: fn('plain'),
      WebUrl: { Type: 'AWS::Lambda::Url', Properties: { AuthType: 'NONE', TargetFunctionArn: { 'Fn::GetAtt': ['WebFunction', 'Arn'] }, Cors: { AllowOrigins: ['*'] } } },
    },
  };
  await context.t.cfn.send(new CreateStackCommand({ StackName: 'urls', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(context.t.cfn, 'urls')).StackStatus, 'CREATE_COMPLETE');
});
urls.after(async (context) => {
  context.lambda.destroy();
  await context.t.stop();
});

urls('ListFunctionUrlConfigs returns the URL the stack gave the function, callable on the local server', async ({ t, lambda }) => {
  const { FunctionUrlConfigs } = await lambda.send(new ListFunctionUrlConfigsCommand({ FunctionName: 'web' }));
  assert.is(FunctionUrlConfigs!.length, 1);
  const [config] = FunctionUrlConfigs!;
  assert.equal([config.FunctionArn, config.AuthType, config.InvokeMode, config.Cors], ['arn:aws:lambda:us-east-1:000000000000:function:web', 'NONE', 'BUFFERED', { AllowOrigins: ['*'] }]);
  assert.ok(config.FunctionUrl!.startsWith(`${t.cloud.url}/_fw/lambda-url/`), config.FunctionUrl);
  const response = await fetch(config.FunctionUrl!);
  assert.equal([response.status, await response.text()], [200, 'hi']);
  assert.equal((await lambda.send(new ListFunctionUrlConfigsCommand({ FunctionName: 'plain' }))).FunctionUrlConfigs, []);
  const missing = await failure(lambda.send(new ListFunctionUrlConfigsCommand({ FunctionName: 'nope' })));
  assert.is(missing!.name, 'ResourceNotFoundException');
});

urls('no code signing config exists locally: the list is empty and a function has none', async ({ lambda }) => {
  assert.equal((await lambda.send(new ListCodeSigningConfigsCommand({}))).CodeSigningConfigs, []);
  const signing = await lambda.send(new GetFunctionCodeSigningConfigCommand({ FunctionName: 'web' }));
  assert.equal([signing.FunctionName, signing.CodeSigningConfigArn], ['web', '']);
});

urls.run();
