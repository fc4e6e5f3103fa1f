import { UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudError, ConfigError } from '../errors';
import type { LoadedService } from '../service/load';
import type { PackageState } from '../package/service';
import { STATE_FILE } from '../package/service';
import type { AwsClients } from '../aws/clients';
import { deploymentFolders, listKeys, readJson, uploadAll } from './bucket';
import { CAPABILITIES, objectUrl, pruneDeployments, type Reporter } from './deploy';
import { deploymentBucketOf, describeStack, latestEventId, monitorStack } from './stack';

const TEMPLATE_OBJECT = 'compiled-cloudformation-template.json';

/** One deployment stored in the deployment bucket: `deploy list` and `rollback` show these. */
export interface StoredDeployment {
  timestamp: number;
  folder: string;
  /** The files in the deployment's folder. */
  files: string[];
  /** Artifacts the deployment uses that an earlier deployment stored (unchanged code is not uploaded again). */
  kept: Array<{ name: string; key: string }>;
}

/** `{deploymentPrefix}/{service}/{stage}`: where the service's deployments are in the bucket. */
export function servicePrefixOf(loaded: LoadedService): string {
  return `${loaded.config.provider.deploymentPrefix ?? 'serverless'}/${loaded.serviceName}/${loaded.stage}`;
}

function namedBucket(loaded: LoadedService): string | undefined {
  const bucket = loaded.config.provider.deploymentBucket;
  return typeof bucket === 'string' ? bucket : (bucket as { name?: string } | undefined)?.name;
}

/** The deployment bucket of the deployed stack; an error saying to deploy first when there is none. */
async function bucketOf(clients: AwsClients, loaded: LoadedService): Promise<string> {
  const stack = await describeStack(clients, loaded.stackName);
  if (!stack) throw new CloudError(`Stack ${loaded.stackName} does not exist in ${loaded.region}: nothing is deployed (run "fw deploy" first)`);
  const bucket = deploymentBucketOf(stack, namedBucket(loaded));
  if (!bucket) throw new CloudError(`Stack ${loaded.stackName} has no ServerlessDeploymentBucketName output: cannot find its deployments`);
  return bucket;
}

/** The deployments stored in the bucket, oldest first, each with its files. */
export async function storedDeployments(clients: AwsClients, loaded: LoadedService): Promise<StoredDeployment[]> {
  const bucket = await bucketOf(clients, loaded);
  const prefix = servicePrefixOf(loaded);
  const keys = await listKeys(clients, bucket, `${prefix}/`);
  const deployments: StoredDeployment[] = [];
  for (const { folder, timestamp } of deploymentFolders(keys, prefix)) {
    const files = keys.filter(key => key.startsWith(`${folder}/`)).map(key => key.slice(folder.length + 1));
    const state = await readJson<PackageState>(clients, bucket, `${folder}/${STATE_FILE}`);
    const kept = Object.entries(state?.artifactKeys ?? {})
      .filter(([, key]) => !key.startsWith(`${folder}/`))
      .map(([name, key]) => ({ name, key }));
    deployments.push({ timestamp, folder, files, kept });
  }
  return deployments;
}

/** `fw deploy list` and `fw rollback` without a timestamp: each deployment, as v3 lists them. */
export function formatDeployments(deployments: StoredDeployment[]): string {
  if (deployments.length === 0) return 'No deployments found\n';
  return deployments
    .map(deployment => {
      const date = new Date(deployment.timestamp).toISOString();
      const files = [...deployment.files.map(file => `  - ${file}`), ...deployment.kept.map(artifact => `  - ${artifact.name} (unchanged, stored at ${artifact.key})`)];
      return `${date.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}\nTimestamp: ${deployment.timestamp}\nFiles:\n${files.join('\n')}\n`;
    })
    .join('\n');
}

