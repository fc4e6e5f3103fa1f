import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateStackCommand, DeleteStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  CreateStateMachineCommand,
  DeleteStateMachineCommand,
  DescribeExecutionCommand,
  DescribeStateMachineCommand,
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  ListStateMachinesCommand,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
  StartSyncExecutionCommand,
  StopExecutionCommand,
  UpdateStateMachineCommand,
  ValidateStateMachineDefinitionCommand,
  type DescribeExecutionCommandOutput,
  type HistoryEvent,
} from '@aws-sdk/client-sfn';
import { failure, outputsOf, settle, startTestCloud, zip, type TestCloud } from './helpers';

const HANDLERS: Record<string, string> = {
  'greet.js': `exports.handler = async (event) => ({ greeting: 'Hello ' + event.name, at: event.at });`,
  // A function error with a fixed stack, so the cause Step Functions records is known.
  'pay.js': `exports.handler = async (event) => {
    if (event.amount > 100) throw Object.assign(new Error('card declined'), { name: 'PaymentError', stack: 'PaymentError: card declined' });
    return { paid: event.amount };
  };`,
  // Fails the first `failures` calls for a key (counted in a file), then answers.
  'flaky.js': `const fs = require('fs');
    exports.handler = async (event) => {
      const seen = fs.existsSync(event.file) ? Number(fs.readFileSync(event.file, 'utf8')) : 0;
      fs.writeFileSync(event.file, String(seen + 1));
      if (seen < event.failures) throw Object.assign(new Error('try again'), { name: 'Busy', stack: 'Busy: try again' });
      return { attempts: seen + 1 };
    };`,
  'double.js': `exports.handler = async (event) => event.value * 2;`,
};

const CODE_KEY = 'app/code.zip';
const ROLE = 'arn:aws:iam::000000000000:role/flows';

function lambdaFunction(name: string, handler: string) {
  return { Type: 'AWS::Lambda::Function', Properties: { Code: { S3Bucket: 'deploys', S3Key: CODE_KEY }, Handler: handler, Runtime: 'nodejs20.x', FunctionName: `app-dev-${name}`, Timeout: 10, Role: ROLE } };
}

/** The order flow: Pass, a function by ARN, Choice, Catch into Fail, paths of every kind. */
const ORDER_FLOW = {
  Comment: 'orders for ${Service}',
  StartAt: 'Prepare',
  States: {
    Prepare: { Type: 'Pass', InputPath: '$.order', Parameters: { 'name.$': '$.customer', 'amount.$': '$.total', 'label.$': "States.Format('order {} of {}', $.id, $.customer)" }, ResultPath: '$.prepared', Next: 'Greet' },
    Greet: { Type: 'Task', Resource: '${GreetArn}', Parameters: { 'name.$': '$.prepared.name', 'at.$': '$$.State.Name' }, ResultSelector: { 'text.$': '$.greeting', 'state.$': '$.at' }, ResultPath: '$.greeting', Next: 'Big?' },
    'Big?': {
      Type: 'Choice',
      Choices: [
        { And: [{ Variable: '$.prepared.amount', NumericGreaterThan: 100 }, { Not: { And: [{ Variable: '$.order.vip', IsPresent: true }, { Variable: '$.order.vip', BooleanEquals: true }] } }], Next: 'Pay' },
        { Variable: '$.prepared.label', StringMatches: 'order * of *', Next: 'Pay' },
      ],
      Default: 'Done',
    },
    Pay: {
      Type: 'Task',
      Resource: '${PayArn}',
      Parameters: { 'amount.$': '$.prepared.amount' },
      ResultPath: '$.payment',
      Catch: [{ ErrorEquals: ['PaymentError'], ResultPath: '$.failure', Next: 'Declined' }],
      Next: 'Done',
    },
    Declined: { Type: 'Fail', Error: 'OrderDeclined', Cause: 'the card was declined' },
    Done: { Type: 'Succeed', OutputPath: '$.greeting' },
  },
};

