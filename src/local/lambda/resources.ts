/**
 * The Lambda calls that make resources outside stacks, as test fixtures do: CreateFunction (zip
 * bytes or an object of the local S3), DeleteFunction, AddPermission / RemovePermission / GetPolicy,
 * and the event source mapping CRUD. What they make lives in the cloud's API resource store, so
 * invocations, queue and stream deliveries treat it as they treat stack-made resources.
 */
import { randomUUID } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';
import type { ResourceRecord } from '../cloudformation/model';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { CODE_SIZE, materializeCode, materializeZip } from '../runtime/code';
import { functionNameOf } from '../runtime/functions';
import { lambdaRequestBody } from './request-body';

const FUNCTION = 'AWS::Lambda::Function';
const PERMISSION = 'AWS::Lambda::Permission';
const MAPPING = 'AWS::Lambda::EventSourceMapping';
const FUNCTION_SETTINGS = ['Runtime', 'Role', 'Handler', 'Description', 'Timeout', 'MemorySize', 'Environment', 'Architectures', 'Layers', 'Tags'];
const MAPPING_SETTINGS = [
  'BatchSize',
  'Enabled',
  'MaximumBatchingWindowInSeconds',
  'FunctionResponseTypes',
  'BisectBatchOnFunctionError',
  'MaximumRetryAttempts',
  'MaximumRecordAgeInSeconds',
  'DestinationConfig',
  'FilterCriteria',
  'ParallelizationFactor',
  'TumblingWindowInSeconds',
];

const notFound = (message = 'The resource you requested does not exist.') => new AwsError('ResourceNotFoundException', message, 404);
const conflict = (message: string) => new AwsError('ResourceConflictException', message, 409);
const invalid = (message: string) => new AwsError('InvalidParameterValueException', message, 400);


function functionArn(cloud: LocalServices, region: string, name: string): string {
  return `arn:aws:lambda:${region}:${cloud.accountId}:function:${name}`;
}

/** Unpacks `Code` as the API gives it: base64 zip bytes in ZipFile, or S3Bucket/S3Key. */
function apiCode(cloud: LocalServices, code: Record<string, unknown> | undefined, runtime: string): { sha256: string; size: number; stored: Record<string, unknown> } {
  if (code && typeof code.ZipFile === 'string') return { ...materializeZip(cloud.dataDir, Buffer.from(code.ZipFile, 'base64')), stored: {} };
  if (code && typeof code.S3Bucket === 'string' && typeof code.S3Key === 'string') {
    return { ...materializeCode(cloud.dataDir, cloud.s3, { S3Bucket: code.S3Bucket, S3Key: code.S3Key }, runtime), stored: { S3Bucket: code.S3Bucket, S3Key: code.S3Key } };
  }
  throw invalid('Please provide a source for function code.');
}

export function createFunction(cloud: LocalServices, request: LocalRequest): ResourceRecord {
  const input = lambdaRequestBody(request);
  const name = input.FunctionName;
  if (typeof name !== 'string' || !/^[a-zA-Z0-9-_]{1,64}$/.test(name)) throw invalid(`1 validation error detected: Value '${String(name)}' at 'functionName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9-_]+`);
  if (input.PackageType === 'Image') throw invalid('The local cloud does not run container image functions');
  const arn = functionArn(cloud, request.region, name);
  if (cloud.resources(FUNCTION).some(({ record }) => record.physicalId === name)) throw conflict(`Function already exist: ${name}`);
  if (typeof input.Role !== 'string') throw invalid('The role defined for the function cannot be assumed by Lambda.');
  const runtime = String(input.Runtime ?? 'nodejs20.x');
  const code = apiCode(cloud, input.Code as Record<string, unknown> | undefined, runtime);
  const properties: Record<string, unknown> = { FunctionName: name, Code: code.stored };
  for (const key of FUNCTION_SETTINGS) if (input[key] !== undefined) properties[key] = input[key];
  return cloud.apiResources.add(request.region, FUNCTION, name, properties, { Arn: arn, CodeSha256: code.sha256, [CODE_SIZE]: code.size });
}

/** UpdateFunctionCode of an API-made function may bring zip bytes. */
export function updateApiFunctionCode(cloud: LocalServices, record: ResourceRecord, input: Record<string, unknown>): void {
  const code = apiCode(cloud, input, String(record.properties.Runtime ?? 'nodejs20.x'));
  record.attributes.CodeSha256 = code.sha256;
  record.attributes[CODE_SIZE] = code.size;
  record.properties.Code = code.stored;
}

