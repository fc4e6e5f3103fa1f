import { DeleteStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudError, StackError } from '../errors';
import type { LoadedService } from '../package/load';
import type { AwsClients } from './aws';
import { deletePrefix } from './bucket';
import type { Reporter } from './deploy';
import { deploymentBucketOf, describeStack, monitorStack } from './stack';

/**
 * `fw remove`: empty this service and stage's objects from the deployment bucket
 * (the stack cannot delete a bucket that holds objects), then delete the stack and follow it.
 */
export async function removeService(loaded: LoadedService, clients: AwsClients, reporter: Reporter): Promise<void> {
  const { stackName } = loaded;
  const stack = await describeStack(clients, stackName);
  if (!stack || stack.StackStatus === 'DELETE_COMPLETE') {
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
}
