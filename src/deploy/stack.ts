import {
  DeleteStackCommand,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  type Stack,
  type StackEvent,
} from '@aws-sdk/client-cloudformation';
import { CloudError } from '../errors';
import type { AwsClients } from '../aws/clients';
import type { Reporter } from './deploy';

export async function describeStack(clients: AwsClients, stackName: string): Promise<Stack | undefined> {
  try {
    const result = await clients.cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    return result.Stacks?.[0];
  } catch (error) {
    if (/does not exist/.test((error as Error).message ?? '')) return undefined;
    throw error;
  }
}

/** The bucket a deployed stack keeps its artifacts in: its own (an Output), or the one named in the config. */
export function deploymentBucketOf(stack: Stack | undefined, namedBucket?: string): string | undefined {
  return stack?.Outputs?.find(output => output.OutputKey === 'ServerlessDeploymentBucketName')?.OutputValue ?? namedBucket;
}

export const isInProgress = (status: string | undefined) => Boolean(status?.endsWith('_IN_PROGRESS'));
export const isFailure = (status: string | undefined) => Boolean(status && /(FAILED|ROLLBACK_COMPLETE|ROLLBACK_IN_PROGRESS)$/.test(status));

export interface MonitorOptions {
  /** Only events after this instant belong to the operation being followed. */
  since: Date;
  /** The newest event before the operation started: it and older ones are not the operation's (clocks can differ). */
  after?: string;
  onEvent?: (event: StackEvent) => void;
  onProgress?: (done: number, total: number, status: string) => void;
  /** Resources the operation touches (its nested stacks' too), for the progress line. */
  expectedResources?: number;
  /** Count the resources of nested stacks as they finish (their events are read too, for the count only). */
  countNested?: boolean;
  pollMs?: number;
  signal?: AbortSignal;
}

export interface MonitorResult {
  status: string;
  /** The first resource that failed, with CloudFormation's reason. */
  firstFailure?: StackEvent;
}

/**
 * Follows a stack operation until a final state, reporting each new event.
 * Polls about once a second (backing off when throttled), as fast as the local cloud allows.
 */
export async function monitorStack(clients: AwsClients, stackName: string, options: MonitorOptions): Promise<MonitorResult> {
  const seen = new Set<string>();
  const finished = new Set<string>();
  /** Nested stacks by id (countNested): their resources that finished, their events already read. */
  const nested = new Map<string, { logicalId: string; seen: Set<string>; finished: Set<string>; last: boolean }>();
  let firstFailure: StackEvent | undefined;
  let delay = options.pollMs ?? 1000;
  let fastPolls = 5;
  for (;;) {
    if (options.signal?.aborted) throw new Error('interrupted');
    let events: StackEvent[] = [];
    let stackStatus: string | undefined;
    try {
      events = await newEvents(clients, stackName, options.since, seen, options.after).catch(error => {
        // A deleted stack (by name) has no events to read any more: its status below says DELETE_COMPLETE.
        if (/does not exist/.test((error as Error).message ?? '')) return [];
        throw error;
      });
      const stack = await describeStack(clients, stackName);
      stackStatus = stack?.StackStatus ?? 'DELETE_COMPLETE';
    } catch (error) {
      if ((error as { name?: string }).name === 'Throttling' || /Rate exceeded/i.test((error as Error).message)) {
        delay = Math.min(delay * 2, 10000);
        await sleep(delay);
        continue;
      }
      throw error;
    }
    for (const event of events) {
      options.onEvent?.(event);
      if (event.LogicalResourceId !== stackName && /_COMPLETE$|_FAILED$|SKIPPED$/.test(event.ResourceStatus ?? '')) {
        finished.add(event.LogicalResourceId!);
      }
      if (!firstFailure && event.ResourceStatus?.endsWith('_FAILED') && event.LogicalResourceId !== stackName) firstFailure = event;
      const isNestedStack = event.ResourceType === 'AWS::CloudFormation::Stack' && event.LogicalResourceId !== stackName && event.PhysicalResourceId;
      if (options.countNested && isNestedStack && !nested.has(event.PhysicalResourceId!)) {
        nested.set(event.PhysicalResourceId!, { logicalId: event.LogicalResourceId!, seen: new Set(), finished: new Set(), last: false });
      }
    }
    await Promise.all(
      [...nested].filter(([, stack]) => !stack.last).map(async ([id, stack]) => {
        // Once the parent saw the nested stack finish, its events are read one last time; a failed read only delays the count.
        stack.last = finished.has(stack.logicalId);
        for (const event of await newEvents(clients, id, options.since, stack.seen).catch(() => [])) {
          if (event.LogicalResourceId !== event.StackName && /_COMPLETE$|_FAILED$|SKIPPED$/.test(event.ResourceStatus ?? '')) stack.finished.add(event.LogicalResourceId!);
        }
      }),
    );
    const done = finished.size + [...nested.values()].reduce((sum, stack) => sum + stack.finished.size, 0);
    const total = Math.max(options.expectedResources ?? 0, done);
    // Resources the operation had nothing to do for send no event: a finished operation is every one of them.
    options.onProgress?.(/^(CREATE|UPDATE|DELETE)_COMPLETE$/.test(stackStatus) ? total : done, total, stackStatus);
    if (!isInProgress(stackStatus)) return { status: stackStatus, firstFailure };
    // Short operations (the local cloud, small stacks) finish in well under a second.
    await sleep(fastPolls-- > 0 ? 150 : delay);
  }
}