const template = {
  AWSTemplateFormatVersion: '2010-09-09',
  Resources: {
    GreetLambdaFunction: lambdaFunction('greet', 'greet.handler'),
    PayLambdaFunction: lambdaFunction('pay', 'pay.handler'),
    FlakyLambdaFunction: lambdaFunction('flaky', 'flaky.handler'),
    DoubleLambdaFunction: lambdaFunction('double', 'double.handler'),
    Orders: { Type: 'AWS::DynamoDB::Table', Properties: { TableName: 'orders', AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], BillingMode: 'PAY_PER_REQUEST' } },
    Jobs: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'jobs' } },
    OrderFlow: {
      Type: 'AWS::StepFunctions::StateMachine',
      Properties: {
        StateMachineName: 'order-flow',
        RoleArn: ROLE,
        DefinitionString: JSON.stringify(ORDER_FLOW),
        DefinitionSubstitutions: { Service: 'app', GreetArn: { 'Fn::GetAtt': ['GreetLambdaFunction', 'Arn'] }, PayArn: { 'Fn::GetAtt': ['PayLambdaFunction', 'Arn'] } },
        LoggingConfiguration: { Level: 'OFF' },
      },
    },
    // Unnamed, a Definition object: CloudFormation names it after the logical id.
    Integrations: {
      Type: 'AWS::StepFunctions::StateMachine',
      Properties: {
        RoleArn: ROLE,
        Definition: {
          StartAt: 'Save',
          States: {
            Save: { Type: 'Task', Resource: 'arn:aws:states:::dynamodb:putItem', Parameters: { TableName: '${Table}', Item: { id: { 'S.$': '$.id' }, total: { 'N.$': 'States.JsonToString($.total)' } } }, ResultPath: null, Next: 'Read' },
            Read: { Type: 'Task', Resource: 'arn:aws:states:::dynamodb:getItem', Parameters: { TableName: '${Table}', Key: { id: { 'S.$': '$.id' } } }, ResultSelector: { 'total.$': '$.Item.total.N' }, ResultPath: '$.saved', Next: 'Notify' },
            Notify: { Type: 'Task', Resource: 'arn:aws:states:::sqs:sendMessage', Parameters: { QueueUrl: { Ref: 'Jobs' }, MessageBody: { 'order.$': '$.id', 'total.$': '$.saved.total' } }, ResultSelector: { 'sent.$': 'States.ArrayLength(States.Array($.MessageId))' }, ResultPath: '$.notified', Next: 'Invoke' },
            Invoke: { Type: 'Task', Resource: 'arn:aws:states:::lambda:invoke', Parameters: { FunctionName: 'app-dev-double', Payload: { 'value.$': '$.total' } }, ResultPath: '$.invoked', Next: 'Fan out' },
            'Fan out': {
              Type: 'Parallel',
              Branches: [
                { StartAt: 'Items', States: { Items: { Type: 'Map', ItemsPath: '$.items', MaxConcurrency: 2, ItemSelector: { 'value.$': '$$.Map.Item.Value', 'index.$': '$$.Map.Item.Index' }, ItemProcessor: { StartAt: 'Double', States: { Double: { Type: 'Task', Resource: '${DoubleArn}', End: true } } }, End: true } } },
                { StartAt: 'Later', States: { Later: { Type: 'Wait', Seconds: 1, Next: 'Sum' }, Sum: { Type: 'Pass', Parameters: { 'sum.$': 'States.MathAdd($.total, 1)', 'id.$': 'States.UUID()' }, OutputPath: '$.sum', End: true } } },
              ],
              ResultPath: '$.fanned',
              End: true,
            },
          },
        },
        DefinitionSubstitutions: { Table: { Ref: 'Orders' }, DoubleArn: { 'Fn::GetAtt': ['DoubleLambdaFunction', 'Arn'] } },
      },
    },
  },
  Outputs: {
    OrderFlowArn: { Value: { Ref: 'OrderFlow' } },
    OrderFlowName: { Value: { 'Fn::GetAtt': ['OrderFlow', 'Name'] } },
    IntegrationsArn: { Value: { 'Fn::GetAtt': ['Integrations', 'Arn'] } },
  },
};

