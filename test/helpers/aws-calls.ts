import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A recording endpoint for AWS calls: an HTTP server in front of the local cloud that names each
 * request as AWS documents it (service, operation) with the parameters that carry user settings, and
 * passes it on. Serverless v3 (AWS SDK v2) and fw (AWS SDK v3) both talk to it, so the two records
 * come from the same parser and compare directly (test/deploy/aws-calls.test.ts,
 * scripts/aws-call-goldens.js).
 */

/** One AWS call: `cloudformation CreateChangeSet { StackName: 'rec-dev', 'Tags.member.1.Key': 'STAGE', … }`. */
export interface AwsCall {
  service: string;
  operation: string;
  params: Record<string, unknown>;
}

export interface Recorder {
  url: string;
  calls: AwsCall[];
  /** The access key ids the calls were signed with, in first-use order (which credentials a CLI picked). */
  accessKeyIds: string[];
  close(): Promise<void>;
}

export async function startRecorder(upstream: string): Promise<Recorder> {
  const target = new URL(upstream);
  const calls: AwsCall[] = [];
  const accessKeyIds: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', chunk => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const call = describeCall(req.method ?? 'GET', req.url ?? '/', req.headers, body);
      if (call) {
        calls.push(call);
        const accessKeyId = signingKey(req.headers, new URL(req.url ?? '/', 'http://recorder'));
        if (accessKeyId && !accessKeyIds.includes(accessKeyId)) accessKeyIds.push(accessKeyId);
      }
      const forwarded = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, response => {
        res.writeHead(response.statusCode ?? 500, response.headers);
        response.pipe(res);
      });
      forwarded.on('error', error => res.destroy(error));
      forwarded.end(body);
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    accessKeyIds,
    close: () => new Promise(resolve => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** The service a request is signed for (SigV4 credential scope `KEY/date/region/service/aws4_request`). */
function signedService(headers: IncomingHttpHeaders, url: URL): string | undefined {
  const scope = /Credential=[^/]+\/[^/]+\/[^/]+\/([^/]+)\//.exec(String(headers.authorization ?? ''))?.[1];
  return scope ?? /X-Amz-Credential=[^/]+\/[^/]+\/[^/]+\/([^/]+)\//.exec(decodeURIComponent(url.search))?.[1];
}

/** The access key id a request is signed with. */
function signingKey(headers: IncomingHttpHeaders, url: URL): string | undefined {
  return /Credential=([^/]+)\//.exec(String(headers.authorization ?? ''))?.[1] ?? /X-Amz-Credential=([^/]+)\//.exec(decodeURIComponent(url.search))?.[1];
}

/** Values that change from run to run (bucket suffixes, deployment folders, stack ids) written as placeholders. */
export function normalizeValue(text: string): string {
  return text
    .replace(/arn:aws:cloudformation:[^:]+:\d+:stack\/([^/]+)\/[0-9a-f-]+/g, '$1')
    .replace(/serverlessdeploymentbucket-[a-z0-9]+/g, 'serverlessdeploymentbucket-<id>')
    .replace(/\/\d{13}-\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\//g, '/<deployment>/')
    .replace(/\/\d{13}-\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d\.\d{3}Z\//g, '/<deployment>/');
}

/** Query-protocol parameters that carry no user setting (or carry the template, which the template goldens cover). */
const UNCOMPARED_QUERY = new Set(['Action', 'Version', 'NextToken', 'ClientToken', 'ClientRequestToken', 'ChangeSetName', 'Description']);

/** S3 request headers that carry user settings (encryption, metadata). */
const SETTING_HEADERS = /^x-amz-(server-side-encryption.*|meta-.*|acl|storage-class|tagging|copy-source)$/;

export function describeCall(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): AwsCall | undefined {
  const url = new URL(path, 'http://recorder');
  const service = signedService(headers, url);
  // fw's own local-cloud endpoints (`/_fw/…`) are no AWS call.
  if (!service || url.pathname.startsWith('/_fw/')) return undefined;
  const contentType = String(headers['content-type'] ?? '');
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(body.toString());
    const operation = form.get('Action');
    if (operation) return { service, operation, params: queryParams(form) };
  }
  const amzTarget = headers['x-amz-target'];
  if (typeof amzTarget === 'string') {
    const operation = amzTarget.split('.').pop()!;
    // CloudWatch: SDK v2 speaks the query protocol, SDK v3 JSON; written as the query's flat parameters.
    return { service, operation, params: service === 'monitoring' ? asQueryParams(JSON.parse(body.toString() || '{}')) : jsonParams(body) };
  }
  if (service === 's3') return s3Call(method, url, headers, body);
  if (service === 'lambda') return lambdaCall(method, url, headers, body);
  if (service === 'apigateway') return { service, operation: apiGatewayOperation(method, url.pathname), params: apiGatewayParams(url, body) };
  return { service, operation: `${method} ${url.pathname}`, params: {} };
}

/** A JSON request as the query protocol flattens it (`Dimensions.member.1.Name`), timestamps as ISO strings. */
function asQueryParams(value: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (Array.isArray(value)) value.forEach((item, index) => asQueryParams(item, `${prefix}.member.${index + 1}`, out));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) asQueryParams(item, prefix ? `${prefix}.${key}` : key, out);
  else if (/(^|\.)(StartTime|EndTime)$/.test(prefix) && typeof value === 'number') out[prefix] = new Date(value * 1000).toISOString().replace('.000Z', 'Z');
  else out[prefix] = String(value);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** Lambda's REST calls: the function (path), the qualifier (query), Invoke's type, log type and payload (headers and body). */
function lambdaCall(method: string, url: URL, headers: IncomingHttpHeaders, body: Buffer): AwsCall {
  const operation = lambdaOperation(method, url.pathname);
  const functionName = /^\/[\d-]+\/functions\/([^/]+)/.exec(url.pathname)?.[1];
  const params: Record<string, unknown> = functionName ? { FunctionName: decodeURIComponent(functionName) } : {};
  const qualifier = url.searchParams.get('Qualifier');
  if (qualifier !== null) params.Qualifier = qualifier;
  if (operation !== 'Invoke') return { service: 'lambda', operation, params: { ...params, ...jsonParams(body) } };
  for (const [header, name] of [['x-amz-invocation-type', 'InvocationType'], ['x-amz-log-type', 'LogType'], ['x-amz-client-context', 'ClientContext']] as const) {
    if (headers[header] !== undefined) params[name] = String(headers[header]);
  }
  if (body.length > 0) params.Payload = body.toString();
  return { service: 'lambda', operation, params };
}

function queryParams(form: URLSearchParams): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [key, value] of [...form].sort(([a], [b]) => a.localeCompare(b))) {
    if (UNCOMPARED_QUERY.has(key)) continue;
    params[key] = key === 'TemplateBody' || key === 'TemplateURL' ? '<template>' : normalizeValue(value);
  }
  return params;
}

