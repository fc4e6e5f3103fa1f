import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStackEventsCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { hotswapBlockers } from '../../src/deploy/hotswap';
import type { Template } from '../../src/synth/template';
import { usersService } from './users-service';
import { startTestService, type TestService } from '../helpers/local-cloud';

const SERVICE = usersService('swap');

const WITH_ROUTE = `${SERVICE}      - httpApi: 'GET /people/{id}'
`;

const HANDLER = (greeting: string) => `
exports.users = async (event) => ({ statusCode: 200, body: JSON.stringify({ greeting: ${JSON.stringify(greeting)}, id: event.pathParameters.id, level: process.env.LEVEL }) });
`;

interface Context extends TestService {
  url: string;
}

const hotswap = suite<Context>('fw deploy --hotswap against the local cloud');

hotswap.before(async context => {
  Object.assign(context, await startTestService({ 'fw.yml': SERVICE, 'handler.js': HANDLER('hello') }));
});

hotswap.after(context => context.stop());

const eventCount = async (context: Context) => (await context.cfn.send(new DescribeStackEventsCommand({ StackName: 'swap-dev' }))).StackEvents!.length;
const lastUpdated = async (context: Context) => (await context.cfn.send(new DescribeStacksCommand({ StackName: 'swap-dev' }))).Stacks![0].LastUpdatedTime;
const answer = async (url: string) => (await fetch(url)).json();

hotswap('a code and environment change is applied to the function without a stack update', async context => {
  const first = await context.fw('deploy');
  assert.is(first.code, 0, first.stderr);
  context.url = /GET - (\S+)\/users\/\{id\}/.exec(first.stdout)![1];
  assert.equal(await answer(`${context.url}/users/1`), { greeting: 'hello' , id: '1' });

  const events = await eventCount(context);
  const updated = await lastUpdated(context);
  writeFileSync(join(context.service, 'handler.js'), HANDLER('bonjour'));
  writeFileSync(join(context.service, 'fw.yml'), SERVICE.replace('  runtime: nodejs20.x\n', '  runtime: nodejs20.x\n  environment:\n    LEVEL: debug\n'));
  const result = await context.fw('deploy', '--hotswap');
  assert.is(result.code, 0, result.stderr);
  const lines = result.stdout.split('\n');
  assert.equal(lines.slice(0, 4), [
    'Deploying swap to stage dev in ' + context.cloud.url,
    'Updated the code of swap-dev-users',
    'Updated the configuration of swap-dev-users: Environment',
    '✔ Hotswapped users in stack swap-dev (' + /\((\d+\.\d) s\)/.exec(result.stdout)![1] + ' s); the next fw deploy updates the stack through CloudFormation',
  ]);
  assert.equal(await answer(`${context.url}/users/2`), { greeting: 'bonjour', id: '2', level: 'debug' });
  assert.is(await eventCount(context), events);
  assert.equal(await lastUpdated(context), updated);
});

hotswap('the next full deploy of the same package updates the stack through CloudFormation, then nothing is left to do', async context => {
  const events = await eventCount(context);
  const result = await context.fw('deploy');
  assert.is(result.code, 0, result.stderr);
  assert.match(result.stdout, 'The last deploy updated users in place (hotswap or deploy function): updating the stack through CloudFormation to match\n');
  assert.match(result.stdout, '✔ Service deployed to stack swap-dev');
  assert.ok((await eventCount(context)) > events, 'the stack was updated');
  assert.equal(await answer(`${context.url}/users/3`), { greeting: 'bonjour', id: '3', level: 'debug' });

  const again = await context.fw('deploy');
  assert.match(again.stdout, 'No changes to deploy: the template and code are those of the last deployment (use --force to deploy anyway)\n');
  const swapAgain = await context.fw('deploy', '--hotswap');
  assert.match(swapAgain.stdout, 'No changes to deploy: the template and code are those of the last deployment (use --force to deploy anyway)\n');
});

