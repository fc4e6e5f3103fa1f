import { existsSync, readFileSync } from 'node:fs';
import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';
import type { ResourceRecord } from '../cloudformation/model';
import { header, jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { CODE_SIZE, materializeCode, publishedVersions, versionCodeFile, versionCodeName, versionCodeUrl, versionCodeUrlValid, type PublishedVersion } from '../runtime/code';
import { createFunction, deleteFunction, eventSourceMappings, permissions, updateApiFunctionCode } from './resources';
import { lambdaVersionsApi } from './versions';
import { lambdaConcurrencyApi } from './concurrency';
import { functionUrlsApi } from './function-urls';
import { findLayerVersion, lambdaLayersApi } from './layers';
import { eventInvokeConfigApi } from './event-invoke-config';
import { lambdaRequestBody } from './request-body';
import { layerArns } from '../runtime/layers-folder';
import { reservedConcurrency } from '../runtime/functions';
import { declaredTags, tagMap, type TagMap } from '../state/resource-tags';

/** Lambda's limits on an Invoke request's payload: 6 MB synchronous, 1 MB asynchronous (the Invoke API reference). */
const MAX_REQUEST_BYTES = { RequestResponse: 6_291_456, Event: 1_048_576 };

/** `2026-11-21T17:40:33.000+0000`, Lambda's LastModified format. */
function lambdaTime(iso: string): string {
  return iso.replace('Z', '+0000');
}

/** The layers of a function's configuration, as Lambda lists them, when it has any. */
function layersOf(cloud: Pick<LocalServices, 'resources'>, properties: Record<string, unknown>): Record<string, unknown>[] | undefined {
  const arns = layerArns(properties);
  if (arns.length === 0) return undefined;
  return arns.map((Arn) => ({ Arn, CodeSize: Number(findLayerVersion(cloud, Arn)?.attributes.CodeSize ?? 0) }));
}

/** A function's configuration; of one of its published versions when given. */
function configuration(cloud: Pick<LocalServices, 'resources'>, record: ResourceRecord, version?: PublishedVersion): Record<string, unknown> {
  const properties = record.properties;
  const environment = (properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
  return {
    FunctionName: record.physicalId,
    FunctionArn: version ? version.Arn : record.attributes.Arn,
    Runtime: properties.Runtime,
    Role: properties.Role,
    Handler: properties.Handler,
    Description: properties.Description ?? '',
    Timeout: Number(properties.Timeout ?? 3),
    MemorySize: Number(properties.MemorySize ?? 128),
    LastModified: lambdaTime(record.timestamp),
    CodeSha256: version ? version.CodeSha256 : record.attributes.CodeSha256,
    CodeSize: Number((version ? version.CodeSize : record.attributes[CODE_SIZE]) ?? 0),
    Version: version ? version.Version : '$LATEST',
    Environment: environment ? { Variables: Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, String(v)])) } : undefined,
    State: 'Active',
    LastUpdateStatus: 'Successful',
    PackageType: properties.PackageType ?? 'Zip',
    ImageConfigResponse: properties.ImageConfig ? { ImageConfig: properties.ImageConfig } : undefined,
    Layers: layersOf(cloud, properties),
    Architectures: (properties.Architectures as string[] | undefined) ?? ['x86_64'],
  };
}

/** X-Amz-Client-Context: base64 of a JSON object, handed to the function as its context's client context. */
function clientContextOf(request: LocalRequest): unknown {
  const encoded = header(request, 'x-amz-client-context');
  if (encoded === undefined) return undefined;
  try {
    return JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    throw new AwsError('InvalidRequestContentException', 'Client context must be a valid Base64-encoded JSON object.', 400);
  }
}

/** Where a function's code can be read: its object in the local S3; a version's: the copy Lambda kept of it. */
function codeLocation(cloud: LocalServices, code: unknown, version?: PublishedVersion): string | undefined {
  const copy = version && versionCodeName(version);
  if (copy) return versionCodeUrl(cloud.baseUrl, copy);
  const s3 = code as { S3Bucket?: unknown; S3Key?: unknown } | undefined;
  return typeof s3?.S3Bucket === 'string' && typeof s3.S3Key === 'string' ? `${cloud.baseUrl}/${s3.S3Bucket}/${s3.S3Key}` : undefined;
}

