'use strict';
// Run with: node --test  (no AWS needed: the table and the queue are fakes)
const test = require('node:test');
const assert = require('node:assert/strict');
const { makeApi } = require('../src/api');
const { makeWorker } = require('../src/worker');
const { makeReport } = require('../src/report');
const { makeReceipts } = require('../src/receipts');

function fakes() {
  const orders = new Map();
  const sent = [];
  const store = {
    async put(order) { orders.set(order.id, structuredClone(order)); },
    async get(id) { return orders.get(id); },
    async update(id, changes) {
      if (!orders.has(id)) throw new Error(`no order ${id}`);
      Object.assign(orders.get(id), changes);
    },
    async all() { return [...orders.values()]; },
  };
  const orderQueue = { async send(message) { sent.push(message); } };
  return { orders, sent, store, orderQueue, now: () => '2024-05-06T09:00:00.000Z', newId: () => `order-${orders.size + 1}` };
}

const post = (body) => ({ version: '2.0', routeKey: 'POST /orders', rawPath: '/orders', body });
const get = (id) => ({ version: '2.0', routeKey: 'GET /orders/{id}', rawPath: `/orders/${id}`, pathParameters: { id } });
const quiet = async (fn) => {
  const { log, error } = console;
  console.log = console.error = () => {};
  try { return await fn(); } finally { Object.assign(console, { log, error }); }
};

test('answers the health check without the table', async () => {
  const response = await makeApi({}).health();
  assert.deepEqual(JSON.parse(response.body), { ok: true, service: 'orders', stage: 'dev' });
});

test('creates an order, prices it, queues it, and returns it by id', async () => {
  const deps = fakes();
  const api = makeApi(deps);
  const created = await api.createOrder(post(JSON.stringify({ items: [{ sku: 'pencil', quantity: 3 }, { sku: 'notebook', quantity: 1 }] })));
  assert.equal(created.statusCode, 201);
  const order = {
    id: 'order-1',
    status: 'received',
    createdAt: '2024-05-06T09:00:00.000Z',
    items: [{ sku: 'pencil', quantity: 3, unitCents: 120 }, { sku: 'notebook', quantity: 1, unitCents: 450 }],
    totalCents: 810,
  };
  assert.deepEqual(JSON.parse(created.body), order);
  assert.deepEqual(deps.sent, [{ orderId: 'order-1' }]);
  assert.deepEqual(JSON.parse((await api.getOrder(get('order-1'))).body), order);
  assert.equal((await api.getOrder(get('nope'))).statusCode, 404);
});

test('refuses an order it cannot price', async () => {
  const api = makeApi(fakes());
  const response = await api.createOrder(post(JSON.stringify({ items: [{ sku: 'stapler', quantity: 1 }] })));
  assert.deepEqual({ status: response.statusCode, body: JSON.parse(response.body) }, {
    status: 400, body: { message: 'Unknown sku "stapler": expected one of notebook, pencil, eraser' },
  });
});

test('processes queued orders and reports only the message that failed', async () => {
  const deps = fakes();
  await deps.store.put({ id: 'a', status: 'received', totalCents: 90 });
  const result = await quiet(() => makeWorker(deps)({
    Records: [
      { messageId: 'm1', body: JSON.stringify({ orderId: 'a' }) },
      { messageId: 'm2', body: JSON.stringify({ orderId: 'missing' }) },
    ],
  }));
  assert.deepEqual(result, { batchItemFailures: [{ itemIdentifier: 'm2' }] });
  assert.equal(deps.orders.get('a').status, 'processed');
});

test('counts the orders by status every night', async () => {
  const deps = fakes();
  await deps.store.put({ id: 'a', status: 'received', totalCents: 90 });
  await deps.store.put({ id: 'b', status: 'processed', totalCents: 450 });
  const report = await quiet(() => makeReport(deps)({ 'detail-type': 'Scheduled Event', time: '2024-05-07T02:00:00Z' }));
  assert.deepEqual(report, { at: '2024-05-07T02:00:00Z', orders: 2, byStatus: { received: 1, processed: 1 }, totalCents: 540 });
});

test('attaches an uploaded receipt to its order', async () => {
  const deps = fakes();
  await deps.store.put({ id: 'a', status: 'processed', totalCents: 90 });
  const record = (key) => ({ s3: { bucket: { name: 'orders-dev-receipts' }, object: { key, size: 10 } } });
  const result = await makeReceipts(deps)({ Records: [record('receipts/a.pdf'), record('other/b.pdf')] });
  assert.deepEqual(result, { attached: ['a'] });
  assert.equal(deps.orders.get('a').receipt, 's3://orders-dev-receipts/receipts/a.pdf');
});
