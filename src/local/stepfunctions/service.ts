import { AwsError } from '../protocol/errors';
import { jsonResponse, type LocalResponse } from '../http';
import { diagnose } from './definition';
import type { StepFunctions } from './step-functions';
import type { ExecutionRecord, StateMachineRecord } from './store';

const JSON_10 = 'application/x-amz-json-1.0';

/** AWS's answer to a missing member, as its JSON services word it. */
function required(input: Record<string, unknown>, name: string): string {
  const value = input[name];
  if (value === undefined || value === null) throw new AwsError('ValidationException', `1 validation error detected: Value null at '${name}' failed to satisfy constraint: Member must not be null`);
  return String(value);
}

/** A page of `items` from `nextToken` (an offset), at most `maxResults` (1000 when 0 or absent). */
function page<T>(items: T[], input: Record<string, unknown>): { items: T[]; nextToken?: string } {
  const start = input.nextToken === undefined ? 0 : Number(input.nextToken);
  if (!Number.isInteger(start) || start < 0) throw new AwsError('InvalidToken', `Invalid Token: '${String(input.nextToken)}'`);
  const size = Number(input.maxResults ?? 0) || 1000;
  return { items: items.slice(start, start + size), nextToken: start + size < items.length ? String(start + size) : undefined };
}

function describeMachine(machine: StateMachineRecord): Record<string, unknown> {
  return {
    stateMachineArn: machine.stateMachineArn,
    name: machine.name,
    status: 'ACTIVE',
    definition: machine.definition,
    roleArn: machine.roleArn,
    type: machine.type,
    creationDate: machine.creationDate,
    loggingConfiguration: machine.loggingConfiguration,
    tracingConfiguration: machine.tracingConfiguration,
  };
}

function listedExecution(execution: ExecutionRecord): Record<string, unknown> {
  const { executionArn, stateMachineArn, name, status, startDate, stopDate } = execution;
  return { executionArn, stateMachineArn, name, status, startDate, stopDate };
}

function describeExecution(execution: ExecutionRecord): Record<string, unknown> {
  return {
    ...listedExecution(execution),
    input: execution.input,
    inputDetails: { included: true },
    ...(execution.output !== undefined ? { output: execution.output, outputDetails: { included: true } } : {}),
    error: execution.error,
    cause: execution.cause,
    redriveCount: 0,
    redriveStatus: 'NOT_REDRIVABLE',
  };
}

