import { randomUUID } from 'node:crypto';
import type { ResourceRecord } from '../cloudformation/model';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { functionNameOf } from '../runtime/functions';
import type { InvokeOutcome, LocalServices } from '../service-interfaces';
import type { ProviderContext, Provisioned, ResourceProvider } from './provider';
import { recordedProvider } from './recorded';

/** Where a custom resource's handler PUTs its response: the URL is the permission, as AWS's presigned S3 URL is. */
export const CUSTOM_RESOURCE_RESPONSE_PREFIX = '/_fw/custom-resource-response/';
/** Seconds the local cloud waits for a response when the resource sets no `ServiceTimeout` (AWS waits an hour). */
export const DEFAULT_RESPONSE_TIMEOUT_SECONDS = 60;
/** Overrides that default (tests shorten it). */
export const RESPONSE_TIMEOUT_ENV = 'FW_LOCAL_CUSTOM_RESOURCE_TIMEOUT';

/**
 * fw's own handlers that call APIs the local cloud does not serve: running them would fail the
 * deploy, so their resources are recorded, and the deploy report says why.
 */
const HANDLERS_NOT_RUN: Record<string, string> = {
  'Custom::CognitoUserPool': 'its handler calls Cognito, which the local cloud does not emulate',
  'Custom::ApiGatewayAccountRole': "its handler calls IAM and API Gateway's account settings, which the local cloud does not serve",
  'Custom::EventBridge': "its handler calls EventBridge's rule API; the local cloud serves PutEvents only",
};

interface CustomResourceRequest {
  RequestType: 'Create' | 'Update' | 'Delete';
  ServiceToken: string;
  ResponseURL: string;
  StackId: string;
  RequestId: string;
  LogicalResourceId: string;
  ResourceType: string;
  ResourceProperties: unknown;
  PhysicalResourceId?: string;
  OldResourceProperties?: unknown;
}

interface CustomResourceResponse {
  Status?: unknown;
  Reason?: unknown;
  PhysicalResourceId?: unknown;
  Data?: unknown;
}

/** Responses awaited, by the token in their URL (in memory: a restart rolls back a stack that was waiting). */
type Deliver = (response: CustomResourceResponse | Error) => void;
const awaitingByCloud = new WeakMap<object, Map<string, Deliver>>();

function awaiting(cloud: object): Map<string, Deliver> {
  let found = awaitingByCloud.get(cloud);
  if (!found) awaitingByCloud.set(cloud, (found = new Map()));
  return found;
}

export function isCustomResourceType(type: string): boolean {
  return type === 'AWS::CloudFormation::CustomResource' || type.startsWith('Custom::');
}

/** Why a custom resource with these properties is recorded rather than run, or undefined when it runs. */
export function notRunReason(type: string, properties: Record<string, unknown>, buckets: { hasBucket(name: string): boolean }): string | undefined {
  const token = String(properties.ServiceToken ?? '');
  if (/^arn:aws[a-z-]*:sns:/.test(token)) return 'its ServiceToken is an SNS topic; the local cloud invokes Lambda-backed custom resources only';
  // Only fw's own handler: a user's function behind a resource of the same type runs.
  const fwHandler = /-custom-resource-/.test(functionNameOf(token));
  if (HANDLERS_NOT_RUN[type] && fwHandler) return HANDLERS_NOT_RUN[type];
  // An `existing: true` bucket the local cloud does not have: on AWS the deploy fails; locally the
  // service still deploys (the local cloud starts empty), and the report says how to get the events.
  const bucket = String(properties.BucketName ?? '');
  if (type === 'Custom::S3' && fwHandler && bucket && !buckets.hasBucket(bucket)) {
    return `the existing bucket ${bucket} is not in the local cloud, so its events do not fire; create it (aws s3 mb s3://${bucket} --endpoint-url <local cloud URL>), then fw remove and fw deploy`;
  }
  return undefined;
}

/** CloudFormation hands a custom resource its properties with every number and boolean as a string. */
function asSent(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(asSent);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, asSent(item)]));
  return value;
}

function timeoutSeconds(properties: Record<string, unknown>): number {
  if (properties.ServiceTimeout !== undefined) {
    const seconds = Number(properties.ServiceTimeout);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) throw new Error(`ServiceTimeout must be a whole number of seconds from 1 to 3600, got ${JSON.stringify(properties.ServiceTimeout)}`);
    return seconds;
  }
  const configured = Number(process.env[RESPONSE_TIMEOUT_ENV]);
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_RESPONSE_TIMEOUT_SECONDS;
}

/**
 * Sends one request to the function behind the ServiceToken and waits for the response it PUTs
 * to the ResponseURL, the time-out, or the operation's cancellation. Returns what the resource now is.
 */
