import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestService, type TestService } from '../helpers/local-cloud';

const SERVICE = `service: warm
provider:
  name: aws
  runtime: nodejs18.x
functions:
  hello:
    handler: handler.hello
    provisionedConcurrency: 1
    events:
      - httpApi: GET /hi
      - http: GET /hello
`;
const HANDLER = `exports.hello = async () => ({ statusCode: 200, body: 'warm hello' });\n`;

const provisioned = suite<TestService>('a function with provisioned concurrency, its events pointed at the alias, answers on the local cloud');

provisioned.before(async context => {
  Object.assign(context, await startTestService({ 'serverless.yml': SERVICE, 'handler.js': HANDLER }));
});
provisioned.after(async context => context.stop());

provisioned('the HTTP API and the REST API route to the function through {arn}:provisioned', async context => {
  const result = await context.fw('deploy');
  assert.is(result.code, 0, result.stderr);
  const endpoints = [...result.stdout.matchAll(/GET - (http\S+)/g)].map(match => match[1]);
  assert.is(endpoints.length, 2, result.stdout);
  const answers = await Promise.all(endpoints.map(async url => {
    const response = await fetch(url);
    return [response.status, await response.text()];
  }));
  assert.equal(answers, [[200, 'warm hello'], [200, 'warm hello']]);
});

provisioned.run();
