import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { reservedConcurrency } from '../runtime/functions';
import { UNRESERVED_CONCURRENCY_MINIMUM } from '../runtime/concurrency';

/** What Lambda keeps unreserved: 100 executions, or a tenth of an account limit under 1,000 (`--concurrency-limit`). */
export function unreservedMinimum(accountLimit: number): number {
  return Math.min(UNRESERVED_CONCURRENCY_MINIMUM, Math.floor(accountLimit / 10));
}

function reservedTotal(cloud: LocalServices, except?: string): number {
  let total = 0;
  for (const { record } of cloud.resources('AWS::Lambda::Function')) {
    if (record.physicalId !== except) total += reservedConcurrency(record) ?? 0;
  }
  return total;
}

/**
 * PutFunctionConcurrency, GetFunctionConcurrency, DeleteFunctionConcurrency (a function's reserved
 * concurrency, `ReservedConcurrentExecutions` of its resource, as `reservedConcurrency` in the
 * service file sets it) and GetAccountSettings.
 */
export function lambdaConcurrencyApi(cloud: LocalServices, request: LocalRequest): LocalResponse | undefined {
  if (request.path.replace(/\/$/, '') === '/2016-08-19/account-settings' && request.method === 'GET') {
    const limit = cloud.functions.concurrencyLimit;
    return jsonResponse({
      AccountLimit: {
        TotalCodeSize: 80530636800,
        CodeSizeUnzipped: 262144000,
        CodeSizeZipped: 52428800,
        ConcurrentExecutions: limit,
        UnreservedConcurrentExecutions: Math.max(0, limit - reservedTotal(cloud)),
      },
      AccountUsage: { TotalCodeSize: 0, FunctionCount: cloud.resources('AWS::Lambda::Function').length },
    });
  }
  const match = /^\/(2017-10-31|2019-09-30)\/functions\/([^/]+)\/concurrency\/?$/.exec(request.path);
  if (!match) return undefined;
  const record = cloud.functions.record(decodeURIComponent(match[2]));
  const save = () => {
    record.timestamp = new Date().toISOString();
    if (cloud.apiResources.find(record.type, record.physicalId)) cloud.apiResources.changed(record);
    else cloud.stacks.saveSoon();
  };
  if (request.method === 'GET') {
    const reserved = reservedConcurrency(record);
    return jsonResponse(reserved === undefined ? {} : { ReservedConcurrentExecutions: reserved });
  }
  if (request.method === 'DELETE') {
    delete record.properties.ReservedConcurrentExecutions;
    save();
    return { status: 204 };
  }
  if (request.method !== 'PUT') return undefined;
  let body: { ReservedConcurrentExecutions?: unknown };
  try {
    body = JSON.parse(request.body.toString('utf8') || '{}') as typeof body;
  } catch {
    throw new AwsError('InvalidRequestContentException', 'Could not parse request body into json', 400);
  }
  const wanted = body.ReservedConcurrentExecutions;
  if (typeof wanted !== 'number' || !Number.isInteger(wanted) || wanted < 0) {
    throw new AwsError('InvalidParameterValueException', `1 validation error detected: Value '${String(wanted)}' at 'reservedConcurrentExecutions' failed to satisfy constraint: Member must have value greater than or equal to 0`, 400);
  }
  const limit = cloud.functions.concurrencyLimit;
  const minimum = unreservedMinimum(limit);
  if (limit - reservedTotal(cloud, record.physicalId) - wanted < minimum) {
    throw new AwsError('InvalidParameterValueException', `Specified ReservedConcurrentExecutions for function decreases account's UnreservedConcurrentExecution below its minimum value of [${minimum}].`, 400);
  }
  record.properties.ReservedConcurrentExecutions = wanted;
  save();
  return jsonResponse({ ReservedConcurrentExecutions: wanted });
}
