import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { runFw } from '../helpers/cli';
import { outputsOf, startTestCloud, type TestCloud } from './helpers';

const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };

interface Context {
  t: TestCloud;
  work: string;
  deploy: { code: number; stdout: string; stderr: string };
  rest: string;
}

const SERVICE = `service: validated
frameworkVersion: '3'
provider:
  name: aws
  runtime: nodejs20.x
  apiGateway:
    request:
      schemas:
        order-model:
          name: OrderModel
          schema:
            $schema: http://json-schema.org/draft-04/schema#
            type: object
            required: [item]
            properties:
              item: { type: string }
              count: { type: integer, minimum: 1 }
functions:
  api:
    handler: handler.api
    events:
      - http:
          method: get
          path: items/{id}
          request:
            parameters:
              paths: { id: true }
              querystrings: { q: true, page: false }
              headers: { X-Tenant: { required: true } }
      - http:
          method: post
          path: orders
          request:
            schemas:
              application/json: order-model
      - http:
          method: put
          path: orders
          integration: lambda
          request:
            schemas:
              application/json: { type: object, required: [item] }
      - http:
          method: get
          path: open
          request:
            parameters:
              querystrings: { q: false }
`;

const reply = async (response: Response) => ({ status: response.status, body: await response.text() });

const validation = suite<Context>('REST request validators in the local cloud: 400 as API Gateway answers');

validation.before(async (context) => {
  context.work = mkdtempSync(join(tmpdir(), 'fw-validated-'));
  context.t = await startTestCloud(join(context.work, 'cloud'));
  const dir = join(context.work, 'service');
  mkdirSync(dir);
  writeFileSync(join(dir, 'serverless.yml'), SERVICE);
  writeFileSync(join(dir, 'handler.js'), `exports.api = async (event) => (event.httpMethod ? { statusCode: 200, body: 'ran' } : 'ran');`);
  context.deploy = await runFw(['deploy', '--endpoint-url', context.t.cloud.url], dir, ENV);
  const stack = (await context.t.cfn.send(new DescribeStacksCommand({ StackName: 'validated-dev' }))).Stacks![0];
  ({ ServiceEndpoint: context.rest } = outputsOf(stack));
});

validation.after(async (context) => {
  await context.t.stop({ keepData: true });
  rmSync(context.work, { recursive: true, force: true });
});

validation('the service deploys', ({ deploy }) => {
  assert.is(deploy.code, 0, deploy.stderr);
});

validation('a required query string or header that is missing or blank is refused, naming each', async ({ rest }) => {
  const missing = await fetch(`${rest}/items/7`);
  assert.equal(await reply(missing), { status: 400, body: '{"message":"Missing required request parameters: [q, X-Tenant]"}' });
  assert.is(missing.headers.get('x-amzn-errortype'), 'BadRequestException');
  assert.equal(await reply(await fetch(`${rest}/items/7?q=`, { headers: { 'x-tenant': 'a' } })), {
    status: 400,
    body: '{"message":"Missing required request parameters: [q]"}',
  });
  assert.equal(await reply(await fetch(`${rest}/items/7?q=x`, { headers: { 'x-tenant': 'a' } })), { status: 200, body: 'ran' });
});

validation('a body failing the model is refused; a valid one reaches the function', async ({ rest }) => {
  const post = (body: string, contentType = 'application/json') => fetch(`${rest}/orders`, { method: 'POST', body, headers: { 'content-type': contentType } });
  assert.equal(await reply(await post('{"count":2}')), { status: 400, body: '{"message":"Invalid request body"}' });
  assert.equal(await reply(await post('{"item":"a","count":0}')), { status: 400, body: '{"message":"Invalid request body"}' });
  assert.equal(await reply(await post('not json')), { status: 400, body: '{"message":"Invalid request body"}' });
  assert.equal(await reply(await post('{"item":"a","count":2}')), { status: 200, body: 'ran' });
  // No model for the content type: API Gateway does not validate.
  assert.equal(await reply(await post('anything', 'text/plain')), { status: 200, body: 'ran' });
});

validation('the lambda (non-proxy) integration is validated too', async ({ rest }) => {
  const put = (body: string) => fetch(`${rest}/orders`, { method: 'PUT', body, headers: { 'content-type': 'application/json' } });
  assert.equal(await reply(await put('{}')), { status: 400, body: '{"message":"Invalid request body"}' });
  assert.equal(await reply(await put('{"item":"a"}')), { status: 200, body: '"ran"' });
});

validation('a method with optional parameters only has no validator', async ({ rest }) => {
  assert.equal(await reply(await fetch(`${rest}/open`)), { status: 200, body: 'ran' });
});

validation.run();
