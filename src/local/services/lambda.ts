import { AwsError } from '../aws/errors';
import type { LocalCloud } from '../cloud';
import type { ResourceRecord } from '../cloudformation/model';
import { header, jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { materializeCode } from '../runtime/code';

/** `2026-11-21T17:40:33.000+0000`, Lambda's LastModified format. */
function lambdaTime(iso: string): string {
  return iso.replace('Z', '+0000');
}

function configuration(record: ResourceRecord): Record<string, unknown> {
  const properties = record.properties;
  const environment = (properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
  return {
    FunctionName: record.physicalId,
    FunctionArn: record.attributes.Arn,
    Runtime: properties.Runtime,
    Role: properties.Role,
    Handler: properties.Handler,
    Description: properties.Description ?? '',
    Timeout: Number(properties.Timeout ?? 3),
    MemorySize: Number(properties.MemorySize ?? 128),
    LastModified: lambdaTime(record.timestamp),
    CodeSha256: record.attributes.CodeSha256,
    Version: '$LATEST',
    Environment: environment ? { Variables: Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, String(v)])) } : undefined,
    State: 'Active',
    LastUpdateStatus: 'Successful',
    PackageType: properties.PackageType ?? 'Zip',
    ImageConfigResponse: properties.ImageConfig ? { ImageConfig: properties.ImageConfig } : undefined,
    Architectures: (properties.Architectures as string[] | undefined) ?? ['x86_64'],
  };
}

/** The Lambda REST API: Invoke, GetFunction, GetFunctionConfiguration, ListFunctions. */
export async function lambdaApi(cloud: LocalCloud, request: LocalRequest): Promise<LocalResponse | undefined> {
  const match = /^\/2015-03-31\/functions\/?([^/]*)(?:\/(invocations|configuration|code))?\/?$/.exec(request.path);
  if (!match) return undefined;
  const name = decodeURIComponent(match[1]);
  const action = match[2];
  if (!name && request.method === 'GET') {
    const functions = cloud.resources('AWS::Lambda::Function').map(({ record }) => configuration(record));
    return jsonResponse({ Functions: functions });
  }
  if (action === 'invocations' && request.method === 'POST') {
    const type = header(request, 'x-amz-invocation-type') ?? 'RequestResponse';
    const text = request.body.toString('utf8') || '{}';
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      throw new AwsError('InvalidRequestContentException', 'Could not parse request body into json: Could not parse payload into json', 400);
    }
    cloud.functions.record(name);
    if (type === 'DryRun') return { status: 204 };
    if (type === 'Event') {
      cloud.functions.invokeAsync(name, event);
      return { status: 202 };
    }
    const outcome = await cloud.functions.invoke(name, event);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-amz-executed-version': '$LATEST' };
    if (outcome.functionError) headers['x-amz-function-error'] = outcome.functionError;
    if (header(request, 'x-amz-log-type') === 'Tail') {
      const tail = Buffer.from(outcome.logs.join('\n') + '\n');
      headers['x-amz-log-result'] = tail.subarray(Math.max(0, tail.length - 4096)).toString('base64');
    }
    return { status: 200, headers, body: outcome.payload };
  }
  if (request.method === 'GET' && name) {
    const record = cloud.functions.record(name);
    if (action === 'configuration') return jsonResponse(configuration(record));
    const code = record.properties.Code as Record<string, unknown> | undefined;
    return jsonResponse({
      Configuration: configuration(record),
      Code: { RepositoryType: 'S3', Location: code?.S3Bucket ? `${cloud.baseUrl}/${String(code.S3Bucket)}/${String(code.S3Key)}` : undefined },
      Tags: {},
    });
  }
  if (request.method === 'PUT' && name && (action === 'code' || action === 'configuration')) {
    return updateFunction(cloud, name, action, request);
  }
  return undefined;
}

const UPDATABLE_CONFIGURATION = ['Handler', 'Runtime', 'MemorySize', 'Timeout', 'Description', 'Environment', 'Role', 'Layers'];

/**
 * UpdateFunctionCode (from the local S3) and UpdateFunctionConfiguration, for `fw deploy function`:
 * the function changes outside its stack, as on AWS; warm workers of the old revision retire.
 */
function updateFunction(cloud: LocalCloud, name: string, action: 'code' | 'configuration', request: LocalRequest): LocalResponse {
  const record = cloud.functions.record(name);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    throw new AwsError('InvalidRequestContentException', 'Could not parse request body into json', 400);
  }
  if (action === 'code') {
    if (typeof body.S3Bucket !== 'string' || typeof body.S3Key !== 'string') {
      throw new AwsError('InvalidParameterValueException', 'The local cloud updates function code from S3: give S3Bucket and S3Key', 400);
    }
    const code = { S3Bucket: body.S3Bucket, S3Key: body.S3Key };
    const runtime = String(record.properties.Runtime ?? 'nodejs20.x');
    record.attributes.CodeSha256 = materializeCode(cloud.dataDir, cloud.s3, code, runtime).sha256;
    record.properties.Code = code;
  } else {
    for (const key of UPDATABLE_CONFIGURATION) if (body[key] !== undefined) record.properties[key] = body[key];
  }
  record.timestamp = new Date().toISOString();
  cloud.stacks.save();
  return jsonResponse(configuration(record));
}
