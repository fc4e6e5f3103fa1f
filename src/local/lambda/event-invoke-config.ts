/**
 * Put/Update/Get/Delete/ListFunctionEventInvokeConfig(s): the settings of a function's
 * asynchronous invocations (retries, maximum event age, destinations) that the event queue reads
 * (runtime/async-invocations.ts). A configuration made by the API sits beside the stacks' own
 * (AWS::Lambda::EventInvokeConfig) and is read first.
 */
import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';
import type { ResourceRecord } from '../cloudformation/model';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { functionNameOf } from '../runtime/functions';
import { lambdaRequestBody } from './request-body';

const CONFIG = 'AWS::Lambda::EventInvokeConfig';
const SETTINGS = ['MaximumRetryAttempts', 'MaximumEventAgeInSeconds', 'DestinationConfig'] as const;

const invalid = (message: string) => new AwsError('InvalidParameterValueException', message, 400);


/** Refuses settings out of Lambda's ranges, with its validation messages. */
function checkSettings(input: Record<string, unknown>): void {
  const retries = input.MaximumRetryAttempts;
  if (retries !== undefined && !(Number.isInteger(retries) && (retries as number) >= 0 && (retries as number) <= 2)) {
    throw invalid(`1 validation error detected: Value '${String(retries)}' at 'maximumRetryAttempts' failed to satisfy constraint: Member must have value less than or equal to 2`);
  }
  const age = input.MaximumEventAgeInSeconds;
  if (age !== undefined && !(Number.isInteger(age) && (age as number) >= 60 && (age as number) <= 21600)) {
    throw invalid(`1 validation error detected: Value '${String(age)}' at 'maximumEventAgeInSeconds' failed to satisfy constraint: Member must have value ${(age as number) < 60 ? 'greater than or equal to 60' : 'less than or equal to 21600'}`);
  }
}

function describe(record: ResourceRecord, functionArn: string): Record<string, unknown> {
  const qualifier = String(record.properties.Qualifier ?? '$LATEST');
  return {
    LastModified: Date.parse(record.timestamp) / 1000,
    FunctionArn: `${functionArn}:${qualifier}`,
    ...Object.fromEntries(SETTINGS.filter((key) => record.properties[key] !== undefined).map((key) => [key, record.properties[key]])),
  };
}

/** The event invoke configuration API (2019-09-25): undefined for other paths. */
export function eventInvokeConfigApi(cloud: LocalServices, request: LocalRequest): LocalResponse | undefined {
  const match = /^\/2019-09-25\/functions\/([^/]+)\/event-invoke-config(\/list)?\/?$/.exec(request.path);
  if (!match) return undefined;
  const fn = cloud.functions.record(decodeURIComponent(match[1]));
  const functionArn = String(fn.attributes.Arn);
  const configs = cloud.resources(CONFIG).filter(({ record }) => functionNameOf(String(record.properties.FunctionName)) === fn.physicalId);
  if (match[2]) {
    if (request.method !== 'GET') return undefined;
    // One per qualifier: the API's, else the stack's.
    const byQualifier = new Map<string, ResourceRecord>();
    for (const { record } of configs) {
      const qualifier = String(record.properties.Qualifier ?? '$LATEST');
      if (!byQualifier.has(qualifier)) byQualifier.set(qualifier, record);
    }
    return jsonResponse({ FunctionEventInvokeConfigs: [...byQualifier.values()].map((record) => describe(record, functionArn)) });
  }
  const qualifier = request.search.get('Qualifier') ?? '$LATEST';
  const forQualifier = configs.filter(({ record }) => String(record.properties.Qualifier ?? '$LATEST') === qualifier);
  const apiMade = forQualifier.map(({ record }) => record).find((record) => cloud.apiResources.find(CONFIG, record.physicalId));
  const current = forQualifier[0]?.record;
  const missing = () => new AwsError('ResourceNotFoundException', `The function ${functionArn} doesn't have an EventInvokeConfig`, 404);
  switch (request.method) {
    case 'GET':
      if (!current) throw missing();
      return jsonResponse(describe(current, functionArn));
    case 'PUT':
    case 'POST': {
      const input = lambdaRequestBody(request);
      checkSettings(input);
      // Put replaces the whole configuration; Update changes the settings it names.
      const base = request.method === 'POST' ? (current?.properties ?? {}) : {};
      if (request.method === 'POST' && !current) throw missing();
      const properties: Record<string, unknown> = { FunctionName: fn.physicalId, Qualifier: qualifier };
      for (const key of SETTINGS) {
        const value = input[key] !== undefined ? input[key] : base[key];
        if (value !== undefined) properties[key] = value;
      }
      if (apiMade) cloud.apiResources.remove(CONFIG, apiMade.physicalId);
      const record = cloud.apiResources.add(request.region, CONFIG, `${functionArn}:${qualifier}`, properties);
      return jsonResponse(describe(record, functionArn));
    }
    case 'DELETE':
      if (!current) throw missing();
      if (!apiMade) throw invalid(`The EventInvokeConfig of ${functionArn}:${qualifier} belongs to a stack: remove it from the template or delete the stack`);
      cloud.apiResources.remove(CONFIG, apiMade.physicalId);
      return { status: 204 };
    default:
      return undefined;
  }
}
