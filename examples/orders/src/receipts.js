'use strict';

/** A PDF uploaded as receipts/<order id>.pdf is attached to its order. */
function makeReceipts({ store }) {
  return async function attachReceipt(event) {
    const attached = [];
    for (const record of event.Records) {
      const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
      const orderId = /^receipts\/([^/]+)\.pdf$/.exec(key)?.[1];
      if (orderId === undefined) continue;
      await store.update(orderId, { receipt: `s3://${record.s3.bucket.name}/${key}` });
      attached.push(orderId);
    }
    return { attached };
  };
}

let receipts;
module.exports = {
  makeReceipts,
  attachReceipt: (event) => (receipts ??= makeReceipts(require('./aws')))(event),
};
