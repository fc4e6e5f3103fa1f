import { randomUUID } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import { StatesError } from './states-error';
import type { TaskServices } from './task-services';
import { lowerCamel, renameMembers, upperCamel } from '../protocol/member-names';

/**
 * AWS SDK service integrations (`arn:aws:states:::aws-sdk:<service>:<action>`): the action, camelCase,
 * is the API operation; the Parameters, PascalCase, are its request; the result is its response, in
 * PascalCase too, without the metadata the optimized integrations add. An error is
 * `<ServiceName>.<ErrorName>`, both PascalCase, always ending in `Exception` (`S3.NoSuchKeyException`),
 * with the cause `<message> (Service: <ServiceName>, Status Code: <status>, Request ID: <id>)`.
 */
interface SdkService {
  /** The JSON target prefix the local server dispatches on (`DynamoDB_20120810`). */
  target?: string;
  /** The service's name in error names (the SDK's client name). */
  errorName: string;
  /** The JSON API's members are camelCase: the integration's PascalCase is translated both ways. */
  camelCase?: boolean;
  /** Its timestamps are numbers in the JSON API and ISO-8601 text in the integration's result. */
  timestamps?: boolean;
}

/** The SDK integrations' service names the local cloud serves, as the Resource spells them. */
const SDK_SERVICES: Record<string, SdkService> = {
  dynamodb: { target: 'DynamoDB_20120810', errorName: 'DynamoDb', timestamps: true },
  sqs: { target: 'AmazonSQS', errorName: 'Sqs' },
  secretsmanager: { target: 'secretsmanager', errorName: 'SecretsManager', timestamps: true },
  ssm: { target: 'AmazonSSM', errorName: 'Ssm', timestamps: true },
  eventbridge: { target: 'AWSEvents', errorName: 'EventBridge', timestamps: true },
  sfn: { target: 'AWSStepFunctions', errorName: 'Sfn', camelCase: true, timestamps: true },
  kms: { target: 'TrentService', errorName: 'Kms', timestamps: true },
  // CloudWatch Logs' times are epoch milliseconds (longs), not timestamps: they stay numbers.
  cloudwatchlogs: { target: 'Logs_20140328', errorName: 'CloudWatchLogs', camelCase: true },
  kinesis: { target: 'Kinesis_20131202', errorName: 'Kinesis', timestamps: true },
  cognitoidentityprovider: { target: 'AWSCognitoIdentityProviderService', errorName: 'CognitoIdentityProvider', timestamps: true },
  cloudwatch: { target: 'GraniteServiceVersion20100801', errorName: 'CloudWatch', timestamps: true },
  ecr: { target: 'AmazonEC2ContainerRegistry_V20150921', errorName: 'Ecr', camelCase: true, timestamps: true },
  lambda: { errorName: 'Lambda' },
  s3: { errorName: 'S3' },
  sns: { errorName: 'Sns' },
};

/** Actions of the REST and query services that the local cloud runs as SDK integrations. */
const NON_JSON_ACTIONS: Record<string, string[]> = { lambda: ['invoke'], s3: ['getObject', 'putObject'], sns: ['publish'] };

/** What the not-emulated message lists. */
export const SDK_SERVED = `aws-sdk:${Object.keys(SDK_SERVICES)
  .filter((service) => !NON_JSON_ACTIONS[service])
  .join('/')} (any action their API serves), aws-sdk:lambda:invoke, aws-sdk:s3:getObject/putObject, aws-sdk:sns:publish`;

/** Whether `aws-sdk:<service>:<action>` is one the local cloud runs. */
export function isServedSdkIntegration(service: string, action: string): boolean {
  const known = SDK_SERVICES[service];
  if (!known) return false;
  return known.target !== undefined || (NON_JSON_ACTIONS[service] ?? []).includes(action);
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A tag map's keys are the user's and stay as they are. */
const tagMap = (name: string, member: unknown) => /^tags$/i.test(name) && isObject(member);

/**
 * DynamoDB's AttributeValue in the SDK integration: the SDK model's member names (`Bool`, `Nul`, `Ss`,
 * `Ns`, `Bs`) where the wire has `BOOL`, `NULL`, `SS`, `NS`, `BS`; `S`, `N`, `B`, `M`, `L` are the same.
 * Recognized by shape (a single member of that name and type), so an attribute named `SS` stays a name.
 */
const ATTRIBUTE_TYPES: [sdk: string, wire: string, test: (value: unknown) => boolean][] = [
  ['Bool', 'BOOL', (value) => typeof value === 'boolean'],
  ['Nul', 'NULL', (value) => typeof value === 'boolean'],
  ['Ss', 'SS', (value) => Array.isArray(value) && value.every((item) => typeof item === 'string')],
  ['Ns', 'NS', (value) => Array.isArray(value) && value.every((item) => typeof item === 'string')],
  ['Bs', 'BS', (value) => Array.isArray(value) && value.every((item) => typeof item === 'string')],
];

function attributeNames(value: unknown, toWire: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => attributeNames(item, toWire));
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const type = ATTRIBUTE_TYPES.find(([sdk, wire, test]) => keys[0] === (toWire ? sdk : wire) && test(value[keys[0]]));
    if (type) return { [toWire ? type[1] : type[0]]: value[keys[0]] };
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, attributeNames(item, toWire)]));
}