hotswap('a hotswap undone in the files is undone on the function by the next full deploy', async context => {
  const withLevel = (level: string) => SERVICE.replace('  runtime: nodejs20.x\n', `  runtime: nodejs20.x\n  environment:\n    LEVEL: ${level}\n`);
  writeFileSync(join(context.service, 'fw.yml'), withLevel('trace'));
  const swapped = await context.fw('deploy', '--hotswap');
  assert.match(swapped.stdout, '✔ Hotswapped users');
  assert.equal(await answer(`${context.url}/users/5`), { greeting: 'bonjour', id: '5', level: 'trace' });

  writeFileSync(join(context.service, 'fw.yml'), withLevel('debug'));
  const result = await context.fw('deploy');
  assert.is(result.code, 0, result.stderr);
  assert.match(
    result.stdout,
    'No changes to the stack: CloudFormation found nothing to update\nUpdated the configuration of swap-dev-users: Environment\n',
  );
  assert.equal(await answer(`${context.url}/users/6`), { greeting: 'bonjour', id: '6', level: 'debug' });
});

hotswap('a new route cannot be hotswapped: it says why and deploys through CloudFormation', async context => {
  const events = await eventCount(context);
  writeFileSync(join(context.service, 'fw.yml'), WITH_ROUTE);
  const result = await context.fw('deploy', '--hotswap');
  assert.is(result.code, 0, result.stderr);
  assert.match(
    result.stdout,
    '\nHotswap not possible: HttpApiRouteGetPeopleIdVar (AWS::ApiGatewayV2::Route) added; deploying through CloudFormation\n',
  );
  assert.match(result.stdout, '✔ Service deployed to stack swap-dev');
  assert.ok((await eventCount(context)) > events, 'the stack was updated');
  assert.equal(await answer(`${context.url}/people/4`), { greeting: 'bonjour', id: '4' });
});

hotswap('a stage named like production is refused without --hotswap-production', async context => {
  const result = await context.fw('deploy', '--hotswap', '--stage', 'prod');
  assert.equal(result, {
    code: 1,
    stdout: '',
    stderr:
      'Error: Refusing to hotswap stage "prod": it is named like production and a hotswap leaves its stack drifted from its template. Deploy without --hotswap, or add --hotswap-production\n',
  });
});

hotswap.run();

const blockers = suite('hotswapBlockers');

const template = (environment: Record<string, unknown>, extra: Template["Resources"] = {}): Template => ({
  AWSTemplateFormatVersion: '2010-09-09',
  Resources: {
    HelloLambdaFunction: {
      Type: 'AWS::Lambda::Function',
      Properties: { Code: { S3Key: 'serverless/app/dev/1-a/app.zip' }, MemorySize: 1024, Environment: { Variables: environment } },
    },
    HelloLambdaVersionAbc: { Type: 'AWS::Lambda::Version', Properties: { FunctionName: { Ref: 'HelloLambdaFunction' }, CodeSha256: 'abc' } },
    ...extra,
  },
  Outputs: { HelloLambdaFunctionQualifiedArn: { Value: { Ref: 'HelloLambdaVersionAbc' } } },
}) as unknown as Template;

blockers('code, new versions and plain settings can be swapped', () => {
  const next = JSON.parse(JSON.stringify(template({ LEVEL: 'info' })).split('1-a').join('2-b').split('Abc').join('Def').replace('"abc"', '"def"').replace('1024', '512'));
  assert.equal(hotswapBlockers(template({ LEVEL: 'debug' }), next, 'serverless/app/dev'), []);
});

blockers('an environment value CloudFormation resolves, and any other resource, cannot', () => {
  const next = template({ TABLE: { Ref: 'Table' } }, { Table: { Type: 'AWS::DynamoDB::Table', Properties: {} } });
  assert.equal(hotswapBlockers(template({ TABLE: 'x' }), next, 'serverless/app/dev'), [
    'HelloLambdaFunction (AWS::Lambda::Function) changed',
    'Table (AWS::DynamoDB::Table) added',
  ]);
});

blockers.run();
