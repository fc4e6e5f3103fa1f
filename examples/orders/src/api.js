'use strict';

const { randomUUID } = require('node:crypto');
const { parseOrder } = require('./orders');

/** The HTTP API handlers (payload format 2.0), given where orders are kept and queued. */
function makeApi({ store, orderQueue, now = () => new Date().toISOString(), newId = randomUUID }) {
  return {
    // Answers without touching the table or the queue: what a load balancer or a smoke test calls.
    async health() {
      return json(200, { ok: true, service: 'orders', stage: process.env.STAGE ?? 'dev' });
    },

    async createOrder(event) {
      const parsed = parseOrder(event.body);
      if (parsed.error) return json(400, { message: parsed.error });
      const order = { id: newId(), status: 'received', createdAt: now(), items: parsed.items, totalCents: parsed.totalCents };
      await store.put(order);
      await orderQueue.send({ orderId: order.id });
      return json(201, order);
    },

    async getOrder(event) {
      const id = event.pathParameters.id;
      const order = await store.get(id);
      return order ? json(200, order) : json(404, { message: `No order with id "${id}"` });
    },
  };
}

function json(statusCode, body) {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

let api;
const real = () => (api ??= makeApi(require('./aws')));

module.exports = {
  makeApi,
  health: (event) => real().health(event),
  createOrder: (event) => real().createOrder(event),
  getOrder: (event) => real().getOrder(event),
};