/** Events since `since` not seen before, oldest first (the API pages newest first). */
async function newEvents(clients: AwsClients, stackName: string, since: Date, seen: Set<string>, after?: string): Promise<StackEvent[]> {
  const fresh: StackEvent[] = [];
  let nextToken: string | undefined;
  do {
    const page = await clients.cloudFormation.send(new DescribeStackEventsCommand({ StackName: stackName, NextToken: nextToken }));
    let reachedOld = false;
    for (const event of page.StackEvents ?? []) {
      if (event.Timestamp && event.Timestamp.getTime() < since.getTime() - 1000) {
        reachedOld = true;
        break;
      }
      if (seen.has(event.EventId!) || event.EventId === after) {
        reachedOld = true;
        break;
      }
      fresh.push(event);
    }
    nextToken = reachedOld ? undefined : page.NextToken;
  } while (nextToken);
  for (const event of fresh) seen.add(event.EventId!);
  return fresh.reverse();
}

export const sleep = (ms: number) => new Promise<void>(resolve => setTimeout(resolve, ms));

/** The id of a stack's newest event (none for a stack that does not exist). */
export async function latestEventId(clients: AwsClients, stackName: string): Promise<string | undefined> {
  try {
    const page = await clients.cloudFormation.send(new DescribeStackEventsCommand({ StackName: stackName }));
    return page.StackEvents?.[0]?.EventId;
  } catch {
    return undefined;
  }
}

/**
 * A stack whose first creation was rolled back (ROLLBACK_COMPLETE) holds no resources and
 * CloudFormation can only delete it: deleted here, so that the deploy creates it again.
 */
export async function deleteRolledBackStack(clients: AwsClients, stackName: string, reporter: Reporter, signal?: AbortSignal): Promise<void> {
  reporter.info(`Stack ${stackName} is in ROLLBACK_COMPLETE (its creation failed and was rolled back): deleting it to create it again`);
  const since = new Date();
  await clients.cloudFormation.send(new DeleteStackCommand({ StackName: stackName }));
  const result = await monitorStack(clients, stackName, { since, signal, onEvent: event => reporter.event(event) });
  if (result.status !== 'DELETE_COMPLETE') {
    throw new CloudError(`Deleting stack ${stackName} (in ROLLBACK_COMPLETE) before creating it again failed: it is in ${result.status}. Run "fw remove", then deploy.`);
  }
}
