import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { APIGatewayClient, GetAccountCommand, GetApiKeyCommand, GetApiKeysCommand, GetDomainNamesCommand, GetRestApisCommand, GetUsagePlanCommand, GetUsagePlanKeysCommand, GetUsagePlansCommand } from '@aws-sdk/client-api-gateway';
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
      Api: { Type: 'AWS::ApiGateway::RestApi', Properties: { Name: 'dev-keys' } },
      Deployment: { Type: 'AWS::ApiGateway::Deployment', Properties: { RestApiId: { Ref: 'Api' }, StageName: 'dev' } },
      Plan: {
        Type: 'AWS::ApiGateway::UsagePlan',
        DependsOn: 'Deployment',
        Properties: {
          UsagePlanName: 'keys-dev',
          Description: 'Usage plan for keys dev stage',
          ApiStages: [{ ApiId: { Ref: 'Api' }, Stage: 'dev' }],
          Quota: { Limit: 5000, Offset: 2, Period: 'MONTH' },
          Throttle: { BurstLimit: 200, RateLimit: 100 },
        },
      },
      PlanKey: { Type: 'AWS::ApiGateway::UsagePlanKey', Properties: { KeyId: { Ref: 'Fixed' }, KeyType: 'API_KEY', UsagePlanId: { Ref: 'Plan' } } },
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

keys('GetUsagePlans, GetUsagePlan and GetUsagePlanKeys read the stacks\' usage plans; GetAccount the account\'s throttle', async ({ apiGateway }) => {
  const { items: restApis } = await apiGateway.send(new GetRestApisCommand({}));
  const apiId = restApis!.find((api) => api.name === 'dev-keys')!.id!;
  const { items } = await apiGateway.send(new GetUsagePlansCommand({}));
  assert.equal(items!.map(({ id, ...plan }) => ({ ...plan, id: typeof id })), [
    { id: 'string', name: 'keys-dev', description: 'Usage plan for keys dev stage', apiStages: [{ apiId, stage: 'dev' }], throttle: { burstLimit: 200, rateLimit: 100 }, quota: { limit: 5000, offset: 2, period: 'MONTH' }, tags: {} },
  ]);
  const planId = items![0].id!;
  assert.is((await apiGateway.send(new GetUsagePlanCommand({ usagePlanId: planId }))).name, 'keys-dev');
  const { items: keysOfPlan } = await apiGateway.send(new GetUsagePlanKeysCommand({ usagePlanId: planId }));
  const fixedId = (await apiGateway.send(new GetApiKeysCommand({ nameQuery: 'fixed' }))).items![0].id!;
  assert.equal(keysOfPlan, [{ id: fixedId, type: 'API_KEY', name: 'fixed', value: 'fixed-value-0123456789abcdef' }]);
  assert.equal((await apiGateway.send(new GetUsagePlansCommand({ keyId: 'other' }))).items, []);
  assert.equal((await apiGateway.send(new GetUsagePlansCommand({ keyId: fixedId }))).items!.map((plan) => plan.name), ['keys-dev']);
  const error = await failure(apiGateway.send(new GetUsagePlanCommand({ usagePlanId: 'nope' })));
  assert.equal([error?.name, error?.message], ['NotFoundException', 'Invalid Usage Plan ID specified']);
  const account = await apiGateway.send(new GetAccountCommand({}));
  assert.equal({ throttleSettings: account.throttleSettings, features: account.features }, { throttleSettings: { burstLimit: 5000, rateLimit: 10000 }, features: ['UsagePlans'] });
  assert.equal((await apiGateway.send(new GetDomainNamesCommand({}))).items, []);
});

keys.run();