/**
 * `fw rollback -t TIMESTAMP`: updates the stack with the template that deployment stored (its code
 * artifacts are where it stored or kept them), then records it as the newest deployment, so the next
 * `fw deploy` compares against what the stack now runs.
 */
export async function rollbackService(clients: AwsClients, loaded: LoadedService, timestamp: string, reporter: Reporter): Promise<'rolled-back' | 'unchanged'> {
  const bucket = await bucketOf(clients, loaded);
  const prefix = servicePrefixOf(loaded);
  const listed = await listKeys(clients, bucket, `${prefix}/`);
  const deployments = deploymentFolders(listed, prefix);
  const target = deployments.find(deployment => String(deployment.timestamp) === timestamp);
  if (!target) {
    const known = deployments.map(deployment => deployment.timestamp).join(', ') || 'none';
    throw new ConfigError(`No deployment with timestamp ${timestamp} (--timestamp) in s3://${bucket}/${prefix}/; stored: ${known}`);
  }
  const state = await readJson<PackageState>(clients, bucket, `${target.folder}/${STATE_FILE}`);
  const keys = new Set(listed);
  if (!state || !keys.has(`${target.folder}/${TEMPLATE_OBJECT}`)) {
    throw new CloudError(`The deployment ${timestamp} in s3://${bucket}/${target.folder}/ has no ${keys.has(`${target.folder}/${TEMPLATE_OBJECT}`) ? STATE_FILE : TEMPLATE_OBJECT}: it cannot be redeployed`);
  }
  const missing = Object.values(state.artifactKeys ?? {}).filter(key => !keys.has(key));
  if (missing.length > 0) throw new CloudError(`The deployment ${timestamp} cannot be redeployed: its artifacts are no longer in the bucket (${missing.join(', ')})`);

  reporter.info(`Rolling back stack ${loaded.stackName} to the deployment of ${new Date(target.timestamp).toISOString()} (${timestamp})`);
  const since = new Date();
  const after = await latestEventId(clients, loaded.stackName);
  try {
    await clients.cloudFormation.send(
      new UpdateStackCommand({ StackName: loaded.stackName, TemplateURL: objectUrl(clients, bucket, `${target.folder}/${TEMPLATE_OBJECT}`), Capabilities: [...CAPABILITIES] }),
    );
  } catch (error) {
    if (/No updates are to be performed/.test((error as Error).message)) return 'unchanged';
    throw error;
  }
  const result = await monitorStack(clients, loaded.stackName, { since, after, onEvent: event => reporter.event(event) });
  if (result.status !== 'UPDATE_COMPLETE') {
    const cause = result.firstFailure ? `${result.firstFailure.LogicalResourceId} failed: ${result.firstFailure.ResourceStatusReason ?? 'no reason given'}` : `the stack ended in ${result.status}`;
    throw new CloudError(`Rolling back stack ${loaded.stackName} to ${timestamp} failed: ${cause}`);
  }
  // The rolled-back deployment becomes the newest: its state (pointing at the artifacts where they are) in a new folder.
  const now = new Date();
  const folder = `${prefix}/${now.getTime()}-${now.toISOString()}`;
  const artifactKeys = state.artifactKeys ?? {};
  const template = await readText(clients, bucket, `${target.folder}/${TEMPLATE_OBJECT}`);
  await uploadAll(clients, bucket, [
    { key: `${folder}/${TEMPLATE_OBJECT}`, body: template, sha256: state.templateSha256 },
    { key: `${folder}/${STATE_FILE}`, body: JSON.stringify({ ...state, artifactDirectory: folder, artifactKeys, drift: undefined }, null, 2), sha256: state.deploymentHash },
  ]);
  await pruneDeployments(clients, bucket, prefix, [...Object.values(artifactKeys), `${target.folder}/`]);
  return 'rolled-back';
}

async function readText(clients: AwsClients, bucket: string, key: string): Promise<string> {
  const { GetObjectCommand } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  const object = await clients.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return object.Body!.transformToString();
}
