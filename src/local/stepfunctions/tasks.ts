import { randomUUID } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import { isServedSdkIntegration, runSdkIntegration, SDK_SERVED } from './sdk-integrations';
import { StatesError } from './states-error';
import type { FunctionOutcome, TaskServices } from './task-services';
import { lowerCamel } from '../protocol/member-names';

/** How the history names a task: Lambda function ARNs have events of their own, integrations are `Task*` events. */
export type TaskResource =
  | { kind: 'function'; functionArn: string }
  | { kind: 'activity'; activityArn: string }
  | { kind: 'integration'; service: string; action: string; pattern?: 'waitForTaskToken' | 'sync' | 'sync:2' };

/** The integrations the local cloud runs, by `service:action`, and the JSON target each calls. */
const INTEGRATIONS: Record<string, { target?: string; prefix: string; stringify?: string }> = {
  'lambda:invoke': { prefix: 'Lambda' },
  'sqs:sendMessage': { target: 'AmazonSQS.SendMessage', prefix: 'SQS', stringify: 'MessageBody' },
  'sns:publish': { prefix: 'SNS', stringify: 'Message' },
  'dynamodb:putItem': { target: 'DynamoDB_20120810.PutItem', prefix: 'DynamoDB' },
  'dynamodb:getItem': { target: 'DynamoDB_20120810.GetItem', prefix: 'DynamoDB' },
  'dynamodb:updateItem': { target: 'DynamoDB_20120810.UpdateItem', prefix: 'DynamoDB' },
  'dynamodb:deleteItem': { target: 'DynamoDB_20120810.DeleteItem', prefix: 'DynamoDB' },
  'events:putEvents': { target: 'AWSEvents.PutEvents', prefix: 'EventBridge' },
  'states:startExecution': { target: 'AWSStepFunctions.StartExecution', prefix: 'StepFunctions', stringify: 'input' },
};

export function parseResource(resource: string): TaskResource {
  if (/^arn:aws[a-z-]*:lambda:[^:]+:\d+:function:[^:]+(:[^:]+)?$/.test(resource)) return { kind: 'function', functionArn: resource };
  if (/^arn:aws[a-z-]*:states:[^:]+:\d+:activity:[^:]+$/.test(resource)) return { kind: 'activity', activityArn: resource };
  // AWS SDK integrations run request-response or `.waitForTaskToken`; they have no `.sync`.
  const sdk = /^arn:aws[a-z-]*:states:[^:]*:[^:]*:aws-sdk:([a-z0-9]+):([a-z][A-Za-z0-9]*)(?:\.(waitForTaskToken))?$/.exec(resource);
  if (sdk && isServedSdkIntegration(sdk[1], sdk[2])) return { kind: 'integration', service: `aws-sdk:${sdk[1]}`, action: sdk[2], pattern: sdk[3] as 'waitForTaskToken' | undefined };
  const integration = /^arn:aws[a-z-]*:states:[^:]*:[^:]*:([a-z0-9-]+):([A-Za-z0-9]+)(?:\.(waitForTaskToken|sync(?::2)?))?$/.exec(resource);
  const pattern = integration?.[3] as 'waitForTaskToken' | 'sync' | 'sync:2' | undefined;
  // Of the "run a job" (.sync) patterns, only a child execution's is served: the others start jobs the local cloud does not run.
  if (integration && INTEGRATIONS[`${integration[1]}:${integration[2]}`] && (!pattern?.startsWith('sync') || integration[1] === 'states')) {
    return { kind: 'integration', service: integration[1], action: integration[2], pattern };
  }
  throw new StatesError(
    'States.Runtime',
    `not emulated: the Task resource ${resource} (the local cloud runs Lambda functions, the lambda:invoke, sqs:sendMessage, sns:publish, dynamodb:putItem/getItem/updateItem/deleteItem, events:putEvents and states:startExecution integrations, and the SDK integrations ${SDK_SERVED})`,
  );
}

/** The SDK's response metadata Step Functions adds to an integration's result. */
function sdkMetadata(requestId: string, headers: Record<string, string>): Record<string, unknown> {
  const all = { ...headers, 'x-amzn-RequestId': requestId };
  return {
    SdkHttpMetadata: { AllHttpHeaders: Object.fromEntries(Object.entries(all).map(([name, value]) => [name, [value]])), HttpHeaders: all, HttpStatusCode: 200 },
    SdkResponseMetadata: { RequestId: requestId },
  };
}

/** A function's failure as a Task error: its errorType, else Lambda.Unknown, with the payload as the cause. */
function functionFailure(outcome: FunctionOutcome): StatesError {
  let errorType: unknown;
  try {
    errorType = (JSON.parse(outcome.payload) as { errorType?: unknown } | null)?.errorType;
  } catch {
    errorType = undefined;
  }
  if (typeof errorType === 'string' && errorType !== '') return new StatesError(errorType, outcome.payload);
  return new StatesError('Lambda.Unknown', `The cause could not be determined because Lambda did not return an error type. Returned payload: ${outcome.payload}`);
}

