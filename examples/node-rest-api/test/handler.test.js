'use strict';
// Run with: node --test
const test = require('node:test');
const assert = require('node:assert/strict');
const { listNotes, getNote, createNote } = require('../handler');

const request = (method, path, extra = {}) => ({ httpMethod: method, path, resource: path, headers: {}, ...extra });

test('returns a note by its id', async () => {
  const response = await getNote(request('GET', '/notes/1', { resource: '/notes/{id}', pathParameters: { id: '1' } }));
  assert.equal(response.statusCode, 200);
  assert.deepEqual(JSON.parse(response.body), { id: '1', text: 'Try fw deploy --local' });
});

test('creates a note from a JSON body, then lists it', async () => {
  const created = await createNote(request('POST', '/notes', { body: JSON.stringify({ text: 'Buy milk' }) }));
  assert.equal(created.statusCode, 201);
  assert.deepEqual(JSON.parse(created.body), { id: '2', text: 'Buy milk' });
  const listed = await listNotes(request('GET', '/notes'));
  assert.deepEqual(JSON.parse(listed.body).notes.map((note) => note.text), ['Try fw deploy --local', 'Buy milk']);
});

test('refuses a body that is not JSON', async () => {
  const response = await createNote(request('POST', '/notes', { body: 'hello' }));
  assert.equal(response.statusCode, 400);
});

test('answers 404 for an unknown id', async () => {
  const response = await getNote(request('GET', '/notes/42', { resource: '/notes/{id}', pathParameters: { id: '42' } }));
  assert.equal(response.statusCode, 404);
});
