'use strict';

/** The rules of an order, apart from where it is stored. */

const PRICES = { notebook: 450, pencil: 120, eraser: 90 };

/** A new order from a request body, or the reason it is refused. */
function parseOrder(body) {
  let input;
  try {
    input = JSON.parse(body ?? '');
  } catch {
    return { error: 'The body must be JSON: {"items": [{"sku": "pencil", "quantity": 2}]}' };
  }
  if (!Array.isArray(input.items) || input.items.length === 0) return { error: 'An order needs a non-empty "items" list' };
  for (const item of input.items) {
    if (!(item.sku in PRICES)) return { error: `Unknown sku "${item.sku}": expected one of ${Object.keys(PRICES).join(', ')}` };
    if (!Number.isInteger(item.quantity) || item.quantity < 1) return { error: `The quantity of "${item.sku}" must be a whole number above 0` };
  }
  const items = input.items.map((item) => ({ sku: item.sku, quantity: item.quantity, unitCents: PRICES[item.sku] }));
  return { items, totalCents: items.reduce((sum, item) => sum + item.quantity * item.unitCents, 0) };
}

module.exports = { PRICES, parseOrder };
