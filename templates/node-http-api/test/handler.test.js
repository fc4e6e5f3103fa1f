'use strict';
// Run with: node --test
const test = require('node:test');
const assert = require('node:assert/strict');
const { listItems, getItem } = require('../handler');

test('lists every item', async () => {
  const response = await listItems({ routeKey: 'GET /items', rawPath: '/items' });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(JSON.parse(response.body).items.map((item) => item.id), ['1', '2']);
});

test('returns one item by its id', async () => {
  const response = await getItem({ routeKey: 'GET /items/{id}', rawPath: '/items/2', pathParameters: { id: '2' } });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(JSON.parse(response.body), { id: '2', name: 'Pencil', price: 1.2 });
});

test('answers 404 for an unknown id', async () => {
  const response = await getItem({ routeKey: 'GET /items/{id}', rawPath: '/items/9', pathParameters: { id: '9' } });
  assert.equal(response.statusCode, 404);
});
