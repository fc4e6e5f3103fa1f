'use strict';
// Run with: node --test
const test = require('node:test');
const assert = require('node:assert/strict');
const { makeHandler } = require('../handler');

const s3Event = (key, size) => ({
  Records: [{
    eventVersion: '2.1',
    eventSource: 'aws:s3',
    awsRegion: 'us-east-1',
    eventTime: '2024-05-06T09:00:00.000Z',
    eventName: 'ObjectCreated:Put',
    s3: {
      s3SchemaVersion: '1.0',
      bucket: { name: 'my-service-dev-uploads', arn: 'arn:aws:s3:::my-service-dev-uploads' },
      object: { key, size, eTag: 'd41d8cd98f00b204e9800998ecf8427e' },
    },
  }],
});

test('records each uploaded file with its decoded key', async () => {
  const saved = [];
  const onUpload = makeHandler(async (upload) => { saved.push(upload); });
  const result = await onUpload(s3Event('photos/summer+trip%281%29.jpg', 2048));
  assert.deepEqual(result, { recorded: 1 });
  assert.deepEqual(saved, [{
    key: 'photos/summer trip(1).jpg',
    bucket: 'my-service-dev-uploads',
    size: 2048,
    uploadedAt: '2024-05-06T09:00:00.000Z',
  }]);
});

test('fails when the upload cannot be recorded, so the event is retried', async () => {
  const onUpload = makeHandler(async () => { throw new Error('table unavailable'); });
  await assert.rejects(onUpload(s3Event('a.txt', 1)), /table unavailable/);
});
