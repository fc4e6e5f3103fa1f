'use strict';

/**
 * Takes queued orders one by one. A failed message is reported alone
 * (ReportBatchItemFailures), so the rest of the batch is not retried with it;
 * after three failures the queue moves it to the dead-letter queue.
 */
function makeWorker({ store, now = () => new Date().toISOString() }) {
  return async function processOrder(event) {
    const batchItemFailures = [];
    for (const record of event.Records) {
      try {
        const { orderId } = JSON.parse(record.body);
        await store.update(orderId, { status: 'processed', processedAt: now() });
      } catch (error) {
        console.error(`Order message ${record.messageId} failed: ${error.message}`);
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}

let worker;
module.exports = {
  makeWorker,
  processOrder: (event) => (worker ??= makeWorker(require('./aws')))(event),
};