function jsonParams(body: Buffer): Record<string, unknown> {
  if (body.length === 0) return {};
  try {
    const parsed = JSON.parse(body.toString()) as Record<string, unknown>;
    // Code bytes (UpdateFunctionCode's ZipFile) are the package's, not a setting.
    if (typeof parsed.ZipFile === 'string') parsed.ZipFile = '<zip>';
    return JSON.parse(normalizeValue(JSON.stringify(parsed))) as Record<string, unknown>;
  } catch {
    return { body: '<binary>' };
  }
}

function s3Call(method: string, url: URL, headers: IncomingHttpHeaders, body: Buffer): AwsCall {
  const [bucket = '', ...keyParts] = url.pathname.slice(1).split('/');
  const key = decodeURIComponent(keyParts.join('/'));
  const sub = [...url.searchParams.keys()].find(name => SUBRESOURCES.has(name));
  const params: Record<string, unknown> = { Bucket: normalizeValue(bucket) };
  if (key) params.Key = normalizeValue(`/${key}`).slice(1);
  for (const [name, value] of Object.entries(headers)) if (SETTING_HEADERS.test(name)) params[name] = normalizeValue(String(value));
  // A sha256 of the package differs between two packagers: that it is sent is the setting.
  if (params['x-amz-meta-filesha256'] !== undefined) params['x-amz-meta-filesha256'] = '<sha256>';
  let operation: string;
  if (method === 'HEAD') operation = key ? 'HeadObject' : 'HeadBucket';
  else if (method === 'GET' && key) operation = 'GetObject';
  else if (method === 'GET') operation = sub ? `GetBucket${SUBRESOURCES.get(sub)}` : url.searchParams.get('list-type') === '2' ? 'ListObjectsV2' : 'ListObjects';
  else if (method === 'PUT' && key) operation = headers['x-amz-copy-source'] ? 'CopyObject' : 'PutObject';
  else if (method === 'PUT') operation = sub ? `PutBucket${SUBRESOURCES.get(sub)}` : 'CreateBucket';
  else if (method === 'POST' && url.searchParams.has('delete')) operation = 'DeleteObjects';
  else if (method === 'DELETE') operation = key ? 'DeleteObject' : sub ? `DeleteBucket${SUBRESOURCES.get(sub)}` : 'DeleteBucket';
  else operation = `${method} ${sub ?? ''}`;
  if (operation === 'ListObjectsV2' || operation === 'ListObjects' || operation === 'GetBucketVersions') {
    const prefix = url.searchParams.get('prefix');
    if (prefix !== null) params.Prefix = normalizeValue(prefix);
  }
  // Bucket configuration (tags, versioning, accelerate, public access block) is the XML body.
  if (/^PutBucket/.test(operation) && body.length > 0) params.body = xmlText(body.toString());
  return { service: 's3', operation, params };
}

