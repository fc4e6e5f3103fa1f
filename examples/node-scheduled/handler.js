'use strict';

// Called by the scheduler; whatever it returns only shows in the logs, so log the result.
exports.report = async (event) => {
  const kind = event.kind ?? 'hourly';
  const at = event.time ?? new Date().toISOString();
  const result = { kind, at, message: `${kind} report for ${at.slice(0, 10)}` };
  console.log(JSON.stringify(result));
  return result;
};