interface Context {
  t: TestCloud;
  sfn: SFNClient;
  outputs: Record<string, string>;
  scratch: string;
}

/** Polls DescribeExecution until the execution is no longer RUNNING. */
async function finished(sfn: SFNClient, executionArn: string, timeoutMs = 15_000): Promise<DescribeExecutionCommandOutput> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    if (described.status !== 'RUNNING') return described;
    if (Date.now() > deadline) throw new Error(`${executionArn} still RUNNING`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The history as `type details` with the fields that differ run to run (times, request ids) left out. */
async function history(sfn: SFNClient, executionArn: string): Promise<unknown[]> {
  const { events = [] } = await sfn.send(new GetExecutionHistoryCommand({ executionArn }));
  return events.map((event: HistoryEvent) => {
    const { timestamp, $metadata: _, ...rest } = event as HistoryEvent & { $metadata?: unknown };
    assert.instance(timestamp, Date);
    return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  });
}

const run = async (sfn: SFNClient, stateMachineArn: string, input: unknown, name?: string) => {
  const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input), name }));
  return finished(sfn, executionArn!);
};

const entered = (type: string, name: string, input: unknown, id: number) => ({ type: `${type}StateEntered`, id, previousEventId: id - 1, stateEnteredEventDetails: { name, input: JSON.stringify(input), inputDetails: { truncated: false } } });
const exited = (type: string, name: string, output: unknown, id: number) => ({ type: `${type}StateExited`, id, previousEventId: id - 1, stateExitedEventDetails: { name, output: JSON.stringify(output), outputDetails: { truncated: false } } });

async function deploy(context: Context): Promise<void> {
  context.t = await startTestCloud();
  // StartSyncExecution's endpoint has the host prefix `sync-` on AWS; a local endpoint has none.
  context.sfn = new SFNClient({ ...context.t.config, maxAttempts: 1, disableHostPrefix: true });
  context.scratch = mkdtempSync(join(tmpdir(), 'fw-flows-'));
  await context.t.s3.send(new CreateBucketCommand({ Bucket: 'deploys' }));
  await context.t.s3.send(new PutObjectCommand({ Bucket: 'deploys', Key: CODE_KEY, Body: await zip(HANDLERS) }));
  await context.t.cfn.send(new CreateStackCommand({ StackName: 'app-dev', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(context.t.cfn, 'app-dev');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE', stack.StackStatusReason);
  context.outputs = outputsOf(stack);
}

const flows = suite<Context>('Step Functions in the local cloud');
flows.before((context) => deploy(context));
flows.after(async (context) => {
  context.sfn.destroy();
  await context.t.stop();
  rmSync(context.scratch, { recursive: true, force: true });
});

flows('a stack makes its state machines: Ref is the ARN, GetAtt Name, DefinitionSubstitutions applied, the logging configuration recorded', async ({ sfn, outputs }) => {
  const arn = 'arn:aws:states:us-east-1:000000000000:stateMachine:order-flow';
  assert.equal([outputs.OrderFlowArn, outputs.OrderFlowName], [arn, 'order-flow']);
  assert.match(outputs.IntegrationsArn, /^arn:aws:states:us-east-1:000000000000:stateMachine:Integrations-[A-Z0-9]{12}$/);
  const { $metadata: _, creationDate, ...described } = await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: arn }));
  assert.instance(creationDate, Date);
  const definition = JSON.stringify(ORDER_FLOW).replace('${Service}', 'app').replace('${GreetArn}', 'arn:aws:lambda:us-east-1:000000000000:function:app-dev-greet').replace('${PayArn}', 'arn:aws:lambda:us-east-1:000000000000:function:app-dev-pay');
  assert.equal(described, { stateMachineArn: arn, name: 'order-flow', status: 'ACTIVE', definition, roleArn: ROLE, type: 'STANDARD', loggingConfiguration: { level: 'OFF', includeExecutionData: false }, tracingConfiguration: { enabled: false } });
  const { stateMachines = [] } = await sfn.send(new ListStateMachinesCommand({}));
  assert.equal(stateMachines.map((machine) => [machine.name?.replace(/-[A-Z0-9]{12}$/, '-<random>'), machine.type]).sort(), [['Integrations-<random>', 'STANDARD'], ['order-flow', 'STANDARD']]);
});