/** Epoch-second numbers of timestamp members (`CreatedDate`, `StartDate`, `…Timestamp`) as ISO-8601 text. */
function isoTimestamps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(isoTimestamps);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, typeof item === 'number' && /(Date|DateTime|Timestamp)$/.test(key) ? new Date(item * 1000).toISOString() : isoTimestamps(item)]),
  );
}

/** An AWS error as the SDK integration names it. */
function sdkFailure(service: SdkService, resource: string, error: unknown): StatesError {
  if (error instanceof StatesError) return error;
  if (error instanceof AwsError) {
    const code = error.code.split('#').pop()!;
    if (code === 'UnknownOperationException' && error.message.startsWith('not emulated')) {
      return new StatesError('States.Runtime', `not emulated: the Task resource ${resource} (${error.message})`);
    }
    const name = code.endsWith('Exception') ? code : `${code}Exception`;
    return new StatesError(`${service.errorName}.${name}`, `${error.message} (Service: ${service.errorName}, Status Code: ${error.status}, Request ID: ${randomUUID()})`);
  }
  return new StatesError(`${service.errorName}.${service.errorName}Exception`, (error as Error).message);
}

/** Runs `aws-sdk:<service>:<action>` with its Parameters: the API's response. */
export async function runSdkIntegration(services: TaskServices, service: string, action: string, parameters: Record<string, unknown>): Promise<unknown> {
  const known = SDK_SERVICES[service];
  const resource = `arn:aws:states:::aws-sdk:${service}:${action}`;
  try {
    if (service === 'lambda') return await invokeFunction(services, parameters);
    if (service === 's3') return await objectAction(services, action, parameters);
    if (service === 'sns') return { MessageId: services.publish(parameters).MessageId };
    let input: unknown = parameters;
    if (service === 'dynamodb') input = attributeNames(input, true);
    if (known.camelCase) input = renameMembers(input, lowerCamel, tagMap);
    let answer: unknown = await services.callApi(`${known.target}.${upperCamel(action)}`, input as Record<string, unknown>);
    if (known.camelCase) answer = renameMembers(answer, upperCamel, tagMap);
    if (known.timestamps) answer = isoTimestamps(answer);
    if (service === 'dynamodb') answer = attributeNames(answer, false);
    return answer;
  } catch (error) {
    throw sdkFailure(known, resource, error);
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** `aws-sdk:lambda:invoke`: Lambda's Invoke response as the SDK gives it (Payload as text, FunctionError set, the task not failed). */
async function invokeFunction(services: TaskServices, input: Record<string, unknown>): Promise<unknown> {
  if (typeof input.FunctionName !== 'string') throw new StatesError('States.Runtime', "The field 'FunctionName' is required by aws-sdk:lambda:invoke");
  const qualifier = typeof input.Qualifier === 'string' ? input.Qualifier : undefined;
  const payload = input.Payload === undefined ? {} : typeof input.Payload === 'string' ? (JSON.parse(input.Payload) as unknown) : input.Payload;
  if (input.InvocationType === 'Event') {
    services.invokeAsync(input.FunctionName, payload, qualifier);
    return { Payload: '', StatusCode: 202 };
  }
  const outcome = await services.invoke(input.FunctionName, payload, qualifier);
  return { ExecutedVersion: outcome.executedVersion, ...(outcome.functionError ? { FunctionError: outcome.functionError } : {}), Payload: outcome.payload, StatusCode: 200 };
}

/** `aws-sdk:s3:getObject` (the Body as text) and `aws-sdk:s3:putObject` (a Body given as JSON is written as its text). */
async function objectAction(services: TaskServices, action: string, input: Record<string, unknown>): Promise<unknown> {
  if (typeof input.Bucket !== 'string' || typeof input.Key !== 'string') throw new StatesError('States.Runtime', `The fields 'Bucket' and 'Key' are required by aws-sdk:s3:${action}`);
  if (action === 'putObject') {
    const stored = services.putObject(input.Bucket, input.Key, Buffer.from(input.Body === undefined ? '' : text(input.Body)), typeof input.ContentType === 'string' ? input.ContentType : undefined);
    return { ETag: stored.etag, ...(stored.versionId ? { VersionId: stored.versionId } : {}) };
  }
  const { object, data } = services.getObject(input.Bucket, input.Key, typeof input.VersionId === 'string' ? input.VersionId : undefined);
  return {
    AcceptRanges: 'bytes',
    Body: data.toString('utf8'),
    ContentLength: data.length,
    ContentType: object.contentType ?? 'binary/octet-stream',
    ETag: object.etag,
    LastModified: object.lastModified,
    Metadata: object.metadata,
    ...(object.versionId ? { VersionId: object.versionId } : {}),
  };
}
