import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestService, type TestService } from '../helpers/local-cloud';

/** v3's `test` (HTTP tests in serverless.test.yml, per its Dashboard testing guide), against a service deployed to the local cloud. */
const SERVICE = `service: greeter
provider:
  name: aws
  runtime: nodejs20.x
functions:
  hello:
    handler: handler.hello
    events:
      - httpApi: POST /hello
  items:
    handler: handler.items
    events:
      - http:
          method: get
          path: items
      - http:
          method: get
          path: items/{id}
`;

const HANDLER = `exports.hello = async (event) => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ greeting: 'hello', got: event.body ?? null, query: event.queryStringParameters ?? null, header: event.headers['x-who'] ?? null }),
});
exports.items = async (event) => ({ statusCode: event.pathParameters ? 404 : 200, body: event.pathParameters ? 'no such item' : 'all items' });
`;

const tests = suite<TestService>('fw test (Serverless v3 HTTP tests)');

tests.before(async (context) => {
  Object.assign(context, await startTestService({ 'serverless.yml': SERVICE, 'handler.js': HANDLER }));
  const deployed = await context.fw('deploy');
  assert.is(deployed.code, 0, deployed.stderr);
});

tests.after(async (context) => {
  await context.stop();
});

const writeTests = (context: TestService, yaml: string) => writeFileSync(join(context.service, 'serverless.test.yml'), yaml);

tests('passing tests: a summary line each, exit 0', async (context) => {
  writeTests(context, `- name: hello returns 200
  endpoint:
    function: hello
  response: true
- name: hello echoes a JSON body, a form and a header
  endpoint:
    function: hello
  request:
    headers:
      X-Who: ada
    body:
      foo: bar
    form:
      page: 2
  response:
    status: 200
    body:
      got: '{"foo":"bar"}'
      query: { page: '2' }
      header: ada
- name: items by method and path
  endpoint:
    method: GET
    path: /items
  response:
    body: all items
`);
  assert.equal(await context.fw('test'), {
    code: 0,
    stdout: [
      'Test Results:',
      '',
      '  Summary --------------------------------------------------',
      '',
      '  passed - POST hello - hello returns 200',
      '  passed - POST hello - hello echoes a JSON body, a form and a header',
      '  passed - GET /items - items by method and path',
      '',
      'Test Summary: 3 passed, 0 failed',
      '',
    ].join('\n'),
    stderr: '',
  });
});

tests('a failing test shows what was expected and received, exit 1; --function and --test filter', async (context) => {
  writeTests(context, `- name: hello says bye
  endpoint:
    function: hello
  response:
    status: 201
    body:
      greeting: bye
- name: item 7 exists
  endpoint:
    function: items
    method: GET
    path: items/{id}
  response: true
- name: hello returns 200
  endpoint:
    function: hello
  response: true
`);
  assert.equal(await context.fw('test', '--function', 'hello', '--test', 'hello says bye'), {
    code: 1,
    stdout: [
      'Test Results:',
      '',
      '  Summary --------------------------------------------------',
      '',
      '  failed - POST hello - hello says bye',
      '',
      '  Details --------------------------------------------------',
      '',
      '  1) Failed - hello says bye',
      '     status: 200',
      '     expected: status = 201',
      '     received: status = 200',
      '     expected: body = {',
      '         "greeting": "bye"',
      '       }',
      '     received: body = {',
      '         "greeting": "hello",',
      '         "got": null,',
      '         "query": null,',
      '         "header": null',
      '       }',
      '',
      'Test Summary: 0 passed, 1 failed',
      '',
    ].join('\n'),
    stderr: '',
  });
  const items = await context.fw('test', '-f', 'items');
  assert.is(items.code, 1);
  assert.ok(items.stdout.includes('  failed - GET items - item 7 exists\n'), items.stdout);
  assert.ok(items.stdout.endsWith('Test Summary: 0 passed, 1 failed\n'), items.stdout);
  const hello = await context.fw('test', '-f', 'hello', '-t', 'hello returns 200');
  assert.equal([hello.code, hello.stdout.split('\n').at(-2)], [0, 'Test Summary: 1 passed, 0 failed']);
});

tests('a function with several endpoints needs a method and path; a missing file and an empty selection are one line', async (context) => {
  writeTests(context, `- name: items
  endpoint:
    function: items
  response: true
`);
  assert.equal(await context.fw('test'), {
    code: 1,
    stdout: '',
    stderr: 'Error: Test "items": endpoint.function "items" needs exactly one HTTP endpoint with a fixed method and path (it has GET /items, GET /items/{id}): give endpoint.method and endpoint.path\n',
  });
  assert.equal(await context.fw('test', '--test', 'nothing'), { code: 1, stdout: '', stderr: 'Error: No test in serverless.test.yml matches --test "nothing"\n' });
  writeTests(context, '- name: 3\n');
  assert.equal(await context.fw('test'), { code: 1, stdout: '', stderr: 'Error: Invalid serverless.test.yml[0].name: expected the test\'s name, got 3\n' });
});

tests.run();
