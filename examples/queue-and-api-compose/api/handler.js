'use strict';

/** GET /queue: the URL of the queue service's queue, passed in by fw-compose.yml. */
exports.queue = async () => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ queueUrl: process.env.QUEUE_URL }),
});
