// Run with: npm test (compiles into .build/, then runs node --test)
import test from 'node:test';
import assert from 'node:assert/strict';
import { hello, type Greeting } from '../src/handler';

test('greets the name from the path', async () => {
  const response = await hello({ rawPath: '/hello/Ada', pathParameters: { name: 'Ada' } });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(JSON.parse(response.body) as Greeting, { greeting: 'Hello, Ada.', path: '/hello/Ada' });
});

test('gets excited when asked to', async () => {
  const response = await hello({
    rawPath: '/hello/Ada',
    pathParameters: { name: 'Ada' },
    queryStringParameters: { excited: 'true' },
  });
  assert.equal((JSON.parse(response.body) as Greeting).greeting, 'Hello, Ada!');
});