/** The zip a published version keeps (its GetFunction Code.Location), for a URL `versionCodeUrl` signed. */
export function versionCodeResponse(dataDir: string, name: string, search: URLSearchParams): LocalResponse {
  const xml = (code: string, message: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  if (!versionCodeUrlValid(name, search)) return { status: 403, headers: { 'content-type': 'application/xml' }, body: xml('AccessDenied', 'Request has expired or its signature does not match: call GetFunction again for a new Code.Location') };
  const file = versionCodeFile(dataDir, name);
  if (file && existsSync(file)) return { status: 200, headers: { 'content-type': 'application/zip' }, body: readFileSync(file) };
  return { status: 404, headers: { 'content-type': 'application/xml' }, body: xml('NoSuchKey', 'The specified key does not exist.') };
}

/**
 * The Lambda REST API: Invoke, GetFunction, GetFunctionConfiguration, ListFunctions,
 * ListVersionsByFunction, UpdateFunctionCode, UpdateFunctionConfiguration (`Qualifier` names a
 * published version); and the calls that make resources outside stacks (src/local/lambda/resources.ts).
 */
export async function lambdaApi(cloud: LocalServices, request: LocalRequest): Promise<LocalResponse | undefined> {
  const mappings = /^\/2015-03-31\/event-source-mappings\/?([^/]*)\/?$/.exec(request.path);
  if (mappings) return eventSourceMappings(cloud, request, decodeURIComponent(mappings[1]));
  const policy = /^\/2015-03-31\/functions\/([^/]+)\/policy\/?([^/]*)\/?$/.exec(request.path);
  if (policy) return permissions(cloud, decodeURIComponent(policy[1]), request, decodeURIComponent(policy[2]) || undefined);
  const concurrency = lambdaConcurrencyApi(cloud, request);
  if (concurrency) return concurrency;
  const layers = lambdaLayersApi(cloud, request) ?? eventInvokeConfigApi(cloud, request) ?? functionUrlsApi(cloud, request);
  if (layers) return layers;
  const versionsOrAliases = lambdaVersionsApi(cloud, request, (record, version) => configuration(cloud, record, version));
  if (versionsOrAliases) return versionsOrAliases;
  const tagged = /^\/2017-03-31\/tags\/(.+)$/.exec(request.path);
  if (tagged) return lambdaTags(cloud, decodeURIComponent(tagged[1]), request);
  const invokeAsync = /^\/2014-11-13\/functions\/([^/]+)\/invoke-async\/?$/.exec(request.path);
  if (invokeAsync && request.method === 'POST') {
    // InvokeAsync (deprecated, still served by Lambda): an Event invocation answered with its status.
    const name = decodeURIComponent(invokeAsync[1]);
    if (request.body.length > MAX_REQUEST_BYTES.Event) throw new AwsError('RequestEntityTooLargeException', `Request must be smaller than ${MAX_REQUEST_BYTES.Event} bytes for the InvokeAsync operation`, 413);
    let event: unknown;
    try {
      event = JSON.parse(request.body.toString('utf8') || '{}');
    } catch {
      throw new AwsError('InvalidRequestContentException', 'Could not parse request body into json: Could not parse payload into json', 400);
    }
    cloud.functions.record(name);
    cloud.functions.invokeAsync(name, event, undefined);
    return jsonResponse({ Status: 202 }, 202);
  }
  const match = /^\/2015-03-31\/functions\/?([^/]*)(?:\/(invocations|configuration|code|versions))?\/?$/.exec(request.path);
  if (!match) return undefined;
  const name = decodeURIComponent(match[1]);
  const action = match[2];
  const qualifier = request.search.get('Qualifier') ?? undefined;
  if (!name && request.method === 'POST') return jsonResponse(configuration(cloud, createFunction(cloud, request)), 201);
  if (name && !action && request.method === 'DELETE') {
    await deleteFunction(cloud, name);
    return { status: 204 };
  }
  if (action === 'versions' && request.method === 'GET') {
    const record = cloud.functions.record(name);
    return jsonResponse({ Versions: [configuration(cloud, record), ...publishedVersions(record).map(version => configuration(cloud, record, version))] });
  }
  if (!name && request.method === 'GET') {
    const functions = cloud.resources('AWS::Lambda::Function').map(({ record }) => configuration(cloud, record));
    return jsonResponse({ Functions: functions });
  }
  if (action === 'invocations' && request.method === 'POST') {
    const type = header(request, 'x-amz-invocation-type') ?? 'RequestResponse';
    const limit = type === 'Event' ? MAX_REQUEST_BYTES.Event : MAX_REQUEST_BYTES.RequestResponse;
    if (request.body.length > limit) {
      throw new AwsError('RequestEntityTooLargeException', `Request must be smaller than ${limit} bytes for the ${type === 'Event' ? 'InvokeFunctionAsync' : 'InvokeFunction'} operation`, 413);
    }
    const text = request.body.toString('utf8') || '{}';
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      throw new AwsError('InvalidRequestContentException', 'Could not parse request body into json: Could not parse payload into json', 400);
    }
    cloud.functions.record(name);
    const version = cloud.functions.version(name, qualifier);
    if (type === 'DryRun') return { status: 204 };
    if (type === 'Event') {
      cloud.functions.invokeAsync(name, event, qualifier);
      return { status: 202 };
    }
    const outcome = await cloud.functions.invoke(name, event, qualifier, clientContextOf(request));
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-amz-executed-version': version ? version.Version : '$LATEST' };
    // As Lambda answers: the response's request id is the invocation's, the function's context.awsRequestId.
    if (outcome.requestId) headers['x-amzn-requestid'] = outcome.requestId;
    if (outcome.functionError) headers['x-amz-function-error'] = outcome.functionError;
    if (header(request, 'x-amz-log-type') === 'Tail') {
      const tail = Buffer.from(outcome.logs.join('\n') + '\n');
      headers['x-amz-log-result'] = tail.subarray(Math.max(0, tail.length - 4096)).toString('base64');
    }
    return { status: 200, headers, body: outcome.payload };
  }
  if (request.method === 'GET' && name) {
    const record = cloud.functions.record(name);
    const version = cloud.functions.version(name, qualifier);
    if (action === 'configuration') return jsonResponse(configuration(cloud, record, version));
    const reserved = reservedConcurrency(record);
    return jsonResponse({
      Configuration: configuration(cloud, record, version),
      Code: { RepositoryType: 'S3', Location: codeLocation(cloud, version ? version.Code : record.properties.Code, version) },
      Tags: functionTags(cloud, record),
      ...(reserved !== undefined ? { Concurrency: { ReservedConcurrentExecutions: reserved } } : {}),
    });
  }
  if (request.method === 'PUT' && name && (action === 'code' || action === 'configuration')) {
    return updateFunction(cloud, name, action, request);
  }
  return undefined;
}