flows('an execution runs Pass, a function by ARN, Choice and Succeed with every path: its output and whole history are what AWS records', async ({ sfn, outputs }) => {
  const input = { order: { id: 7, customer: 'Ada', total: 40, vip: false } };
  const done = await run(sfn, outputs.OrderFlowArn, input, 'small-order');
  assert.is(done.status, 'SUCCEEDED', done.cause);
  assert.is(done.output, JSON.stringify({ text: 'Hello Ada', state: 'Greet' }));
  assert.is(done.executionArn, 'arn:aws:states:us-east-1:000000000000:execution:order-flow:small-order');
  const prepared = { ...input, prepared: { name: 'Ada', amount: 40, label: 'order 7 of Ada' } };
  const greeted = { ...prepared, greeting: { text: 'Hello Ada', state: 'Greet' } };
  const paid = { ...greeted, payment: { paid: 40 } };
  const greetArn = 'arn:aws:lambda:us-east-1:000000000000:function:app-dev-greet';
  const payArn = 'arn:aws:lambda:us-east-1:000000000000:function:app-dev-pay';
  assert.equal(await history(sfn, done.executionArn!), [
    { type: 'ExecutionStarted', id: 1, previousEventId: 0, executionStartedEventDetails: { input: JSON.stringify(input), inputDetails: { truncated: false }, roleArn: ROLE } },
    entered('Pass', 'Prepare', input, 2),
    exited('Pass', 'Prepare', prepared, 3),
    entered('Task', 'Greet', prepared, 4),
    { type: 'LambdaFunctionScheduled', id: 5, previousEventId: 4, lambdaFunctionScheduledEventDetails: { resource: greetArn, input: JSON.stringify({ name: 'Ada', at: 'Greet' }), inputDetails: { truncated: false } } },
    { type: 'LambdaFunctionStarted', id: 6, previousEventId: 5 },
    { type: 'LambdaFunctionSucceeded', id: 7, previousEventId: 6, lambdaFunctionSucceededEventDetails: { output: JSON.stringify({ greeting: 'Hello Ada', at: 'Greet' }), outputDetails: { truncated: false } } },
    exited('Task', 'Greet', greeted, 8),
    entered('Choice', 'Big?', greeted, 9),
    exited('Choice', 'Big?', greeted, 10),
    entered('Task', 'Pay', greeted, 11),
    { type: 'LambdaFunctionScheduled', id: 12, previousEventId: 11, lambdaFunctionScheduledEventDetails: { resource: payArn, input: JSON.stringify({ amount: 40 }), inputDetails: { truncated: false } } },
    { type: 'LambdaFunctionStarted', id: 13, previousEventId: 12 },
    { type: 'LambdaFunctionSucceeded', id: 14, previousEventId: 13, lambdaFunctionSucceededEventDetails: { output: JSON.stringify({ paid: 40 }), outputDetails: { truncated: false } } },
    exited('Task', 'Pay', paid, 15),
    entered('Succeed', 'Done', paid, 16),
    exited('Succeed', 'Done', { text: 'Hello Ada', state: 'Greet' }, 17),
    { type: 'ExecutionSucceeded', id: 18, previousEventId: 17, executionSucceededEventDetails: { output: JSON.stringify({ text: 'Hello Ada', state: 'Greet' }), outputDetails: { truncated: false } } },
  ]);
});

