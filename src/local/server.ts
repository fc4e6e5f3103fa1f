import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AccessGuard, isGatewayRequest } from './access/guard';
import { hostnameOf } from './access/hosts';
import { AwsError } from './protocol/errors';
import { QUERY_NAMESPACES, QueryParams } from './protocol/query';
import { jsonInput } from './protocol/json-input';
import { asAwsError, jsonError, queryError, queryResult, s3Error } from './protocol/respond';
import { CloudFormationApi } from './cloudformation/api';
import type { LocalCloud } from './cloud';
import { acceptHttp2Cleartext } from './http2-cleartext';
import { header, readBody, type LocalRequest, type LocalResponse } from './http';
import { S3Api } from './s3/api';
import { GatewayRouter } from './gateway/router';
import { httpApisApi } from './gateway/http-apis';
import { apiGatewayApi } from './gateway/service';
import { RestStages } from './gateway/rest-stages';
import { refuseUpgrade } from './websocket/websocket-apis';
import { StorageFailure } from './state/storage-failure';
import { dynamoDbApi, dynamoDbStreamsApi } from './dynamodb/service';
import { ecrApi } from './ecr/service';
import { schedulerApi } from './eventbridge/scheduler-api';
import { eventBridgeApi } from './eventbridge/service';
import { kinesisApi, refuseCbor } from './kinesis/service';
import { SqsApi } from './sqs/service';
import { cloudWatchApi, cloudWatchQuery } from './cloudwatch/service';
import { lambdaApi, versionCodeResponse } from './lambda/service';
import { VERSION_CODE_PATH } from './runtime/code';
import { logsApi } from './logs/service';
import { publish, snsAction } from './sns/service';
import { ssmApi } from './ssm/service';
import { secretsManagerApi } from './secretsmanager/service';
import { CognitoApi, poolWellKnown } from './cognito/service';
import { POOL_WELL_KNOWN_PATH } from './cognito/public-endpoints';
import { stsAction } from './sts/service';
import { sesAction } from './ses/service';
import { SES_V2_PREFIX, sesV2Api } from './ses/v2';
import { kmsApi } from './kms/service';
import { stepFunctionsApi } from './stepfunctions/service';
import type { StackRole } from './iam/roles';

type Service = 'unserved' | 'cloudformation' | 'sts' | 'iam' | 'sns' | 'ses' | 'kms' | 'sqs' | 'lambda' | 'logs' | 'ssm' | 'secretsmanager' | 'states' | 'cognito-idp' | 'dynamodb' | 'dynamodbstreams' | 'ecr' | 'events' | 'apigateway' | 'kinesis' | 'monitoring' | 'scheduler' | 'gateway' | 's3';

const QUERY_VERSIONS: Record<string, Service> = { '2010-05-15': 'cloudformation', '2011-06-15': 'sts', '2010-05-08': 'iam', '2010-03-31': 'sns', '2012-11-05': 'sqs', '2010-08-01': 'monitoring', '2010-12-01': 'ses' };

const TARGET_PREFIXES: Record<string, Service> = { TrentService: 'kms', Logs_20140328: 'logs', AmazonSSM: 'ssm', secretsmanager: 'secretsmanager', AWSStepFunctions: 'states', DynamoDB_20120810: 'dynamodb', DynamoDBStreams_20120810: 'dynamodbstreams', AmazonSQS: 'sqs', AWSEvents: 'events', Kinesis_20131202: 'kinesis', GraniteServiceVersion20100801: 'monitoring', AmazonEC2ContainerRegistry_V20150921: 'ecr', AWSCognitoIdentityProviderService: 'cognito-idp' };

/** How "not emulated" answers name a service, by its local name, credential scope or JSON target prefix. */
const SERVICE_NAMES: Record<string, string> = {
  apigateway: 'API Gateway',
  lambda: 'Lambda',
  kms: 'KMS',
  TrentService: 'KMS',
  'cognito-idp': 'Cognito user pools',
  AWSCognitoIdentityProviderService: 'Cognito user pools',
  'cognito-identity': 'Cognito identity pools',
  AWSCognitoIdentityService: 'Cognito identity pools',
  ses: 'SES',
  email: 'SES',
  firehose: 'Firehose',
  route53: 'Route 53',
  scheduler: 'EventBridge Scheduler',
  cloudfront: 'CloudFront',
  Firehose_20150804: 'Firehose',
  monitoring: 'CloudWatch',
  appsync: 'AppSync',
  rds: 'RDS',
  'execute-api': 'API Gateway',
};

