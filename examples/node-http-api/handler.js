'use strict';

// A fixed catalogue keeps the example self-contained; swap it for a table when you need one.
const items = [
  { id: '1', name: 'Notebook', price: 4.5 },
  { id: '2', name: 'Pencil', price: 1.2 },
];

// HTTP API events use payload format 2.0: the path parameter is in event.pathParameters.
exports.listItems = async () => json(200, { items });

exports.getItem = async (event) => {
  const id = event.pathParameters.id;
  const item = items.find((candidate) => candidate.id === id);
  return item ? json(200, item) : json(404, { message: `No item with id "${id}"` });
};

function json(statusCode, body) {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
