'use strict';

/** Every night: how many orders, in which status, and how much they are worth. */
function makeReport({ store }) {
  return async function nightlyReport(event) {
    const orders = await store.all();
    const byStatus = {};
    for (const order of orders) byStatus[order.status] = (byStatus[order.status] ?? 0) + 1;
    const report = {
      at: event.time,
      orders: orders.length,
      byStatus,
      totalCents: orders.reduce((sum, order) => sum + order.totalCents, 0),
    };
    console.log(JSON.stringify(report));
    return report;
  };
}

let report;
module.exports = {
  makeReport,
  nightlyReport: (event) => (report ??= makeReport(require('./aws')))(event),
};