/** A function's tags: its stack's or CreateFunction's, under TagResource's and UntagResource's. */
function functionTags(cloud: LocalServices, record: ResourceRecord): TagMap {
  const deployed = cloud.resources('AWS::Lambda::Function').find((resource) => resource.record === record);
  return cloud.tags.of(String(record.attributes.Arn), deployed ? declaredTags(deployed) : {});
}

/** TagResource, UntagResource and ListTags (`/2017-03-31/tags/<function ARN>`), as the Lambda API reference describes them. */
function lambdaTags(cloud: LocalServices, arn: string, request: LocalRequest): LocalResponse | undefined {
  const record = cloud.functions.record(arn);
  const functionArn = String(record.attributes.Arn);
  if (request.method === 'GET') return jsonResponse({ Tags: functionTags(cloud, record) });
  if (request.method === 'POST') {
    let body: { Tags?: unknown };
    try {
      body = JSON.parse(request.body.toString('utf8') || '{}') as { Tags?: unknown };
    } catch {
      throw new AwsError('InvalidRequestContentException', 'Could not parse request body into json', 400);
    }
    cloud.tags.tag(functionArn, tagMap(body.Tags));
    return { status: 204 };
  }
  if (request.method === 'DELETE') {
    cloud.tags.untag(functionArn, request.search.getAll('tagKeys'));
    return { status: 204 };
  }
  return undefined;
}

const UPDATABLE_CONFIGURATION = ['Handler', 'Runtime', 'MemorySize', 'Timeout', 'Description', 'Environment', 'Role', 'Layers'];

/**
 * UpdateFunctionCode (from the local S3) and UpdateFunctionConfiguration, for `fw deploy function`:
 * the function changes outside its stack, as on AWS; warm workers of the old revision retire.
 */
function updateFunction(cloud: LocalServices, name: string, action: 'code' | 'configuration', request: LocalRequest): LocalResponse {
  const record = cloud.functions.record(name);
  const body = lambdaRequestBody(request);
  if (action === 'code' && typeof body.ZipFile === 'string') {
    updateApiFunctionCode(cloud, record, body);
  } else if (action === 'code') {
    if (typeof body.S3Bucket !== 'string' || typeof body.S3Key !== 'string') {
      throw new AwsError('InvalidParameterValueException', 'Give the code with ZipFile, or with S3Bucket and S3Key of an object in the local S3', 400);
    }
    const code = { S3Bucket: body.S3Bucket, S3Key: body.S3Key };
    const runtime = String(record.properties.Runtime ?? 'nodejs20.x');
    const materialized = materializeCode(cloud.dataDir, cloud.s3, code, runtime);
    record.attributes.CodeSha256 = materialized.sha256;
    record.attributes[CODE_SIZE] = materialized.size;
    record.properties.Code = code;
  } else {
    for (const key of UPDATABLE_CONFIGURATION) if (body[key] !== undefined) record.properties[key] = body[key];
  }
  record.timestamp = new Date().toISOString();
  if (cloud.apiResources.find(record.type, record.physicalId)) cloud.apiResources.changed(record);
  else cloud.stacks.saveSoon();
  return jsonResponse(configuration(cloud, record));
}