/** An AWS API error as the Task error Step Functions names it: `<Service>.<Exception>`. */
function serviceFailure(prefix: string, error: unknown): StatesError {
  if (error instanceof StatesError) return error;
  if (error instanceof AwsError) {
    const code = error.code.split('#').pop()!;
    return new StatesError(`${prefix}.${code.endsWith('Exception') ? code : `${code}Exception`}`, error.message);
  }
  return new StatesError(`${prefix}.ServiceException`, (error as Error).message);
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Invokes a Lambda function given by ARN as the Task's Resource: the result is the function's own answer. */
export async function runFunction(services: TaskServices, functionArn: string, input: unknown): Promise<unknown> {
  let outcome: FunctionOutcome;
  try {
    outcome = await services.invoke(functionArn, input);
  } catch (error) {
    throw serviceFailure('Lambda', error);
  }
  if (outcome.functionError) throw functionFailure(outcome);
  return JSON.parse(outcome.payload) as unknown;
}

/** Runs a service integration with its parameters; the result as Step Functions gives it (with the SDK's metadata). */
export async function runIntegration(services: TaskServices, service: string, action: string, parameters: Record<string, unknown>, pattern?: string): Promise<unknown> {
  if (service.startsWith('aws-sdk:')) return runSdkIntegration(services, service.slice('aws-sdk:'.length), action, parameters);
  const integration = INTEGRATIONS[`${service}:${action}`];
  // Step Functions' own API is camelCase; its integration takes the SDK model's capitalized names.
  const input = service === 'states' ? Object.fromEntries(Object.entries(parameters).map(([key, value]) => [lowerCamel(key), value])) : { ...parameters };
  if (integration.stringify && input[integration.stringify] !== undefined) input[integration.stringify] = text(input[integration.stringify]);
  if (service === 'events' && Array.isArray(input.Entries)) input.Entries = input.Entries.map((entry: Record<string, unknown>) => (entry.Detail === undefined ? entry : { ...entry, Detail: text(entry.Detail) }));
  try {
    if (service === 'lambda') return await invokeIntegration(services, input);
    if (service === 'sns') {
      const requestId = randomUUID();
      return { ...services.publish(input), ...sdkMetadata(requestId, { 'Content-Type': 'text/xml' }) };
    }
    const answer = await services.callApi(integration.target!, input);
    if (service === 'states' && pattern?.startsWith('sync')) return await childExecution(services, String(answer.executionArn), pattern === 'sync:2');
    const requestId = randomUUID();
    // Step Functions answers with the SDK's model, whose members are capitalized (ExecutionArn, StartDate in milliseconds).
    const result = service === 'states' ? { ExecutionArn: answer.executionArn, StartDate: Math.round(Number(answer.startDate) * 1000) } : answer;
    return { ...result, ...sdkMetadata(requestId, { 'Content-Type': 'application/x-amz-json-1.0' }) };
  } catch (error) {
    throw serviceFailure(integration.prefix, error);
  }
}

/** `arn:aws:states:::lambda:invoke`: Lambda's Invoke with the function's answer in `Payload`; a function error fails the task. */
async function invokeIntegration(services: TaskServices, input: Record<string, unknown>): Promise<unknown> {
  if (typeof input.FunctionName !== 'string') throw new StatesError('States.Runtime', "The field 'FunctionName' is required by lambda:invoke");
  const qualifier = typeof input.Qualifier === 'string' ? input.Qualifier : undefined;
  const payload = input.Payload === undefined ? {} : typeof input.Payload === 'string' ? JSON.parse(input.Payload) : input.Payload;
  if (input.InvocationType === 'Event') {
    services.invokeAsync(input.FunctionName, payload, qualifier);
    return { ExecutedVersion: '$LATEST', Payload: '', ...sdkMetadata(randomUUID(), { 'Content-Length': '0' }), StatusCode: 202 };
  }
  const outcome = await services.invoke(input.FunctionName, payload, qualifier);
  if (outcome.functionError) throw functionFailure(outcome);
  const requestId = outcome.requestId ?? randomUUID();
  const headers = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(outcome.payload)), 'X-Amz-Executed-Version': outcome.executedVersion };
  return { ExecutedVersion: outcome.executedVersion, Payload: JSON.parse(outcome.payload) as unknown, ...sdkMetadata(requestId, headers), StatusCode: 200 };
}

const CHILD_POLL_MS = 50;

/**
 * `states:startExecution.sync` (`.sync:2`): waits for the child execution and answers its description
 * in the SDK model's names (Input and Output as JSON with `:2`, as text without); a child that did not
 * succeed fails the task with States.TaskFailed and the description as the cause.
 */
async function childExecution(services: TaskServices, executionArn: string, parsed: boolean): Promise<unknown> {
  let described = await services.callApi('AWSStepFunctions.DescribeExecution', { executionArn });
  while (described.status === 'RUNNING') {
    await new Promise((resolve) => setTimeout(resolve, CHILD_POLL_MS));
    described = await services.callApi('AWSStepFunctions.DescribeExecution', { executionArn });
  }
  const json = (text: unknown) => (parsed && typeof text === 'string' ? (JSON.parse(text) as unknown) : text);
  const result: Record<string, unknown> = {
    ExecutionArn: described.executionArn,
    Input: json(described.input),
    InputDetails: { Included: true },
    Name: described.name,
    ...(described.output !== undefined ? { Output: json(described.output), OutputDetails: { Included: true } } : {}),
    StartDate: Math.round(Number(described.startDate) * 1000),
    StateMachineArn: described.stateMachineArn,
    Status: described.status,
    StopDate: Math.round(Number(described.stopDate) * 1000),
    ...(described.error !== undefined ? { Error: described.error } : {}),
    ...(described.cause !== undefined ? { Cause: described.cause } : {}),
  };
  if (described.status !== 'SUCCEEDED') throw new StatesError('States.TaskFailed', JSON.stringify(result));
  return result;
}