/** Credential-scope service names that are also the local service's name. */
/** How long an idle keep-alive connection stays open (see the constructor). */
const KEEP_ALIVE_MS = 65_000;

const SIGNED_SERVICES = new Set<string>(['cloudformation', 'sts', 'iam', 'sns', 'ses', 'kms', 'sqs', 'logs', 'ssm', 'secretsmanager', 'states', 'cognito-idp', 'lambda', 'dynamodb', 'events', 'apigateway', 'kinesis', 'ecr', 's3', 'monitoring', 'scheduler']);

/**
 * Which AWS service a request is for, the way the SDK and the AWS CLI address
 * them all at one endpoint: gateway paths first, then the credential scope of
 * the signature, then the JSON target or the query Action, and S3 for the rest.
 */
export function serviceOf(request: LocalRequest): Service {
  if (request.path.startsWith('/_fw/') || isGatewayRequest(request.path, request.hostname)) return 'gateway';
  // A local user pool's issuer documents (no bucket name has an upper-case letter or `_`).
  if ((request.method === 'GET' || request.method === 'HEAD') && POOL_WELL_KNOWN_PATH.test(request.path)) return 'cognito-idp';
  const target = header(request, 'x-amz-target');
  if (target) {
    const service = TARGET_PREFIXES[target.split('.')[0]];
    if (service) return service;
  }
  const scope = signedScope(request);
  if (scope && SIGNED_SERVICES.has(scope)) return scope as Service;
  // SES's endpoint prefix, which a signer deriving the scope from the host uses.
  if (scope === 'email') return 'ses';
  // Another AWS service (Firehose, Athena, RDS…): said to be not emulated, never answered as S3.
  if (target || (scope && scope !== 'execute-api')) return 'unserved';
  const contentType = header(request, 'content-type') ?? '';
  if (request.method === 'POST' && contentType.startsWith('application/x-www-form-urlencoded') && request.path === '/') {
    const form = new URLSearchParams(request.body.toString('utf8'));
    const version = form.get('Version') ?? request.search.get('Version') ?? '';
    if (QUERY_VERSIONS[version]) return QUERY_VERSIONS[version];
    if (form.has('Action')) return 'unserved';
  }
  if (/^\/(2014-11-13|2015-03-31|2017-10-31|2019-09-30|2021-10-31)\/functions|^\/2015-03-31\/event-source-mappings|^\/2016-08-19\/account-settings/.test(request.path)) return 'lambda';
  return 's3';
}

/** The service a SigV4 Authorization header is scoped to. */
function signedScope(request: LocalRequest): string | undefined {
  return /Credential=[^/]*\/[^/]*\/[^/]*\/([^/]+)\/aws4_request/.exec(header(request, 'authorization') ?? '')?.[1];
}

/** Services other than S3 whose API is REST with XML bodies. */
const REST_XML_SCOPES = new Set(['route53', 'cloudfront']);

/** "not emulated: <Service> <Operation>" in the protocol the request speaks, for a service the local cloud does not serve. */
function unservedResponse(request: LocalRequest): LocalResponse {
  const target = header(request, 'x-amz-target');
  const scope = signedScope(request);
  if (target) {
    const [prefix, operation = ''] = target.split('.');
    const name = SERVICE_NAMES[scope ?? ''] ?? SERVICE_NAMES[prefix] ?? scope ?? prefix;
    const contentType = header(request, 'content-type') ?? '';
    return jsonError(new AwsError('UnknownOperationException', `not emulated: ${name} ${operation}`), contentType.startsWith('application/x-amz-json') ? contentType : 'application/x-amz-json-1.1');
  }
  const action = new URLSearchParams(request.body.toString('utf8')).get('Action') ?? request.search.get('Action');
  const name = SERVICE_NAMES[scope ?? ''] ?? scope ?? 'this service';
  if (action) return queryError(new AwsError('InvalidAction', `not emulated: ${name} ${action}`), `https://${scope ?? 'aws'}.amazonaws.com/doc/`);
  // REST-XML services: an XML error their clients parse (a JSON one reached them as a bare "400 Bad Request").
  if (REST_XML_SCOPES.has(scope ?? '')) return queryError(new AwsError('InvalidAction', `not emulated: ${name} ${request.method} ${request.path}`), `https://${scope}.amazonaws.com/doc/`);
  return jsonError(new AwsError('UnknownOperationException', `not emulated: ${name} ${request.method} ${request.path}`), 'application/json');
}

function regionOf(headers: IncomingMessage['headers']): string {
  const authorization = String(headers.authorization ?? '');
  return /Credential=[^/]*\/[^/]*\/([^/]+)\//.exec(authorization)?.[1] ?? 'us-east-1';
}

