import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { APIGatewayClient, GetApiKeyCommand, GetApiKeysCommand } from '@aws-sdk/client-api-gateway';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { LOCAL_CREDENTIALS, startTestCloud, type TestCloud } from '../helpers/local-cloud';
import { failure, settle } from './helpers';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const keys = suite<{ t: TestCloud; apiGateway: APIGatewayClient }>("API Gateway's API-key reads in the local cloud, with the SDK v3 client");

keys.before(async (context) => {
  context.t = await startTestCloud();
  context.apiGateway = new APIGatewayClient({ endpoint: context.t.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const template = {
    Resources: {
      Fixed: { Type: 'AWS::ApiGateway::ApiKey', Properties: { Name: 'fixed', Value: 'fixed-value-0123456789abcdef', Description: 'for tests', Enabled: true } },
      Off: { Type: 'AWS::ApiGateway::ApiKey', Properties: { Name: 'off', Enabled: false } },
    },
  };
  await context.t.cfn.send(new CreateStackCommand({ StackName: 'keys', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(context.t.cfn, 'keys')).StackStatus, 'CREATE_COMPLETE');
});

keys.after(async ({ t, apiGateway }) => {
  apiGateway.destroy();
  await t.stop();
});

keys('GetApiKeys lists the stacks\' keys, with values only when asked', async ({ apiGateway }) => {
  const without = await apiGateway.send(new GetApiKeysCommand({}));
  assert.equal(
    without.items!.map((key) => [key.name, key.value, key.enabled, key.description]),
    [
      ['fixed', undefined, true, 'for tests'],
      ['off', undefined, false, undefined],
    ],
  );
  const withValues = await apiGateway.send(new GetApiKeysCommand({ includeValues: true, nameQuery: 'fix' }));
  assert.equal(withValues.items!.map((key) => [key.name, key.value]), [['fixed', 'fixed-value-0123456789abcdef']]);
  assert.instance(withValues.items![0].createdDate, Date);
});

keys('GetApiKey reads one key by id; an unknown id is NotFoundException', async ({ apiGateway }) => {
  const { items } = await apiGateway.send(new GetApiKeysCommand({}));
  const id = items!.find((key) => key.name === 'fixed')!.id!;
  const key = await apiGateway.send(new GetApiKeyCommand({ apiKey: id, includeValue: true }));
  assert.equal([key.id, key.name, key.value, key.enabled], [id, 'fixed', 'fixed-value-0123456789abcdef', true]);
  assert.is((await apiGateway.send(new GetApiKeyCommand({ apiKey: id }))).value, undefined);
  const error = await failure(apiGateway.send(new GetApiKeyCommand({ apiKey: 'nope' })));
  assert.equal([error?.name, error?.message, (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode], ['NotFoundException', 'Invalid API Key identifier specified', 404]);
});

keys.run();
