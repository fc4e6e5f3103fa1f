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
  body: JSON.stringify({ greeting: 'hello', got: event.body ?? null, query: event.queryStringParameters ?? null, header: event.headers['x-who'] ?? null, tags: ['a', 'b'] }),
});
exports.items = async (event) => {
  if (!event.pathParameters) return { statusCode: 201, headers: { 'content-type': 'text/plain' }, body: 'all items' };
  const id = event.pathParameters.id;
  return id === '7'
    ? { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, name: 'seven' }) }
    : { statusCode: 404, headers: { 'content-type': 'text/plain' }, body: 'no such item' };
};
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

tests('passing tests: v3\'s summary line each (method and path), exit 0', async (context) => {
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
    headers:
      Content-Type: application/json
    body:
      got: '{"foo":"bar"}'
      query: { page: '2' }
      header: ada
      tags: [a, b]
- name: item 7 by a concrete path
  endpoint:
    method: GET
    path: /items/7
  response:
    body:
      name: seven
- name: any 2xx passes response true
  endpoint:
    function: items
  response: true
- name: the list as text
  endpoint:
    method: get
    path: items
  response:
    status: 201
    body: all items
`);
  assert.equal(await context.fw('test'), {
    code: 0,
    stdout: [
      'Test Results:',
      '',
      'Summary --------------------------------------------------',
      '',
      'passed - POST /hello - hello returns 200',
      'passed - POST /hello - hello echoes a JSON body, a form and a header',
      'passed - GET /items/7 - item 7 by a concrete path',
      'passed - GET items - any 2xx passes response true',
      'passed - GET items - the list as text',
      '',
      'Test Summary: 5 passed, 0 failed',
      '',
    ].join('\n'),
    stderr: '',
  });
});

tests('a failing test shows the response and the first check that differs, exit 1; --function and --test filter', async (context) => {
  writeTests(context, `- name: hello says bye
  endpoint:
    function: hello
  response:
    status: 201
    body:
      greeting: bye
- name: item 8 exists
  endpoint:
    function: items
    method: GET
    path: items/8
  response: true
- name: item 7 is a web page
  endpoint:
    function: items
    method: GET
    path: /items/7
  response:
    headers:
      content-type: text/html
- name: hello returns 200
  endpoint:
    function: hello
  response: true
`);
  const hello = await context.fw('test', '--function', 'hello', '--test', 'hello says bye');
  const date = /\n        date: ([^\n]+)/.exec(hello.stdout)?.[1];
  assert.equal({ ...hello, stdout: hello.stdout.replace(/\n        (date|apigw-requestid|x-amzn-requestid|connection|keep-alive): [^\n]+/g, '') }, {
    code: 1,
    stdout: [
      'Test Results:',
      '',
      'Summary --------------------------------------------------',
      '',
      'failed - POST /hello - hello says bye',
      '',
      'Details --------------------------------------------------',
      '',
      '   1) Failed -  hello says bye',
      '      status: 200',
      '      headers:',
      '        content-length: 75',
      '        content-type: application/json',
      '      body: {"greeting":"hello","got":null,"query":null,"header":null,"tags":["a","b"]}',
      '',
      '      expected: status = 201',
      '      received: status = 200',
      '',
      'Test Summary: 0 passed, 1 failed',
      '',
    ].join('\n'),
    stderr: 'Error: Test run failed\n',
  });
  assert.ok(date, hello.stdout);
  const items = await context.fw('test', '-f', 'items');
  assert.is(items.code, 1);
  const summary = items.stdout.split('\n').filter((line) => /^(passed|failed) - /.test(line));
  assert.equal(summary, ['failed - GET items/8 - item 8 exists', 'failed - GET /items/7 - item 7 is a web page']);
  assert.ok(items.stdout.includes('      expected: status = 200\n      received: status = 404\n'), items.stdout);
  // v3 reads a field its HTTP client does not have, so a headers check can never pass there; fw compares them.
  assert.ok(items.stdout.includes('      expected: headers = {\n        "content-type": "text/html"\n      }\n      received: headers = {\n'), items.stdout);
  assert.ok(items.stdout.endsWith('Test Summary: 0 passed, 2 failed\n'), items.stdout);
  const passing = await context.fw('test', '-f', 'hello', '-t', 'hello returns 200');
  assert.equal([passing.code, passing.stdout.split('\n').at(-2)], [0, 'Test Summary: 1 passed, 0 failed']);
});

tests('no test selected runs nothing and passes, as v3 does, with one line saying so; mistakes are one line', async (context) => {
  writeTests(context, `- name: hello returns 200
  endpoint:
    function: hello
  response: true
`);
  assert.equal(await context.fw('test', '--test', 'nothing'), {
    code: 0,
    stdout: ['Test Results:', '', 'Summary --------------------------------------------------', '', '', 'Test Summary: 0 passed, 0 failed', ''].join('\n'),
    stderr: 'Warning: no test in serverless.test.yml matches --test "nothing"\n',
  });
  writeTests(context, `- name: missing function
  endpoint:
    function: goodbye
`);
  assert.equal(await context.fw('test'), { code: 1, stdout: '', stderr: 'Error: Test "missing function": endpoint.function "goodbye" is not a function of the service\n' });
  writeTests(context, '- name: 3\n');
  assert.equal(await context.fw('test'), { code: 1, stdout: '', stderr: 'Error: Invalid serverless.test.yml[0].name: expected the test\'s name, got 3\n' });
});

tests.run();
