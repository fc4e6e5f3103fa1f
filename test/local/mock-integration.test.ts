import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { startTestService, type TestService } from '../helpers/local-cloud';
import { outputsOf } from './helpers';

// The first event is the example of v3's apigateway guide.
const SERVICE = `service: mocked
frameworkVersion: '3'
provider:
  name: aws
  runtime: nodejs20.x
functions:
  hello:
    handler: handler.hello
    events:
      - http:
          path: hello
          cors: true
          method: get
          integration: mock
          request:
            template:
              application/json: '{"statusCode": 200}'
          response:
            template: $input.path('$')
            statusCodes:
              "201":
                pattern: ""
      - http:
          path: lookup
          method: post
          integration: mock
          request:
            template:
              application/json: '{"statusCode": #if($input.path("$.id") == "missing")404#{else}200#end}'
          response:
            headers:
              X-Kind: "'mock'"
            statusCodes:
              "200":
                pattern: ""
                template: '{"found": true, "stage": "$context.stage"}'
              "404":
                pattern: "404"
                template: '#set($context.responseOverride.header.X-Why = "absent"){"found": false}'
      - http:
          path: unmapped
          method: get
          integration: mock
`;

interface Context {
  t: TestService;
  rest: string;
}

const mock = suite<Context>('REST integration: mock answered by the local API Gateway');

mock.before(async (context) => {
  context.t = await startTestService({ 'serverless.yml': SERVICE, 'handler.js': 'exports.hello = async () => ({});\n' });
  const deployed = await context.t.fw('deploy');
  assert.is(deployed.code, 0, deployed.stderr);
  context.rest = outputsOf((await context.t.cfn.send(new DescribeStacksCommand({ StackName: 'mocked-dev' }))).Stacks![0]).ServiceEndpoint;
});

mock.after(async ({ t }) => {
  await t.stop();
});

mock("the guide's example: the default integration response's status, its CORS header and its template over an empty body", async ({ rest }) => {
  const response = await fetch(`${rest}/hello`);
  assert.equal([response.status, response.headers.get('access-control-allow-origin'), await response.text()], [201, '*', '']);
});

mock("the request template's statusCode selects the integration response by its pattern", async ({ rest }) => {
  const ask = (id: string) => fetch(`${rest}/lookup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) });
  const found = await ask('present');
  assert.equal([found.status, found.headers.get('x-kind'), await found.json()], [200, 'mock', { found: true, stage: 'dev' }]);
  const missing = await ask('missing');
  assert.equal([missing.status, missing.headers.get('x-kind'), missing.headers.get('x-why'), await missing.json()], [404, 'mock', 'absent', { found: false }]);
});

mock('a mock integration without integration responses: 500, as API Gateway finds no output mapping', async ({ rest }) => {
  const response = await fetch(`${rest}/unmapped`);
  assert.equal([response.status, await response.json()], [500, { message: 'Internal server error' }]);
});

mock('the CORS preflight (a mock integration v3 writes) still answers with its headers', async ({ rest }) => {
  const response = await fetch(`${rest}/hello`, { method: 'OPTIONS', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' } });
  assert.equal([response.status, response.headers.get('access-control-allow-methods'), await response.text()], [200, 'OPTIONS,GET', '']);
});

mock.run();
