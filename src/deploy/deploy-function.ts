import {
  GetFunctionCommand,
  UpdateFunctionCodeCommand,
  UpdateFunctionConfigurationCommand,
  waitUntilFunctionUpdatedV2,
  type FunctionConfiguration,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import { CloudError } from '../errors';
import { functionOf } from '../service/load';
import type { PackagedService } from '../package/service';
import * as naming from '../synth/naming';
import { lambdaClient, type AwsClients } from '../aws/clients';
import { uploadAll } from './bucket';
import { uploadEncryption } from '../package/stack-settings';
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
  // No environment in the template means none on the function: variables removed from the service file go.
  if (Object.values(variables ?? {}).every(value => typeof value !== 'object')) {
    desired.Environment = { Variables: Object.fromEntries(Object.entries(variables ?? {}).map(([k, v]) => [k, String(v)])) };
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
 * directly through the Lambda API, without a stack update (only the configuration with
 * `configOnly`, v3's `--update-config`). What changed is returned.
 */
export async function deployFunction(packaged: PackagedService, key: string, clients: AwsClients, reporter: Reporter, options: { configOnly?: boolean } = {}): Promise<FunctionUpdate[]> {
  functionOf(packaged, key);
  const stack = await describeStack(clients, packaged.stackName);
  if (!stack) throw new CloudError(`Stack ${packaged.stackName} does not exist in ${packaged.region}: run "fw deploy" first`);
  const bucket = deploymentBucketOf(stack, packaged.state.deploymentBucket);
  if (!bucket) throw new CloudError(`Stack ${packaged.stackName} has no ServerlessDeploymentBucketName output: cannot find where to upload`);
  const codeKey = async (artifact: { name: string; path: string; sha256: string }) => {
    const keyInBucket = `${packaged.state.artifactDirectory}/${artifact.name}`;
    await uploadAll(clients, bucket, [{ key: keyInBucket, file: artifact.path, sha256: artifact.sha256 }], uploadEncryption(packaged));
    return keyInBucket;
  };
  const updates = await updateFunctionInPlace(packaged, key, lambdaClient(clients.target), { bucket, codeKey }, reporter, options);
  // The stack's template no longer says what the function runs: the next deploy reconciles it, as after a hotswap.
  if (updates.length > 0) {
    const { recordDrift } = require('./hotswap') as typeof import('./hotswap');
    await recordDrift(packaged, clients, bucket, [key]);
  }
  return updates;
}

/**
 * After the stack update that follows a hotswap: sets the hotswapped functions still in the package to
 * what the package says, through the Lambda API, since CloudFormation changes only what differs between
 * its templates (a hotswap reverted in the files leaves the template as it was, and the function drifted).
 */
export async function reconcileHotswapped(packaged: PackagedService, keys: string[], clients: AwsClients, code: CodeSource, reporter: Reporter): Promise<void> {
  const lambda = lambdaClient(clients.target);
  const present = keys.filter(key => packaged.config.functions?.[key] && packaged.template.Resources[naming.lambdaFunction(key)]);
  await Promise.all(present.map(key => updateFunctionInPlace(packaged, key, lambda, code, reporter)));
}

/** Where a function's new code is read from: the bucket, and the key of an artifact (uploaded when asked for). */
export interface CodeSource {
  bucket: string;
  codeKey(artifact: { name: string; path: string; sha256: string }): Promise<string>;
}

/**
 * What each function (by physical name) was set to by the last updates of this process, as Lambda
 * answered them: fw dev's next round compares with it instead of asking (GetFunction) again. It
 * assumes no one else changes the functions meanwhile, as the rest of what fw dev keeps does.
 */
export type KnownConfigurations = Map<string, FunctionConfiguration>;

/** The function's configuration: from `known` when this process set it last, else from Lambda (GetFunction). */
async function currentConfiguration(lambda: LambdaClient, physicalName: string, known?: KnownConfigurations): Promise<FunctionConfiguration> {
  const remembered = known?.get(physicalName);
  if (remembered) return remembered;
  try {
    return (await lambda.send(new GetFunctionCommand({ FunctionName: physicalName }))).Configuration ?? {};
  } catch (error) {
    if ((error as { name?: string }).name === 'ResourceNotFoundException') {
      throw new CloudError(`Function ${physicalName} is not deployed yet: run "fw deploy" to create it`);
    }
    throw error;
  }
}

/**
 * Sets a deployed function's code (when its hash differs from the package's) and its changed settings
 * through the Lambda API, each time waiting until Lambda reports the update finished. With `known`, the
 * function's configuration is taken from there when present, and what Lambda answered is put there.
 */
export async function updateFunctionInPlace(
  packaged: PackagedService,
  key: string,
  lambda: LambdaClient,
  code: CodeSource,
  reporter: Reporter,
  options: { configOnly?: boolean; known?: KnownConfigurations } = {},
): Promise<FunctionUpdate[]> {
  const { physicalName } = functionOf(packaged, key);
  const { known } = options;
  const current = await currentConfiguration(lambda, physicalName, known);
  // Until this update has finished, nothing is known of the function: a failed one is asked about next time.
  known?.delete(physicalName);
  let latest = current;

  const updates: FunctionUpdate[] = [];
  const artifact = packaged.artifacts.functions[key];
  // `--update-config`: the code stays as deployed.
  if (artifact && !options.configOnly && artifact.codeSha256 !== current.CodeSha256) {
    const keyInBucket = await code.codeKey(artifact);
    const updated = await lambda.send(new UpdateFunctionCodeCommand({ FunctionName: physicalName, S3Bucket: code.bucket, S3Key: keyInBucket }));
    // Lambda answers InProgress while it takes the new code in; an update already Successful needs no waiting.
    if (updated.LastUpdateStatus !== 'Successful') await updateFinished(lambda, physicalName);
    latest = updated;
    updates.push('code');
    reporter.info(`Updated the code of ${physicalName}`);
  }
  const desired = desiredConfiguration(packaged, key);
  const changed = changedFields(current, desired);
  if (changed.length > 0) {
    const updated = await lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: physicalName, ...Object.fromEntries(changed.map(name => [name, desired[name]])) }));
    if (updated.LastUpdateStatus !== 'Successful') await updateFinished(lambda, physicalName);
    latest = updated;
    updates.push('configuration');
    reporter.info(`Updated the configuration of ${physicalName}: ${changed.join(', ')}`);
  }
  known?.set(physicalName, latest);
  return updates;
}

/** Waits (up to 5 minutes) until the function's last update is no longer in progress; a failed one is an error. */
async function updateFinished(lambda: LambdaClient, physicalName: string): Promise<void> {
  const result = await waitUntilFunctionUpdatedV2({ client: lambda, maxWaitTime: 300, minDelay: 1, maxDelay: 5 }, { FunctionName: physicalName }).catch(error => {
    const reason = (error as { result?: { reason?: { LastUpdateStatusReason?: string } } }).result?.reason?.LastUpdateStatusReason;
    throw new CloudError(`Updating function ${physicalName} failed: ${reason ?? (error as Error).message}`);
  });
  if (result.state !== 'SUCCESS') throw new CloudError(`Updating function ${physicalName} did not finish: ${result.state}`);
}