export async function deleteFunction(cloud: LocalServices, name: string): Promise<void> {
  const record = cloud.functions.record(name);
  if (!cloud.apiResources.find(FUNCTION, record.physicalId)) throw invalid(`Function ${record.physicalId} belongs to a stack: remove it from the template or delete the stack`);
  await cloud.functions.stop(record.physicalId);
  cloud.apiResources.remove(FUNCTION, record.physicalId);
  cloud.tags.forget(String(record.attributes.Arn));
  for (const { record: permission } of cloud.apiResources.list(PERMISSION)) {
    if (permission.properties.FunctionName === record.physicalId) cloud.apiResources.remove(PERMISSION, permission.physicalId);
  }
}

/** AddPermission, RemovePermission and GetPolicy: statements are recorded (IAM is not enforced locally). */
export function permissions(cloud: LocalServices, name: string, request: LocalRequest, statementId: string | undefined): LocalResponse {
  const fn = cloud.functions.record(name);
  const arn = String(fn.attributes.Arn);
  const statements = () => cloud.apiResources.list(PERMISSION).filter(({ record }) => record.properties.FunctionName === fn.physicalId);
  if (request.method === 'POST') {
    const input = lambdaRequestBody(request);
    const sid = String(input.StatementId ?? '');
    if (!sid || typeof input.Action !== 'string' || typeof input.Principal !== 'string') throw invalid('StatementId, Action and Principal are required.');
    if (statements().some(({ record }) => record.properties.Sid === sid)) {
      throw conflict('The statement id (' + sid + ') provided already exists. Please provide a new statement id, or remove the existing statement.');
    }
    const principal = input.Principal.includes('.') ? { Service: input.Principal } : { AWS: input.Principal };
    const condition: Record<string, Record<string, string>> = {};
    if (typeof input.SourceArn === 'string') condition.ArnLike = { 'AWS:SourceArn': input.SourceArn };
    if (typeof input.SourceAccount === 'string') condition.StringEquals = { 'AWS:SourceAccount': input.SourceAccount };
    const statement = { Sid: sid, Effect: 'Allow', Principal: principal, Action: input.Action, Resource: arn, ...(Object.keys(condition).length ? { Condition: condition } : {}) };
    cloud.apiResources.add(request.region, PERMISSION, `${fn.physicalId}:${sid}`, { FunctionName: fn.physicalId, Sid: sid, Statement: statement });
    return jsonResponse({ Statement: JSON.stringify(statement) }, 201);
  }
  if (request.method === 'DELETE' && statementId) {
    if (!cloud.apiResources.remove(PERMISSION, `${fn.physicalId}:${statementId}`)) throw notFound(`Statement ${statementId} is not found in resource policy.`);
    return { status: 204 };
  }
  if (request.method === 'GET') {
    const found = statements();
    if (found.length === 0) throw notFound('The resource you requested does not exist.');
    const policy = { Version: '2012-10-17', Id: 'default', Statement: found.map(({ record }) => record.properties.Statement) };
    return jsonResponse({ Policy: JSON.stringify(policy), RevisionId: randomUUID() });
  }
  return jsonResponse({}, 405);
}

function mappingView(record: ResourceRecord, cloud: LocalServices): Record<string, unknown> {
  const properties = record.properties;
  const source = String(properties.EventSourceArn);
  const stream = source.split(':')[2] === 'kinesis' || source.includes('/stream/');
  let functionArnValue = String(properties.FunctionName);
  try {
    functionArnValue = String(cloud.functions.record(functionArnValue).attributes.Arn);
  } catch {
    // a function deleted since: its name is all there is
  }
  const enabled = properties.Enabled !== false && properties.Enabled !== 'false';
  return {
    UUID: record.physicalId,
    ...(stream ? { StartingPosition: properties.StartingPosition, ParallelizationFactor: Number(properties.ParallelizationFactor ?? 1) } : {}),
    ...(properties.StartingPositionTimestamp !== undefined ? { StartingPositionTimestamp: properties.StartingPositionTimestamp } : {}),
    BatchSize: Number(properties.BatchSize ?? (stream ? 100 : 10)),
    MaximumBatchingWindowInSeconds: Number(properties.MaximumBatchingWindowInSeconds ?? 0),
    EventSourceArn: source,
    ...(properties.FilterCriteria ? { FilterCriteria: properties.FilterCriteria } : {}),
    FunctionArn: functionArnValue,
    LastModified: Date.parse(record.timestamp) / 1000,
    ...(stream ? { LastProcessingResult: 'No records processed' } : {}),
    State: enabled ? 'Enabled' : 'Disabled',
    StateTransitionReason: 'User action',
    ...(stream
      ? {
          DestinationConfig: properties.DestinationConfig ?? { OnFailure: {} },
          MaximumRecordAgeInSeconds: Number(properties.MaximumRecordAgeInSeconds ?? -1),
          BisectBatchOnFunctionError: properties.BisectBatchOnFunctionError === true,
          MaximumRetryAttempts: Number(properties.MaximumRetryAttempts ?? -1),
          TumblingWindowInSeconds: Number(properties.TumblingWindowInSeconds ?? 0),
        }
      : {}),
    FunctionResponseTypes: properties.FunctionResponseTypes ?? [],
    EventSourceMappingArn: record.attributes.EventSourceMappingArn,
  };
}

