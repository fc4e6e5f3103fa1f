import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { startTestService, type TestService } from '../helpers/local-cloud';

const SERVICE = `service: corsy
provider:
  name: aws
  runtime: nodejs20.x
functions:
  items:
    handler: handler.items
    events:
      - http:
          path: items
          method: get
          cors:
            origins:
              - https://first.example.com
              - https://app.example.com
              - https://*.example.org
`;

const preflight = suite<TestService & { endpoint: string }>('A REST cors.origins list deployed to the local cloud: the MOCK OPTIONS method echoes a matching origin');

preflight.before(async context => {
  Object.assign(context, await startTestService({ 'fw.yml': SERVICE, 'handler.js': 'exports.items = async () => ({ statusCode: 200, body: "[]" });\n' }));
  const result = await context.fw('deploy');
  assert.is(result.code, 0, result.stderr + result.stdout);
  const stack = (await context.cfn.send(new DescribeStacksCommand({ StackName: 'corsy-dev' }))).Stacks![0]!;
  context.endpoint = stack.Outputs!.find(output => output.OutputKey === 'ServiceEndpoint')!.OutputValue!;
});
preflight.after(async context => context.stop());

async function allowOrigin(endpoint: string, origin?: string): Promise<{ status: number; origin: string | null }> {
  const response = await fetch(`${endpoint}/items`, { method: 'OPTIONS', headers: origin ? { origin, 'access-control-request-method': 'GET' } : {} });
  await response.arrayBuffer();
  return { status: response.status, origin: response.headers.get('access-control-allow-origin') };
}

preflight('an origin of the list, or one a wildcard entry matches, is echoed', async ({ endpoint }) => {
  assert.equal(await allowOrigin(endpoint, 'https://app.example.com'), { status: 200, origin: 'https://app.example.com' });
  assert.equal(await allowOrigin(endpoint, 'https://shop.example.org'), { status: 200, origin: 'https://shop.example.org' });
});

preflight('any other origin, or none, gets the first origin of the list (the static header)', async ({ endpoint }) => {
  assert.equal(await allowOrigin(endpoint, 'https://evil.example.net'), { status: 200, origin: 'https://first.example.com' });
  assert.equal(await allowOrigin(endpoint, 'https://example.org.evil.net'), { status: 200, origin: 'https://first.example.com' });
  assert.equal(await allowOrigin(endpoint), { status: 200, origin: 'https://first.example.com' });
});

preflight.run();
