import { APIGatewayClient, GetRestApisCommand, GetStageCommand, GetTagsCommand } from '@aws-sdk/client-api-gateway';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_ACCESS_LOG_FORMAT } from '../../src/deploy/rest-stage';
import { LOCAL_CREDENTIALS, startTestService, type TestService } from '../helpers/local-cloud';

/**
 * REST stage settings reach the stage after the stack update, as v3 applies them (UpdateStage,
 * TagResource), and go again when removed from the service file; the local cloud keeps them, so
 * API Gateway's GetStage (the AWS SDK v3 client here) shows what AWS would.
 */

const service = (provider: string[]) =>
  [
    'service: stageset',
    'provider:',
    '  name: aws',
    '  runtime: nodejs20.x',
    ...provider.map(line => `  ${line}`),
    'functions:',
    '  hello:',
    '    handler: handler.main',
    '    events:',
    '      - http: GET /hello',
    '',
  ].join('\n');

const WITH_SETTINGS = service(['tracing:', '  apiGateway: true', 'apiGateway:', '  metrics: true', 'logs:', '  restApi: true', 'stackTags:', '  team: payments', 'tags:', '  cost: shop']);

async function stageOf(test: TestService) {
  const client = new APIGatewayClient({ endpoint: test.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const apis = await client.send(new GetRestApisCommand({}));
  const restApiId = apis.items![0]!.id!;
  const stage = await client.send(new GetStageCommand({ restApiId, stageName: 'dev' }));
  const tags = await client.send(new GetTagsCommand({ resourceArn: `arn:aws:apigateway:us-east-1::/restapis/${restApiId}/stages/dev` }));
  return { tracingEnabled: stage.tracingEnabled, methodSettings: stage.methodSettings, accessLogSettings: stage.accessLogSettings, tags: tags.tags };
}

const stage = suite<{ service?: TestService }>('REST stage settings');

stage.after.each(async context => {
  await context.service?.stop();
});

stage('tracing, metrics, access and execution logging and tags are on the stage after deploy, and off again once removed', async context => {
  const test = (context.service = await startTestService({ 'fw.yml': WITH_SETTINGS, 'handler.js': 'exports.main = async () => ({ statusCode: 200 });\n' }));
  const first = await test.fw('deploy');
  assert.equal({ code: first.code, stderr: first.stderr }, { code: 0, stderr: '' });
  assert.equal(await stageOf(test), {
    tracingEnabled: true,
    methodSettings: { '*/*': { metricsEnabled: true, dataTraceEnabled: true, loggingLevel: 'INFO' } },
    accessLogSettings: { destinationArn: 'arn:aws:logs:us-east-1:000000000000:log-group:/aws/api-gateway/stageset-dev', format: DEFAULT_ACCESS_LOG_FORMAT },
    tags: { team: 'payments', cost: 'shop' },
  });

  writeFileSync(join(test.service, 'fw.yml'), service([]));
  const second = await test.fw('deploy');
  assert.equal({ code: second.code, stderr: second.stderr }, { code: 0, stderr: '' });
  assert.not.match(second.stdout, /No changes to deploy/);
  assert.equal(await stageOf(test), {
    tracingEnabled: false,
    methodSettings: { '*/*': { metricsEnabled: false, dataTraceEnabled: false, loggingLevel: 'OFF' } },
    accessLogSettings: undefined,
    tags: {},
  });
});

stage('a stage the stacks never made is NotFoundException, as API Gateway answers', async context => {
  const test = (context.service = await startTestService({ 'fw.yml': service([]), 'handler.js': 'exports.main = async () => ({ statusCode: 200 });\n' }));
  const client = new APIGatewayClient({ endpoint: test.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const error = await client.send(new GetStageCommand({ restApiId: 'nope', stageName: 'dev' })).catch((e: Error) => e);
  assert.equal({ name: (error as Error).name, message: (error as Error).message }, { name: 'NotFoundException', message: 'Invalid Stage identifier specified' });
});

stage.run();