flows("a function's error is its errorType: caught by Catch with ResultPath, then a Fail state fails the execution with its Error and Cause", async ({ sfn, outputs }) => {
  const done = await run(sfn, outputs.OrderFlowArn, { order: { id: 8, customer: 'Bob', total: 500 } }, 'big-order');
  assert.equal([done.status, done.error, done.cause, done.output], ['FAILED', 'OrderDeclined', 'the card was declined', undefined]);
  const events = await history(sfn, done.executionArn!);
  const cause = JSON.stringify({ errorType: 'PaymentError', errorMessage: 'card declined', trace: ['PaymentError: card declined'] });
  const failedWith = { order: { id: 8, customer: 'Bob', total: 500 }, prepared: { name: 'Bob', amount: 500, label: 'order 8 of Bob' }, greeting: { text: 'Hello Bob', state: 'Greet' }, failure: { Error: 'PaymentError', Cause: cause } };
  assert.equal(events.slice(-4), [
    { type: 'LambdaFunctionFailed', id: 14, previousEventId: 13, lambdaFunctionFailedEventDetails: { error: 'PaymentError', cause } },
    exited('Task', 'Pay', failedWith, 15),
    entered('Fail', 'Declined', failedWith, 16),
    { type: 'ExecutionFailed', id: 17, previousEventId: 16, executionFailedEventDetails: { error: 'OrderDeclined', cause: 'the card was declined' } },
  ]);
  const { executions = [] } = await sfn.send(new ListExecutionsCommand({ stateMachineArn: outputs.OrderFlowArn, statusFilter: 'FAILED' }));
  assert.equal(executions.map((execution) => execution.name), ['big-order']);
});

flows('service integrations: DynamoDB put and get, SQS send, lambda:invoke with its result wrapper, Parallel, Map with ItemSelector and a Wait', async ({ t, sfn, outputs }) => {
  const done = await run(sfn, outputs.IntegrationsArn, { id: 'o-1', total: 21, items: [1, 2, 3] });
  assert.is(done.status, 'SUCCEEDED', done.cause);
  const output = JSON.parse(done.output!);
  const { Payload, StatusCode, ExecutedVersion, SdkHttpMetadata, SdkResponseMetadata } = output.invoked;
  assert.equal([Payload, StatusCode, ExecutedVersion, SdkHttpMetadata.HttpStatusCode, typeof SdkResponseMetadata.RequestId], [42, 200, '$LATEST', 200, 'string']);
  assert.equal({ ...output, invoked: undefined }, { id: 'o-1', total: 21, items: [1, 2, 3], saved: { total: '21' }, notified: { sent: 1 }, invoked: undefined, fanned: [[2, 4, 6], 22] });
  const dynamodb = new DynamoDBClient({ ...t.config, maxAttempts: 1 });
  const { Item } = await dynamodb.send(new GetItemCommand({ TableName: 'orders', Key: { id: { S: 'o-1' } } }));
  dynamodb.destroy();
  assert.equal(Item, { id: { S: 'o-1' }, total: { N: '21' } });
  const sqs = new SQSClient({ ...t.config, maxAttempts: 1 });
  const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: `${t.cloud.url}/000000000000/jobs` }));
  sqs.destroy();
  assert.equal(Messages.map((message) => message.Body), [JSON.stringify({ order: 'o-1', total: '21' })]);
});

const passThrough = (states: Record<string, unknown>, startAt = Object.keys(states)[0]) => JSON.stringify({ StartAt: startAt, States: states });

flows('Retry runs a failing task again (IntervalSeconds × BackoffRate^n) up to MaxAttempts; past it the error goes to Catch, States.TaskFailed matching it', async ({ sfn, scratch }) => {
  const definition = passThrough({
    Call: {
      Type: 'Task',
      Resource: 'arn:aws:lambda:us-east-1:000000000000:function:app-dev-flaky',
      Retry: [{ ErrorEquals: ['Busy'], IntervalSeconds: 1, BackoffRate: 1, MaxAttempts: 2 }],
      Catch: [{ ErrorEquals: ['States.TaskFailed'], Next: 'Gave up' }],
      End: true,
    },
    'Gave up': { Type: 'Pass', Parameters: { 'error.$': '$.Error' }, End: true },
  });
  const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: 'retrying', definition, roleArn: ROLE }));
  const began = Date.now();
  const recovered = await run(sfn, stateMachineArn!, { file: join(scratch, 'twice'), failures: 2 });
  const took = Date.now() - began;
  assert.equal([recovered.status, recovered.output], ['SUCCEEDED', JSON.stringify({ attempts: 3 })]);
  assert.ok(took >= 2000 && took < 6000, `two 1-second retries took ${took} ms`);
  const events = await history(sfn, recovered.executionArn!);
  assert.equal(events.map((event) => (event as { type: string }).type), ['ExecutionStarted', 'TaskStateEntered', 'LambdaFunctionScheduled', 'LambdaFunctionStarted', 'LambdaFunctionFailed', 'LambdaFunctionScheduled', 'LambdaFunctionStarted', 'LambdaFunctionFailed', 'LambdaFunctionScheduled', 'LambdaFunctionStarted', 'LambdaFunctionSucceeded', 'TaskStateExited', 'ExecutionSucceeded']);
  const gaveUp = await run(sfn, stateMachineArn!, { file: join(scratch, 'always'), failures: 9 });
  assert.equal([gaveUp.status, gaveUp.output], ['SUCCEEDED', JSON.stringify({ error: 'Busy' })]);
});