/** AWS Step Functions (JSON 1.0, `X-Amz-Target: AWSStepFunctions.<Operation>`). */
export async function stepFunctionsApi(stepFunctions: StepFunctions, operation: string, input: Record<string, unknown>, region: string): Promise<LocalResponse> {
  const respond = (body: Record<string, unknown>) => jsonResponse(body, 200, JSON_10);
  switch (operation) {
    case 'CreateStateMachine': {
      const machine = stepFunctions.create(
        {
          name: required(input, 'name'),
          definition: required(input, 'definition'),
          roleArn: required(input, 'roleArn'),
          type: input.type as StateMachineRecord['type'] | undefined,
          loggingConfiguration: input.loggingConfiguration as Record<string, unknown> | undefined,
          tracingConfiguration: input.tracingConfiguration as Record<string, unknown> | undefined,
          tags: input.tags as StateMachineRecord['tags'] | undefined,
        },
        region,
      );
      return respond({ stateMachineArn: machine.stateMachineArn, creationDate: machine.creationDate });
    }
    case 'DescribeStateMachine':
      return respond(describeMachine(stepFunctions.machine(required(input, 'stateMachineArn'))));
    case 'ListStateMachines': {
      const machines = stepFunctions.store.stateMachines().filter((machine) => machine.stateMachineArn.split(':')[3] === region);
      const { items, nextToken } = page(machines, input);
      return respond({ stateMachines: items.map(({ stateMachineArn, name, type, creationDate }) => ({ stateMachineArn, name, type, creationDate })), nextToken });
    }
    case 'UpdateStateMachine': {
      const changes = {
        definition: input.definition as string | undefined,
        roleArn: input.roleArn as string | undefined,
        loggingConfiguration: input.loggingConfiguration as Record<string, unknown> | undefined,
        tracingConfiguration: input.tracingConfiguration as Record<string, unknown> | undefined,
      };
      if (Object.values(changes).every((value) => value === undefined)) throw new AwsError('MissingRequiredParameter', 'Either the definition, the role ARN, the LoggingConfiguration, or the TracingConfiguration must be specified');
      const machine = stepFunctions.update(required(input, 'stateMachineArn'), changes);
      return respond({ updateDate: machine.updateDate });
    }
    case 'DeleteStateMachine':
      stepFunctions.delete(required(input, 'stateMachineArn'));
      return respond({});
    case 'StartExecution': {
      const { execution } = stepFunctions.start(required(input, 'stateMachineArn'), input.input as string | undefined, input.name as string | undefined, region);
      return respond({ executionArn: execution.executionArn, startDate: execution.startDate });
    }
    case 'StartSyncExecution': {
      const machine = stepFunctions.machine(required(input, 'stateMachineArn'));
      if (machine.type !== 'EXPRESS') throw new AwsError('StateMachineTypeNotSupported', 'This operation is not supported by this type of state machine');
      const { execution, done } = stepFunctions.start(machine.stateMachineArn, input.input as string | undefined, input.name as string | undefined, region);
      await done;
      const billed = Math.max(100, Math.ceil(((execution.stopDate ?? execution.startDate) - execution.startDate) * 1000 / 100) * 100);
      return respond({ ...describeExecution(execution), redriveCount: undefined, redriveStatus: undefined, billingDetails: { billedMemoryUsedInMB: 64, billedDurationInMilliseconds: billed } });
    }
    case 'DescribeExecution':
      return respond(describeExecution(stepFunctions.execution(required(input, 'executionArn'))));
    case 'ListExecutions': {
      const machine = stepFunctions.machine(required(input, 'stateMachineArn'));
      const executions = stepFunctions.store
        .executions(machine.stateMachineArn)
        .filter((execution) => input.statusFilter === undefined || execution.status === input.statusFilter)
        .sort((a, b) => b.startDate - a.startDate);
      const { items, nextToken } = page(executions, input);
      return respond({ executions: items.map(listedExecution), nextToken });
    }
    case 'StopExecution': {
      const execution = stepFunctions.stop(required(input, 'executionArn'), input.error as string | undefined, input.cause as string | undefined);
      return respond({ stopDate: execution.stopDate });
    }
    case 'GetExecutionHistory': {
      const execution = stepFunctions.execution(required(input, 'executionArn'));
      const events = input.reverseOrder === true ? [...execution.events].reverse() : execution.events;
      const { items, nextToken } = page(events, input);
      return respond({ events: items, nextToken });
    }
    case 'ValidateStateMachineDefinition': {
      const diagnostics = diagnose(required(input, 'definition'));
      return respond({ result: diagnostics.length === 0 ? 'OK' : 'FAIL', diagnostics, truncated: false });
    }
    case 'SendTaskSuccess': {
      const output = required(input, 'output');
      let value: unknown;
      try {
        value = JSON.parse(output);
      } catch (error) {
        throw new AwsError('InvalidOutput', `Invalid Output: '${(error as Error).message}'`);
      }
      stepFunctions.settleToken(required(input, 'taskToken'), { output: value });
      return respond({});
    }
    case 'SendTaskFailure':
      stepFunctions.settleToken(required(input, 'taskToken'), { error: (input.error as string | undefined) ?? '', cause: (input.cause as string | undefined) ?? '' });
      return respond({});
    case 'SendTaskHeartbeat':
      stepFunctions.settleToken(required(input, 'taskToken'), 'heartbeat');
      return respond({});
    case 'ListTagsForResource': {
      const arn = required(input, 'resourceArn');
      return respond({ tags: arn.includes(':activity:') ? stepFunctions.activity(arn).tags : stepFunctions.machine(arn).tags });
    }
    case 'CreateActivity': {
      const tags = Array.isArray(input.tags) ? (input.tags as { key: string; value: string }[]) : [];
      const activity = stepFunctions.createActivity(required(input, 'name'), tags, region);
      return respond({ activityArn: activity.activityArn, creationDate: activity.creationDate });
    }
    case 'DescribeActivity': {
      const { activityArn, name, creationDate } = stepFunctions.activity(required(input, 'activityArn'));
      return respond({ activityArn, name, creationDate });
    }
    case 'ListActivities': {
      const { items, nextToken } = page(stepFunctions.store.activities().map(({ activityArn, name, creationDate }) => ({ activityArn, name, creationDate })), input);
      return respond({ activities: items, nextToken });
    }
    case 'DeleteActivity':
      stepFunctions.deleteActivity(required(input, 'activityArn'));
      return respond({});
    case 'GetActivityTask': {
      const task = await stepFunctions.getActivityTask(required(input, 'activityArn'), input.workerName as string | undefined);
      return respond(task);
    }
    default:
      throw new AwsError('UnknownOperationException', `not emulated: Step Functions ${operation}`);
  }
}