function localRequestOf(req: IncomingMessage, url: URL, body: Buffer): LocalRequest {
  return {
    method: req.method ?? 'GET',
    // The path as sent, not url.pathname: URL parsing resolves dot segments (even %2E%2E), which would
    // store the S3 key `../x.txt` of one bucket as `x.txt` in a bucket named after the key.
    path: req.url?.startsWith('/') ? req.url.split('?')[0] : url.pathname,
    search: url.searchParams,
    headers: req.headers,
    body,
    hostname: hostnameOf(String(req.headers.host ?? '')),
    region: regionOf(req.headers),
    rawUrl: req.url ?? '/',
    rawHeaders: req.rawHeaders,
    sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, ''),
  };
}

/** The whole body, read with plain events (an async iterator over the request costs more per request). */
export class LocalServer {
  private readonly cloudFormation: CloudFormationApi;
  private readonly s3: S3Api;
  private readonly gateway: GatewayRouter;
  private readonly sqs: SqsApi;
  private readonly restStages: RestStages;
  private readonly cognito: CognitoApi;
  readonly http: Server;

  constructor(
    private readonly cloud: LocalCloud,
    private readonly access: AccessGuard,
  ) {
    this.cloudFormation = new CloudFormationApi(cloud);
    this.s3 = new S3Api(cloud.s3, (fields) => access.verifyPostPolicy(fields));
    this.gateway = new GatewayRouter(cloud);
    this.sqs = new SqsApi(cloud);
    this.cognito = new CognitoApi(cloud);
    this.restStages = new RestStages(cloud.dataDir, type => cloud.resources(type).map(({ record }) => record));
    cloud.stepFunctions.callApi = (target, input, region) => this.callJsonApi(target, input, region);
    cloud.sendToDestination = (arn, message, attributes, event) => {
      const service = arn.split(':')[2];
      if (service === 'sns') void publish(cloud, arn, { message });
      else if (service === 'lambda') cloud.functions.invokeAsync(arn, JSON.parse(message));
      else if (service === 'events') {
        const entry = { EventBusName: arn, Source: event?.source ?? 'fw.local', DetailType: event?.detailType ?? 'Message', Resources: event?.resources ?? [], Detail: message };
        eventBridgeApi(cloud, 'PutEvents', { Entries: [entry] }, arn.split(':')[3] || 'us-east-1');
      } else this.sqs.sendTo(arn, message, attributes);
    };
    this.http = createServer((req, res) => void this.serve(req, res));
    acceptHttp2Cleartext(this.http, (req, res) => void this.serve(req, res));
    this.http.on('close', () => this.sqs.stop());
    this.http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.upgrade(req, socket, head));
    // AWS's endpoints keep an idle connection for about a minute. SDK clients (Node.js agents with
    // keep-alive, no idle limit of their own) reuse a pooled connection whenever they next call: at
    // Node.js's default of 5 s, a call made just as the server closed its connection failed with
    // "socket hang up" (a client with retries off, as some tests and scripts have, saw it).
    this.http.keepAliveTimeout = KEEP_ALIVE_MS;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // Refused on the headers alone: nothing of the body is read or acted on.
    const refused = this.access.admit(req, url);
    if (refused) {
      // An allowed page may read why (a missing signature, say); nobody else gets CORS headers.
      this.write(req, res, refused, { ...this.access.corsHeaders(req), connection: 'close' });
      return;
    }
    const body = await readBody(req);
    if (!body) {
      res.destroy();
      return;
    }
    const wrongSignature = this.access.verify(req, url, body);
    if (wrongSignature) {
      this.write(req, res, wrongSignature, this.access.corsHeaders(req));
      return;
    }
    if (url.pathname === '/_fw/health') {
      // How `fw deploy --local` recognizes a running `fw local start` server.
      this.write(req, res, { status: 200, headers: { 'content-type': 'application/json', 'x-fw-local': '1' }, body: '{"status":"ok"}' }, this.access.corsHeaders(req));
      return;
    }
    if (url.pathname.startsWith(VERSION_CODE_PATH) && req.method === 'GET') {
      // A version's code, where GetFunction's Code.Location points (on AWS a presigned URL).
      this.write(req, res, versionCodeResponse(this.cloud.dataDir, url.pathname.slice(VERSION_CODE_PATH.length).replace(/\.zip$/, ''), url.searchParams), {});
      return;
    }
    const request = localRequestOf(req, url, body);
    let response: LocalResponse;
    try {
      response = await this.dispatch(request);
    } catch (error) {
      response = { status: 500, body: String(error) };
    }
    const gateway = serviceOf(request) === 'gateway';
    // What a user watching `fw local start` wants to see: their endpoints being called.
    if (gateway) this.cloud.log(`${request.method} ${request.path} → ${response.status}`);
    // Deployed APIs answer with their own CORS configuration; management APIs only to allowed pages.
    this.write(req, res, response, gateway ? {} : this.access.corsHeaders(req));
  }

  /** WebSocket upgrades: admitted like any gateway request (public, allowed hosts only), then the API's $connect decides. */
  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://localhost');
    const refused = this.access.admit(req, url);
    if (refused) return refuseUpgrade(socket, refused);
    const request = localRequestOf(req, url, Buffer.alloc(0));
    try {
      await this.gateway.upgrade(req, socket, head, request);
    } catch (error) {
      this.logBug('gateway', request, error);
      refuseUpgrade(socket, { status: 500, body: '{"message":"Internal Server Error"}' });
    }
  }

  /** Drops every WebSocket connection (a stopping server cannot close while they are open). */
  closeWebSockets(): void {
    this.gateway.websockets.closeAll();
  }

  private write(req: IncomingMessage, res: ServerResponse, response: LocalResponse, extraHeaders: Record<string, string>): void {
    if (res.destroyed) return;
    // A text body is written as text: Node.js then sends the head and the body in one write, where a
    // Buffer body goes out with the head through a corked writev.
    const body = response.body;
    const headers: Record<string, string | string[]> = { 'x-amzn-requestid': randomUUID(), ...response.headers, ...response.multiValueHeaders, ...extraHeaders };
    if (body !== undefined && headers['content-length'] === undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
    if (!body && req.method !== 'HEAD' && headers['content-length'] === undefined) headers['content-length'] = '0';
    // HTTP/2 has no connection-specific headers: closing is the session's business.
    if (req.httpVersionMajor === 2) delete headers.connection;
    res.writeHead(response.status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async dispatch(request: LocalRequest): Promise<LocalResponse> {
    const service = serviceOf(request);
    if (service === 'unserved') return unservedResponse(request);
    if (service === 'cloudformation' || service === 'sts' || service === 'sns' || service === 'iam') return this.query(service, request);
    if (service === 'ses') return request.path.startsWith(SES_V2_PREFIX) ? this.sesV2(request) : this.query(service, request);
    // CloudWatch answers both protocols: JSON (x-amz-target, SDK v3) and the query (SDK v2).
    if (service === 'monitoring' && header(request, 'x-amz-target') === undefined) return this.query(service, request);
    if (service === 's3') {
      try {
        return await this.s3.handle(request);
      } catch (error) {
        this.logBug(service, request, error);
        return s3Error(asAwsError(error), request.method);
      }
    }
    const jsonContentType = service === 'lambda' || service === 'gateway' || service === 'apigateway' || service === 'scheduler' ? 'application/json' : service === 'dynamodb' || service === 'dynamodbstreams' || service === 'sqs' || service === 'monitoring' || service === 'states' ? 'application/x-amz-json-1.0' : undefined;
    try {
      const response = await this.serveJson(service, request);
      if (response) return response;
    } catch (error) {
      this.logBug(service, request, error);
      return jsonError(asAwsError(error), jsonContentType);
    }
    return jsonError(new AwsError('UnknownOperationException', `not emulated: ${SERVICE_NAMES[service] ?? service} ${request.method} ${request.path}`), jsonContentType);
  }

  private async serveJson(service: Service, request: LocalRequest): Promise<LocalResponse | undefined> {
    if (service === 'gateway') return this.gateway.handle(request);
    if (service === 'cognito-idp') {
      const wellKnown = POOL_WELL_KNOWN_PATH.exec(request.path);
      if (wellKnown && (request.method === 'GET' || request.method === 'HEAD')) return poolWellKnown(this.cloud, wellKnown[1], wellKnown[2]);
      const operation = (header(request, 'x-amz-target') ?? '').split('.')[1] ?? '';
      return this.cognito.handle(operation, jsonInput(service, operation, request.body), request.region);
    }
    if (service === 'lambda') return lambdaApi(this.cloud, request);
    if (service === 'scheduler') return schedulerApi(this.cloud, request);
    if (service === 'apigateway') {
      const records = (type: string) => this.cloud.resources(type).map(({ record }) => record);
      return this.restStages.handle(request) ?? httpApisApi(records, request) ?? apiGatewayApi(records, request);
    }
    if (service === 'logs' || service === 'ssm' || service === 'secretsmanager' || service === 'states' || service === 'kms' || service === 'dynamodb' || service === 'dynamodbstreams' || service === 'events' || service === 'sqs' || service === 'kinesis' || service === 'monitoring' || service === 'ecr') {
      if (service === 'kinesis') refuseCbor(request);
      const operation = (header(request, 'x-amz-target') ?? '').split('.')[1] ?? '';
      const input = jsonInput(service, operation, request.body);
      if (service === 'dynamodb') return dynamoDbApi(this.cloud, operation, input, request.region);
      if (service === 'dynamodbstreams') return dynamoDbStreamsApi(this.cloud, this.cloud.dynamoDbStreams, operation, input);
      if (service === 'events') return eventBridgeApi(this.cloud, operation, input, request.region);
      if (service === 'sqs') return this.sqs.handle(operation, input);
      if (service === 'kinesis') return kinesisApi(this.cloud, operation, input, request.region);
      if (service === 'monitoring') return cloudWatchApi(this.cloud, operation, input);
      if (service === 'states') return stepFunctionsApi(this.cloud.stepFunctions, operation, input, request.region);
      if (service === 'secretsmanager') return secretsManagerApi(this.cloud, operation, input, request.region);
      if (service === 'kms') return kmsApi(this.cloud.kms, operation, input, request.region);
      if (service === 'ecr') return ecrApi(this.cloud.ecr, this.cloud.accountId, operation, input, request.region);
      return service === 'logs' ? logsApi(this.cloud, operation, input) : ssmApi(this.cloud, operation, input);
    }
    return undefined;
  }

  /**
   * A JSON-protocol operation of this server's own services, as a function would call it (Step Functions'
   * service integrations): the parsed answer, or the AwsError it answered with.
   */
  private async callJsonApi(target: string, input: Record<string, unknown>, region: string): Promise<Record<string, unknown>> {
    const body = Buffer.from(JSON.stringify(input));
    const request: LocalRequest = { method: 'POST', path: '/', search: new URLSearchParams(), headers: { 'x-amz-target': target, 'content-type': 'application/x-amz-json-1.0' }, body, hostname: '127.0.0.1', region };
    const response = await this.dispatch(request);
    const text = response.body === undefined ? '{}' : Buffer.isBuffer(response.body) ? response.body.toString('utf8') : response.body;
    const answer = JSON.parse(text || '{}') as Record<string, unknown>;
    if (response.status >= 400) throw new AwsError(String(answer.__type ?? 'ServiceException'), String(answer.message ?? answer.Message ?? ''), response.status);
    return answer;
  }

  /** The roles stacks declare, for IAM's reads. */
  private stackRoles(): StackRole[] {
    return this.cloud.resources('AWS::IAM::Role').map(({ stack, record }) => ({ name: record.physicalId, stackName: stack.stackName, attributes: record.attributes, properties: record.properties }));
  }

  private logBug(service: string, request: LocalRequest, error: unknown): void {
    // A full disk is not a bug: one line, no stack trace.
    if (error instanceof StorageFailure) this.cloud.log(`${service} ${request.method} ${request.path}: ${error.message}`);
    if (!(error instanceof AwsError)) this.cloud.log(`${service} ${request.method} ${request.path}: ${(error as Error).stack ?? String(error)}`);
  }

  /** SES v2's REST-JSON API: errors as REST-JSON services write them. */
  private sesV2(request: LocalRequest): LocalResponse {
    try {
      return sesV2Api(this.cloud, request);
    } catch (error) {
      this.logBug('ses', request, error);
      return jsonError(asAwsError(error), 'application/json');
    }
  }

  private query(service: 'cloudformation' | 'sts' | 'sns' | 'iam' | 'monitoring' | 'ses', request: LocalRequest): LocalResponse {
    const namespace = QUERY_NAMESPACES[service];
    try {
      const params = QueryParams.parse(request.body.toString('utf8'), request.search);
      const result =
        service === 'cloudformation'
          ? this.cloudFormation.handle(params.action, params, request.region)
          : service === 'sns'
            ? snsAction(this.cloud, params, request.region)
            : service === 'iam'
              ? this.cloud.iam.action(params, this.cloud.accountId, this.stackRoles())
              : service === 'monitoring'
                ? cloudWatchQuery(this.cloud, params)
              : service === 'ses'
                ? sesAction(this.cloud, params, request.region)
              : stsAction(params, this.cloud.accountId);
      return queryResult(params.action, namespace, result);
    } catch (error) {
      this.logBug(service, request, error);
      return queryError(asAwsError(error), namespace);
    }
  }
}