flows('the API answers as AWS does: InvalidDefinition with each problem and where, unknown machines and executions, a taken execution name, validation diagnostics', async ({ sfn, outputs }) => {
  const broken = passThrough({ First: { Type: 'Pass', Next: 'Missing' }, Lost: { Type: 'Succeed' } });
  const invalid = await failure(sfn.send(new CreateStateMachineCommand({ name: 'broken', definition: broken, roleArn: ROLE })));
  assert.equal([invalid?.name, invalid?.message], ['InvalidDefinition', "Invalid State Machine Definition: 'MISSING_TRANSITION_TARGET: Missing 'Next' target: Missing at /States/First/Next, UNREACHABLE_STATE: State \"Lost\" is not reachable. at /States/Lost'"]);
  const { result, diagnostics } = await sfn.send(new ValidateStateMachineDefinitionCommand({ definition: '{"StartAt": ', type: 'STANDARD' }));
  assert.equal([result, diagnostics?.map((diagnostic) => [diagnostic.severity, diagnostic.code])], ['FAIL', [['ERROR', 'INVALID_JSON_DESCRIPTION']]]);
  const ok = await sfn.send(new ValidateStateMachineDefinitionCommand({ definition: passThrough({ Only: { Type: 'Succeed' } }) }));
  assert.equal([ok.result, ok.diagnostics], ['OK', []]);
  const missing = 'arn:aws:states:us-east-1:000000000000:stateMachine:nothing';
  const notThere = await failure(sfn.send(new StartExecutionCommand({ stateMachineArn: missing })));
  assert.equal([notThere?.name, notThere?.message, notThere?.$metadata?.httpStatusCode], ['StateMachineDoesNotExist', `State Machine Does Not Exist: '${missing}'`, 400]);
  const noExecution = await failure(sfn.send(new DescribeExecutionCommand({ executionArn: 'arn:aws:states:us-east-1:000000000000:execution:order-flow:never' })));
  assert.equal([noExecution?.name, noExecution?.message], ['ExecutionDoesNotExist', "Execution Does Not Exist: 'arn:aws:states:us-east-1:000000000000:execution:order-flow:never'"]);
  const taken = await failure(sfn.send(new StartExecutionCommand({ stateMachineArn: outputs.OrderFlowArn, name: 'small-order', input: '{}' })));
  assert.equal([taken?.name, taken?.message], ['ExecutionAlreadyExists', "Execution Already Exists: 'arn:aws:states:us-east-1:000000000000:execution:order-flow:small-order'"]);
  const badInput = await failure(sfn.send(new StartExecutionCommand({ stateMachineArn: outputs.OrderFlowArn, input: '{nope' })));
  assert.is(badInput?.name, 'InvalidExecutionInput');
  const badArn = await failure(sfn.send(new DescribeStateMachineCommand({ stateMachineArn: 'arn:aws:sqs:us-east-1:000000000000:jobs' })));
  assert.is(badArn?.name, 'InvalidArn');
  const sync = await failure(sfn.send(new StartSyncExecutionCommand({ stateMachineArn: outputs.OrderFlowArn })));
  assert.equal([sync?.name, sync?.message], ['StateMachineTypeNotSupported', 'This operation is not supported by this type of state machine']);
});

