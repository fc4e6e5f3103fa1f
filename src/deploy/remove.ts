import { DeleteStackCommand, ListStacksCommand, type StackSummary } from '@aws-sdk/client-cloudformation';
import { CloudError, StackError } from '../errors';
import type { LoadedService } from '../service/load';
import { describeAwsError, type AwsClients } from '../aws/clients';
import { deletePrefix } from './bucket';
import type { Reporter } from './deploy';
import { deploymentBucketOf, describeStack, monitorStack } from './stack';

/**
 * `fw remove`: empty this service and stage's objects from the deployment bucket
 * (the stack cannot delete a bucket that holds objects), then delete the stack and follow it,
 * then the nested stacks an interrupted deploy left behind without a parent.
 */
export async function removeService(loaded: LoadedService, clients: AwsClients, reporter: Reporter): Promise<void> {
  const { stackName } = loaded;
  const stack = await describeStack(clients, stackName);
  if (!stack || stack.StackStatus === 'DELETE_COMPLETE') {
    // The stack is gone, but a crash may have left nested stacks of it whose functions block the next deploy.
    if (await removeOrphanedNestedStacks(clients, stackName, reporter)) return;
    throw new CloudError(`Stack ${stackName} does not exist in ${loaded.region}: the service is not deployed for stage ${loaded.stage}`);
  }
  const provider = loaded.config.provider;
  const namedBucket = typeof provider.deploymentBucket === 'string' ? provider.deploymentBucket : provider.deploymentBucket?.name;
  const bucket = deploymentBucketOf(stack, namedBucket);
  if (bucket) {
    const prefix = `${provider.deploymentPrefix ?? 'serverless'}/${loaded.serviceName}/${loaded.stage}/`;
    const count = await deletePrefix(clients, bucket, prefix).catch(error => {
      if (/NoSuchBucket/.test(`${(error as Error).name} ${(error as Error).message}`)) return 0;
      throw error;
    });
    reporter.info(`Removed ${count} object${count === 1 ? '' : 's'} from s3://${bucket}/${prefix}`);
  }
  const since = new Date();
  await clients.cloudFormation.send(new DeleteStackCommand({ StackName: stackName }));
  reporter.info(`Deleting stack ${stackName}`);
  const result = await monitorStack(clients, stackName, {
    since,
    onEvent: event => reporter.event(event),
    onProgress: (done, total) => reporter.progress(`Deleting stack (${done}/${total} resources)`),
    expectedResources: 0,
  });
  if (result.status !== 'DELETE_COMPLETE') {
    const cause = result.firstFailure ? `${result.firstFailure.LogicalResourceId} failed: ${(result.firstFailure.ResourceStatusReason ?? 'no reason given').replace(/\.$/, '')}` : result.status;
    throw new StackError(`Removing stack ${stackName} failed: ${cause}. The stack is in ${result.status}.`, stackName, result.status, StackError.resourceOf(result.firstFailure));
  }
  await removeOrphanedNestedStacks(clients, stackName, reporter);
  await removeImageRepository(loaded, clients, reporter);
}

/**
 * The ECR repository fw pushes built container images to (`serverless-<service>-<stage>`), with its
 * images, once the stack is gone, as `serverless remove` does. Looked for whatever the service file
 * says now (an image may have been built by an earlier version of it); a failure to look matters
 * only for a service that builds images.
 */
async function removeImageRepository(loaded: LoadedService, clients: AwsClients, reporter: Reporter): Promise<void> {
  const { EcrRegistry } = require('../package/images/registry') as typeof import('../package/images/registry');
  const registry = new EcrRegistry(clients.target);
  const repository = `serverless-${loaded.serviceName}-${loaded.stage}`;
  const buildsImages = Object.values((loaded.config.provider.ecr as { images?: Record<string, unknown> } | undefined)?.images ?? {}).some(
    image => typeof image === 'string' || (typeof image === 'object' && image !== null && 'path' in image),
  );
  try {
    if (!(await registry.hasRepository(repository))) return;
    await registry.deleteRepository(repository);
  } catch (error) {
    if (!buildsImages) return;
    throw describeAwsError(error, `removing the image repository ${repository}`, clients.target);
  }
  reporter.info(`Removed the image repository ${repository}`);
}

/** The stack name inside a stack ARN (`arn:aws:cloudformation:<region>:<account>:stack/<name>/<uuid>`). */
const stackNameOf = (stackId: string | undefined) => stackId?.split(':stack/')[1]?.split('/')[0];

/**
 * Deletes the live nested stacks whose root is a stack of this name (fw names them `<stack>-<LogicalId>-<suffix>`),
 * once that stack is deleted: no parent lists them any more, so nothing else would. Returns how many it deleted.
 */
export async function removeOrphanedNestedStacks(clients: AwsClients, stackName: string, reporter: Reporter): Promise<number> {
  const orphans = (await liveStacks(clients)).filter(
    summary => summary.StackName?.startsWith(`${stackName}-`) && (stackNameOf(summary.RootId) ?? stackNameOf(summary.ParentId)) === stackName,
  );
  const orphanIds = new Set(orphans.map(orphan => orphan.StackId));
  // A nested stack goes with its parent: only the topmost orphans are deleted directly.
  const topmost = orphans.filter(orphan => !orphanIds.has(orphan.ParentId));
  for (const orphan of topmost) {
    reporter.info(`Deleting nested stack ${orphan.StackName}, left without its parent by an interrupted deploy`);
    const since = new Date();
    await clients.cloudFormation.send(new DeleteStackCommand({ StackName: orphan.StackId }));
    const result = await monitorStack(clients, orphan.StackId!, { since, onEvent: event => reporter.event(event) });
    if (result.status !== 'DELETE_COMPLETE') {
      throw new CloudError(`Removing nested stack ${orphan.StackName} of ${stackName} failed: it is in ${result.status}.`);
    }
  }
  return topmost.length;
}

const LIVE_STATUSES = [
  'CREATE_IN_PROGRESS', 'CREATE_FAILED', 'CREATE_COMPLETE', 'ROLLBACK_IN_PROGRESS', 'ROLLBACK_FAILED', 'ROLLBACK_COMPLETE',
  'DELETE_IN_PROGRESS', 'DELETE_FAILED', 'UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_COMPLETE',
  'UPDATE_FAILED', 'UPDATE_ROLLBACK_IN_PROGRESS', 'UPDATE_ROLLBACK_FAILED', 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
  'UPDATE_ROLLBACK_COMPLETE', 'REVIEW_IN_PROGRESS', 'IMPORT_IN_PROGRESS', 'IMPORT_COMPLETE', 'IMPORT_ROLLBACK_IN_PROGRESS',
  'IMPORT_ROLLBACK_FAILED', 'IMPORT_ROLLBACK_COMPLETE',
];

async function liveStacks(clients: AwsClients): Promise<StackSummary[]> {
  const stacks: StackSummary[] = [];
  let nextToken: string | undefined;
  do {
    const page = await clients.cloudFormation.send(new ListStacksCommand({ StackStatusFilter: LIVE_STATUSES as never, NextToken: nextToken }));
    stacks.push(...(page.StackSummaries ?? []));
    nextToken = page.NextToken;
  } while (nextToken);
  return stacks;
}
