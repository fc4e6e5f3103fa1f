import {
  GetFunctionCommand,
  UpdateFunctionCodeCommand,
  UpdateFunctionConfigurationCommand,
  type FunctionConfiguration,
} from '@aws-sdk/client-lambda';
import { CloudError } from '../errors';
import { functionOf } from '../package/load';
import type { PackagedService } from '../package/service';
import * as naming from '../synth/naming';
import { lambdaClient, type AwsClients } from './aws';
import { uploadAll } from './bucket';
import type { Reporter } from './deploy';
import { deploymentBucketOf, describeStack } from './stack';

export type FunctionUpdate = 'code' | 'configuration';

/** The configuration fields `deploy function` can change in place, as the template writes them. */
function desiredConfiguration(packaged: PackagedService, key: string): Record<string, unknown> {
  const resource = packaged.template.Resources[naming.lambdaFunction(key)];
  const properties = (resource?.Properties ?? {}) as Record<string, unknown>;
  const desired: Record<string, unknown> = {};
  for (const name of ['Handler', 'Runtime', 'MemorySize', 'Timeout', 'Description']) {
    if (properties[name] !== undefined && typeof properties[name] !== 'object') desired[name] = properties[name];
  }
  const variables = (properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
  // Values that CloudFormation resolves (Ref, Fn::GetAtt) cannot be set directly: those need a full deploy.
  if (variables && Object.values(variables).every(value => typeof value !== 'object')) {
    desired.Environment = { Variables: Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, String(v)])) };
  }
  return desired;
}

function changedFields(current: FunctionConfiguration, desired: Record<string, unknown>): string[] {
  return Object.keys(desired).filter(name => {
    const now = (current as Record<string, unknown>)[name];
    if (name === 'Environment') return JSON.stringify(current.Environment?.Variables ?? {}) !== JSON.stringify((desired.Environment as { Variables: object }).Variables);
    if (name === 'Description') return (now ?? '') !== desired[name];
    return now !== desired[name];
  });
}

/**
 * `fw deploy function -f NAME`: updates one deployed function's code and configuration
 * directly through the Lambda API, without a stack update. What changed is returned.
 */
export async function deployFunction(packaged: PackagedService, key: string, clients: AwsClients, reporter: Reporter): Promise<FunctionUpdate[]> {
  const { physicalName } = functionOf(packaged, key);
  const stack = await describeStack(clients, packaged.stackName);
  if (!stack) throw new CloudError(`Stack ${packaged.stackName} does not exist in ${packaged.region}: run "fw deploy" first`);
  const lambda = lambdaClient(clients.target);
  let current: FunctionConfiguration;
  try {
    current = (await lambda.send(new GetFunctionCommand({ FunctionName: physicalName }))).Configuration ?? {};
  } catch (error) {
    if ((error as { name?: string }).name === 'ResourceNotFoundException') {
      throw new CloudError(`Function ${physicalName} is not deployed yet: run "fw deploy" to create it`);
    }
    throw error;
  }

  const updates: FunctionUpdate[] = [];
  const artifact = packaged.artifacts.functions[key];
  if (artifact && artifact.codeSha256 !== current.CodeSha256) {
    const bucket = deploymentBucketOf(stack, packaged.state.deploymentBucket);
    if (!bucket) throw new CloudError(`Stack ${packaged.stackName} has no ServerlessDeploymentBucketName output: cannot find where to upload`);
    const keyInBucket = `${packaged.state.artifactDirectory}/${artifact.name}`;
    await uploadAll(clients, bucket, [{ key: keyInBucket, file: artifact.path, sha256: artifact.sha256 }]);
    await lambda.send(new UpdateFunctionCodeCommand({ FunctionName: physicalName, S3Bucket: bucket, S3Key: keyInBucket }));
    updates.push('code');
    reporter.info(`Updated the code of ${physicalName}`);
  }
  const desired = desiredConfiguration(packaged, key);
  const changed = changedFields(current, desired);
  if (changed.length > 0) {
    await lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: physicalName, ...Object.fromEntries(changed.map(name => [name, desired[name]])) }));
    updates.push('configuration');
    reporter.info(`Updated the configuration of ${physicalName}: ${changed.join(', ')}`);
  }
  return updates;
}