flows('a .waitForTaskToken task waits for SendTaskSuccess with the token it sent; StopExecution aborts a waiting execution', async ({ t, sfn }) => {
  const definition = passThrough({
    Ask: { Type: 'Task', Resource: 'arn:aws:states:::sqs:sendMessage.waitForTaskToken', Parameters: { QueueUrl: 'https://sqs.us-east-1.amazonaws.com/000000000000/jobs', MessageBody: { 'token.$': '$$.Task.Token', 'who.$': '$.who' } }, ResultPath: '$.answer', End: true },
  });
  const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: 'approval', definition, roleArn: ROLE }));
  const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify({ who: 'ops' }) }));
  const sqs = new SQSClient({ ...t.config, maxAttempts: 1 });
  const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: `${t.cloud.url}/000000000000/jobs`, WaitTimeSeconds: 5 }));
  const body = JSON.parse(Messages[0].Body!) as { token: string; who: string };
  assert.is(body.who, 'ops');
  assert.is((await sfn.send(new DescribeExecutionCommand({ executionArn }))).status, 'RUNNING');
  await sfn.send(new SendTaskSuccessCommand({ taskToken: body.token, output: JSON.stringify({ approved: true }) }));
  const done = await finished(sfn, executionArn!);
  assert.equal([done.status, done.output], ['SUCCEEDED', JSON.stringify({ who: 'ops', answer: { approved: true } })]);
  const unknown = await failure(sfn.send(new SendTaskSuccessCommand({ taskToken: body.token, output: '{}' })));
  assert.is(unknown?.name, 'TaskDoesNotExist');
  const second = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify({ who: 'dev' }) }));
  await sqs.send(new ReceiveMessageCommand({ QueueUrl: `${t.cloud.url}/000000000000/jobs`, WaitTimeSeconds: 5 }));
  sqs.destroy();
  await sfn.send(new StopExecutionCommand({ executionArn: second.executionArn, error: 'Cancelled', cause: 'nobody answered' }));
  const stopped = await sfn.send(new DescribeExecutionCommand({ executionArn: second.executionArn }));
  assert.equal([stopped.status, stopped.error, stopped.cause], ['ABORTED', 'Cancelled', 'nobody answered']);
  const events = await history(sfn, second.executionArn!);
  assert.equal(events.at(-1), { type: 'ExecutionAborted', id: events.length, previousEventId: events.length - 1, executionAbortedEventDetails: { error: 'Cancelled', cause: 'nobody answered' } });
});

flows('an EXPRESS machine answers StartSyncExecution with the whole result; Map over a Choice with every comparison kind and intrinsic functions', async ({ sfn }) => {
  const definition = passThrough({
    Each: {
      Type: 'Map',
      ItemsPath: '$.values',
      Iterator: {
        StartAt: 'Kind',
        States: {
          Kind: {
            Type: 'Choice',
            Choices: [
              { Variable: '$', IsNumeric: true, Next: 'Number' },
              { Or: [{ Variable: '$', StringEquals: 'yes' }, { Variable: '$', TimestampGreaterThan: '2020-01-01T00:00:00Z' }], Next: 'Marked' },
              { Variable: '$', IsNull: true, Next: 'Nothing' },
            ],
            Default: 'Other',
          },
          Number: { Type: 'Pass', Parameters: { 'n.$': 'States.MathAdd($, 1)' }, End: true },
          Marked: { Type: 'Pass', Parameters: { 'marked.$': "States.Format('<{}>', $)" }, End: true },
          Nothing: { Type: 'Pass', Result: 'null', End: true },
          Other: { Type: 'Pass', Parameters: { 'json.$': 'States.JsonToString($)' }, End: true },
        },
      },
      End: true,
    },
  });
  const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: 'kinds', definition, roleArn: ROLE, type: 'EXPRESS' }));
  const { $metadata: _, startDate, stopDate, executionArn, billingDetails, ...result } = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn, name: 'sorting', input: JSON.stringify({ values: [1, 'yes', '2024-05-01T10:00:00Z', null, { a: true }] }) }));
  assert.instance(startDate, Date);
  assert.instance(stopDate, Date);
  assert.match(executionArn!, /^arn:aws:states:us-east-1:000000000000:express:kinds:sorting:[0-9a-f-]{36}$/);
  assert.ok(billingDetails!.billedDurationInMilliseconds! >= 100);
  assert.equal(result, {
    stateMachineArn,
    name: 'sorting',
    status: 'SUCCEEDED',
    input: JSON.stringify({ values: [1, 'yes', '2024-05-01T10:00:00Z', null, { a: true }] }),
    inputDetails: { included: true },
    output: JSON.stringify([{ n: 2 }, { marked: '<yes>' }, { marked: '<2024-05-01T10:00:00Z>' }, 'null', { json: '{"a":true}' }]),
    outputDetails: { included: true },
  });
});