/** CreateEventSourceMapping, ListEventSourceMappings, Get/Update/DeleteEventSourceMapping. */
export function eventSourceMappings(cloud: LocalServices, request: LocalRequest, uuid: string): LocalResponse {
  const mapping = () => {
    const found = cloud.resources(MAPPING).find(({ record }) => record.physicalId === uuid);
    if (!found) throw notFound();
    return found.record;
  };
  const changed = () => cloud.afterStackChange();
  if (!uuid && request.method === 'POST') {
    const input = lambdaRequestBody(request);
    if (typeof input.EventSourceArn !== 'string' || typeof input.FunctionName !== 'string') throw invalid('EventSourceArn and FunctionName are required.');
    const fn = cloud.functions.record(input.FunctionName);
    const existing = cloud.resources(MAPPING).find(({ record }) => record.properties.EventSourceArn === input.EventSourceArn && functionNameOf(String(record.properties.FunctionName)) === fn.physicalId);
    if (existing) {
      throw conflict(`An event source mapping with event source ("${input.EventSourceArn}") and function ("${fn.physicalId}") already exists. Please update or delete the existing mapping with UUID ${existing.record.physicalId}`);
    }
    const stream = input.EventSourceArn.split(':')[2] === 'kinesis' || input.EventSourceArn.includes('/stream/');
    if (stream && typeof input.StartingPosition !== 'string') throw invalid('1 validation error detected: Value null at \'startingPosition\' failed to satisfy constraint: Member must not be null');
    const id = randomUUID();
    const properties: Record<string, unknown> = { EventSourceArn: input.EventSourceArn, FunctionName: fn.physicalId };
    for (const key of [...MAPPING_SETTINGS, 'StartingPosition', 'StartingPositionTimestamp']) if (input[key] !== undefined) properties[key] = input[key];
    const record = cloud.apiResources.add(request.region, MAPPING, id, properties, { EventSourceMappingArn: `arn:aws:lambda:${request.region}:${cloud.accountId}:event-source-mapping:${id}` });
    changed();
    return jsonResponse({ ...mappingView(record, cloud), State: 'Creating' }, 202);
  }
  if (!uuid && request.method === 'GET') {
    const functionName = request.search.get('FunctionName');
    const source = request.search.get('EventSourceArn');
    const found = cloud
      .resources(MAPPING)
      .map(({ record }) => record)
      .filter((record) => (!functionName || functionNameOf(String(record.properties.FunctionName)) === functionNameOf(functionName)) && (!source || record.properties.EventSourceArn === source));
    return jsonResponse({ EventSourceMappings: found.map((record) => mappingView(record, cloud)) });
  }
  if (uuid && request.method === 'GET') return jsonResponse(mappingView(mapping(), cloud));
  if (uuid && request.method === 'PUT') {
    const record = mapping();
    if (!cloud.apiResources.find(MAPPING, uuid)) throw invalid(`Event source mapping ${uuid} belongs to a stack: change it in the template`);
    const input = lambdaRequestBody(request);
    for (const key of MAPPING_SETTINGS) if (input[key] !== undefined) record.properties[key] = input[key];
    if (typeof input.FunctionName === 'string') record.properties.FunctionName = cloud.functions.record(input.FunctionName).physicalId;
    cloud.apiResources.changed(record);
    changed();
    return jsonResponse({ ...mappingView(record, cloud), State: 'Updating' }, 202);
  }
  if (uuid && request.method === 'DELETE') {
    const record = mapping();
    if (!cloud.apiResources.remove(MAPPING, uuid)) throw invalid(`Event source mapping ${uuid} belongs to a stack: remove it from the template`);
    changed();
    return jsonResponse({ ...mappingView(record, cloud), State: 'Deleting' }, 202);
  }
  return jsonResponse({}, 405);
}