const SUBRESOURCES = new Map([
  ['location', 'Location'],
  ['versions', 'Versions'],
  ['versioning', 'Versioning'],
  ['tagging', 'Tagging'],
  ['accelerate', 'AccelerateConfiguration'],
  ['encryption', 'Encryption'],
  ['publicAccessBlock', 'PublicAccessBlock'],
  ['policy', 'Policy'],
  ['notification', 'NotificationConfiguration'],
  ['acl', 'Acl'],
]);

/** An XML body with the declaration, namespaces and layout whitespace taken out (the two SDKs lay it out differently). */
function xmlText(xml: string): string {
  return xml
    .replace(/<\?xml[^>]*\?>/, '')
    .replace(/\s+xmlns(:\w+)?="[^"]*"/g, '')
    .replace(/>\s+</g, '><')
    .trim();
}

function lambdaOperation(method: string, path: string): string {
  const routes: Array<[string, RegExp, string]> = [
    ['GET', /^\/[\d-]+\/functions\/?$/, 'ListFunctions'],
    ['GET', /^\/[\d-]+\/functions\/[^/]+$/, 'GetFunction'],
    ['GET', /^\/[\d-]+\/functions\/[^/]+\/configuration$/, 'GetFunctionConfiguration'],
    ['PUT', /^\/[\d-]+\/functions\/[^/]+\/code$/, 'UpdateFunctionCode'],
    ['PUT', /^\/[\d-]+\/functions\/[^/]+\/configuration$/, 'UpdateFunctionConfiguration'],
    ['POST', /^\/[\d-]+\/functions\/[^/]+\/invocations$/, 'Invoke'],
    ['POST', /^\/[\d-]+\/functions\/[^/]+\/versions$/, 'PublishVersion'],
    ['GET', /^\/[\d-]+\/functions\/[^/]+\/versions$/, 'ListVersionsByFunction'],
    ['GET', /^\/[\d-]+\/functions\/[^/]+\/aliases$/, 'ListAliases'],
    ['GET', /^\/[\d-]+\/layers\/[^/]+\/versions$/, 'ListLayerVersions'],
  ];
  return routes.find(([m, pattern]) => m === method && pattern.test(path))?.[2] ?? `${method} ${path}`;
}

function apiGatewayOperation(method: string, path: string): string {
  const routes: Array<[string, RegExp, string]> = [
    ['GET', /^\/restapis\/?$/, 'GetRestApis'],
    ['GET', /^\/restapis\/[^/]+$/, 'GetRestApi'],
    ['GET', /^\/restapis\/[^/]+\/stages\/?$/, 'GetStages'],
    ['GET', /^\/restapis\/[^/]+\/stages\/[^/]+$/, 'GetStage'],
    ['PATCH', /^\/restapis\/[^/]+\/stages\/[^/]+$/, 'UpdateStage'],
    ['GET', /^\/restapis\/[^/]+\/deployments\/?$/, 'GetDeployments'],
    ['GET', /^\/restapis\/[^/]+\/resources\/?$/, 'GetResources'],
    ['GET', /^\/tags\/.+$/, 'GetTags'],
    ['PUT', /^\/tags\/.+$/, 'TagResource'],
    ['DELETE', /^\/tags\/.+$/, 'UntagResource'],
    ['GET', /^\/apikeys\/?$/, 'GetApiKeys'],
    ['GET', /^\/apikeys\/[^/]+$/, 'GetApiKey'],
    ['GET', /^\/account$/, 'GetAccount'],
    ['PATCH', /^\/account$/, 'UpdateAccount'],
    ['GET', /^\/usageplans\/?$/, 'GetUsagePlans'],
  ];
  return routes.find(([m, pattern]) => m === method && pattern.test(path))?.[2] ?? `${method} ${path}`;
}

/** API Gateway's parameters: the JSON body, the tag keys an untag names, and which stage or ARN (API ids are generated, so written as `<id>`). */
function apiGatewayParams(url: URL, body: Buffer): Record<string, unknown> {
  const params = jsonParams(body);
  const stage = /^\/restapis\/[^/]+\/stages\/([^/]+)$/.exec(url.pathname)?.[1];
  if (stage) params.stageName = decodeURIComponent(stage);
  const tagged = /^\/tags\/(.+)$/.exec(url.pathname)?.[1];
  if (tagged) params.resourceArn = decodeURIComponent(tagged).replace(/\/restapis\/[^/]+\//, '/restapis/<id>/');
  const tagKeys = url.searchParams.getAll('tagKeys');
  if (tagKeys.length > 0) params.tagKeys = tagKeys.flatMap(keys => keys.split(',')).sort();
  // Query options that carry a choice (`includeValue` on GetApiKey); paging is each client's own.
  for (const [name, value] of url.searchParams) if (name !== 'tagKeys' && name !== 'limit' && name !== 'position') params[name] = value;
  return params;
}
