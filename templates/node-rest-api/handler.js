'use strict';

// Notes live in memory, per function instance: enough to try the API, not to keep data.
const notes = new Map([['1', { id: '1', text: 'Try fw deploy --local' }]]);

// REST API events use payload format 1.0: event.pathParameters, and event.body as a string.
exports.listNotes = async () => json(200, { notes: [...notes.values()] });

exports.getNote = async (event) => {
  const id = event.pathParameters.id;
  const note = notes.get(id);
  return note ? json(200, note) : json(404, { message: `No note with id "${id}"` });
};

exports.createNote = async (event) => {
  let input;
  try {
    input = JSON.parse(event.body ?? '');
  } catch {
    return json(400, { message: 'The body must be JSON: {"text": "..."}' });
  }
  if (typeof input.text !== 'string' || input.text === '') {
    return json(400, { message: 'The body needs a non-empty "text"' });
  }
  const note = { id: String(notes.size + 1), text: input.text };
  notes.set(note.id, note);
  return json(201, note);
};

function json(statusCode, body) {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