flows('a stack update changes the definition in place; deleting the stack deletes its state machines', async ({ t, sfn, outputs }) => {
  const changed = { ...template, Resources: { ...template.Resources, OrderFlow: { ...template.Resources.OrderFlow, Properties: { ...template.Resources.OrderFlow.Properties, DefinitionString: passThrough({ Only: { Type: 'Pass', Result: { v: 2 }, End: true } }) } } } };
  const { StackId } = await t.cfn.send(new UpdateStackCommand({ StackName: 'app-dev', TemplateBody: JSON.stringify(changed) }));
  assert.is((await settle(t.cfn, 'app-dev')).StackStatus, 'UPDATE_COMPLETE');
  const done = await run(sfn, outputs.OrderFlowArn, {});
  assert.equal([done.status, done.output], ['SUCCEEDED', '{"v":2}']);
  await sfn.send(new UpdateStateMachineCommand({ stateMachineArn: outputs.OrderFlowArn, definition: passThrough({ Only: { Type: 'Pass', Result: { v: 3 }, End: true } }) }));
  assert.is((await run(sfn, outputs.OrderFlowArn, {})).output, '{"v":3}');
  await sfn.send(new DeleteStateMachineCommand({ stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:kinds' }));
  await t.cfn.send(new DeleteStackCommand({ StackName: 'app-dev' }));
  assert.is((await settle(t.cfn, StackId!)).StackStatus, 'DELETE_COMPLETE');
  const { stateMachines = [] } = await sfn.send(new ListStateMachinesCommand({}));
  assert.equal(stateMachines.map((machine) => machine.name).sort(), ['approval', 'retrying']);
});

flows.run();

const restart = suite('Step Functions executions across a restart');

restart('an execution running when the local cloud stops is FAILED with States.Runtime on the next start; finished ones keep their history', async () => {
  let t = await startTestCloud();
  let sfn = new SFNClient({ ...t.config, maxAttempts: 1 });
  const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: 'slow', definition: passThrough({ Nap: { Type: 'Wait', Seconds: 60, End: true } }), roleArn: ROLE }));
  const quick = await sfn.send(new CreateStateMachineCommand({ name: 'quick', definition: passThrough({ Only: { Type: 'Pass', End: true } }), roleArn: ROLE }));
  const finishedBefore = await run(sfn, quick.stateMachineArn!, { kept: true });
  const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, name: 'napping' }));
  sfn.destroy();
  await t.stop({ keepData: true });
  t = await startTestCloud(t.dataDir);
  sfn = new SFNClient({ ...t.config, maxAttempts: 1 });
  try {
    const after = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    assert.equal([after.status, after.error, after.cause], ['FAILED', 'States.Runtime', 'The local cloud stopped while this execution ran; executions are not resumed after a restart.']);
    const events = await history(sfn, executionArn!);
    assert.equal(events.map((event) => (event as { type: string }).type), ['ExecutionStarted', 'WaitStateEntered', 'ExecutionFailed']);
    const kept = await sfn.send(new DescribeExecutionCommand({ executionArn: finishedBefore.executionArn }));
    assert.equal([kept.status, kept.output], ['SUCCEEDED', '{"kept":true}']);
  } finally {
    sfn.destroy();
    await t.stop();
  }
});

restart.run();