async function send(
  requestType: CustomResourceRequest['RequestType'],
  properties: Record<string, unknown>,
  context: ProviderContext,
  previous?: ResourceRecord,
): Promise<Provisioned> {
  const cloud = context.cloud;
  const serviceToken = String(properties.ServiceToken ?? '');
  if (!/^arn:aws[a-z-]*:lambda:/.test(serviceToken)) throw new Error(`Invalid service token: ${JSON.stringify(properties.ServiceToken ?? null)} is neither a Lambda function nor an SNS topic ARN`);
  const seconds = timeoutSeconds(properties);
  const token = randomUUID();
  const request: CustomResourceRequest = {
    RequestType: requestType,
    ServiceToken: serviceToken,
    ResponseURL: `${cloud.baseUrl}${CUSTOM_RESOURCE_RESPONSE_PREFIX}${token}`,
    StackId: context.stackId,
    RequestId: randomUUID(),
    LogicalResourceId: context.logicalId,
    ResourceType: context.type,
    ResourceProperties: asSent(properties),
    ...(previous ? { PhysicalResourceId: previous.physicalId } : {}),
    ...(requestType === 'Update' && previous ? { OldResourceProperties: asSent(previous.properties) } : {}),
  };
  const responses = awaiting(cloud);
  let invocation: Promise<InvokeOutcome> | undefined;
  const response = await new Promise<CustomResourceResponse>((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`CloudFormation did not receive a response from your Custom Resource. Please check your logs for requestId [${request.RequestId}].`)),
      seconds * 1000,
    );
    const aborted = () => finish(new Error(`Resource ${requestType === 'Delete' ? 'deletion' : requestType === 'Create' ? 'creation' : 'update'} cancelled`));
    const finish = (outcome: Error | CustomResourceResponse) => {
      clearTimeout(timer);
      responses.delete(token);
      context.signal?.removeEventListener('abort', aborted);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    responses.set(token, finish);
    if (context.signal?.aborted) return aborted();
    context.signal?.addEventListener('abort', aborted);
    invocation = cloud.functions.invoke(serviceToken, request);
    invocation.then(
      (outcome) => {
        // As on AWS, a handler that fails without answering leaves CloudFormation waiting until the time-out.
        if (outcome.functionError && responses.has(token)) {
          cloud.log(`custom resource ${context.logicalId} (${context.type}): ${functionNameOf(serviceToken)} failed without sending a response; waiting up to ${seconds} s for one: ${outcome.payload}`);
        }
      },
      // The function could not be invoked at all (it does not exist): nothing will answer.
      (error: Error) => finish(new Error(`Failed to invoke ${serviceToken} for custom resource ${context.logicalId}: ${error.message}`)),
    );
  });
  if (response.Status === 'FAILED') throw new Error(`Received response status [FAILED] from custom resource. Message returned: ${String(response.Reason ?? '')} (RequestId: ${request.RequestId})`);
  if (response.Status !== 'SUCCESS') throw new Error(`Invalid response object: Status must be SUCCESS or FAILED, got ${JSON.stringify(response.Status ?? null)}`);
  const data = response.Data && typeof response.Data === 'object' && !Array.isArray(response.Data) ? (response.Data as Record<string, unknown>) : {};
  if (typeof response.PhysicalResourceId === 'string' && response.PhysicalResourceId !== '') return { physicalId: response.PhysicalResourceId, attributes: data };
  if (previous) return { physicalId: previous.physicalId, attributes: data };
  // No id in the response: the log stream of the invocation, what AWS's cfn-response module sends.
  const logStream = await invocation?.then((outcome) => outcome.logStream, () => undefined);
  return { physicalId: logStream ?? request.RequestId, attributes: data };
}

/**
 * `AWS::CloudFormation::CustomResource` and `Custom::*`: the function behind the ServiceToken gets
 * CloudFormation's Create, Update and Delete requests; its response's `Data` is what `Fn::GetAtt`
 * returns. One backed by an SNS topic (or one of fw's handlers the local cloud cannot serve) is recorded.
 */
export const customResourceProvider: ResourceProvider = {
  async create(properties, context) {
    if (notRunReason(context.type, properties, context.cloud.s3)) return { ...(await recordedProvider.create(properties, context)), emulated: false };
    return send('Create', properties, context);
  },
  async update(properties, previous, context) {
    if (notRunReason(context.type, properties, context.cloud.s3)) return { physicalId: previous.physicalId, attributes: previous.attributes, emulated: false };
    // Recorded by an older fw that ran no custom resource: it was never created.
    if (!previous.emulated) return send('Create', properties, context);
    if (previous.properties.ServiceToken !== properties.ServiceToken) throw new Error('Modifying service token is not allowed.');
    return send('Update', properties, context, previous);
  },
  async delete(record, context) {
    if (!record.emulated) return;
    await send('Delete', record.properties, context, record);
  },
};

/** What `Fn::GetAtt` of a key the response's Data lacks fails with, as on AWS. */
export function missingDataKey(attribute: string, record: ResourceRecord, stack: { stackId: string; region: string }): string {
  return `CustomResource attribute error: Vendor response doesn't contain ${attribute} key in object ${stack.stackId}|${record.logicalId}|${record.physicalId} in region ${stack.region}`;
}

/** `PUT <ResponseURL>` with the handler's JSON response. */
export function receiveCustomResourceResponse(cloud: LocalServices, request: LocalRequest): LocalResponse {
  const token = request.path.slice(CUSTOM_RESOURCE_RESPONSE_PREFIX.length);
  const deliver = awaiting(cloud).get(token);
  if (!deliver) return jsonResponse({ message: `No custom resource is waiting for a response at ${request.path}` }, 404);
  if (request.method !== 'PUT') return jsonResponse({ message: 'Send the response with PUT' }, 405);
  let response: CustomResourceResponse;
  try {
    response = JSON.parse(request.body.toString('utf8')) as CustomResourceResponse;
  } catch {
    deliver(new Error('Invalid response object: the response body is not JSON'));
    return { status: 200, body: '' };
  }
  deliver(response && typeof response === 'object' ? response : new Error('Invalid response object: the response body is not a JSON object'));
  return { status: 200, body: '' };
}
