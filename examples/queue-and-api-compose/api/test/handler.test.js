'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { queue } = require('../handler');

test('GET /queue answers with the queue URL it was given', async () => {
  process.env.QUEUE_URL = 'http://127.0.0.1:4566/000000000000/jobs';
  assert.deepStrictEqual(await queue(), {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"queueUrl":"http://127.0.0.1:4566/000000000000/jobs"}',
  });
});
