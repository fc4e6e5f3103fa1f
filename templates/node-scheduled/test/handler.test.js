'use strict';
// Run with: node --test
const test = require('node:test');
const assert = require('node:assert/strict');
const { report } = require('../handler');

test('reports an hourly run from the scheduler event', async () => {
  const event = {
    version: '0',
    id: '53dc4d37-cffa-4f76-80c9-8b7d4a4d2eaa',
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '123456789012',
    time: '2024-05-06T09:00:00Z',
    region: 'us-east-1',
    resources: ['arn:aws:events:us-east-1:123456789012:rule/example'],
    detail: {},
  };
  assert.deepEqual(await report(event), {
    kind: 'hourly',
    at: '2024-05-06T09:00:00Z',
    message: 'hourly report for 2024-05-06',
  });
});

test('takes its kind from the input configured on the schedule', async () => {
  const result = await report({ kind: 'morning' });
  assert.equal(result.kind, 'morning');
  assert.match(result.message, /^morning report for \d{4}-\d{2}-\d{2}$/);
});
