import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteChangeSetCommand,
  DescribeChangeSetCommand,
  ExecuteChangeSetCommand,
  UpdateStackCommand,
  type Stack,
  type StackEvent,
} from '@aws-sdk/client-cloudformation';
import { CloudError, StackError } from '../errors';
import type { PackagedService, PackageState } from '../package/service';
import { STATE_FILE, UPDATE_TEMPLATE } from '../package/service';
import type { AwsClients } from './aws';
import { deletePrefix, listDeployments, readJson, uploadAll, type Upload } from './bucket';
import { deploymentBucketOf, describeStack, isInProgress, latestEventId, monitorStack, sleep } from './stack';
import { describeMove } from '../synth/split/config';
import type { Move } from '../synth/split/split';

export const CAPABILITIES = ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'] as const;
export const KEEP_DEPLOYMENTS = 5;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const TEMPLATE_OBJECT = 'compiled-cloudformation-template.json';

export interface Reporter {
  /** A line for the user. */
  info(line: string): void;
  /** The one progress line, rewritten in place on a terminal. */
  progress(line: string): void;
  /** A stack event (shown with --verbose). */
  event(event: StackEvent): void;
}

export interface DeployOptions {
  force?: boolean;
  reporter: Reporter;
  signal?: AbortSignal;
}

export type DeployOutcome = 'deployed' | 'unchanged' | 'no-changes';

const stackTags = (packaged: PackagedService) =>
  Object.entries({ ...(packaged.config.provider.stackTags ?? {}) }).map(([Key, Value]) => ({ Key, Value: String(Value) }));

/** Where CloudFormation reads an object from: the endpoint's path-style URL, or S3's regional one. */
export function objectUrl(clients: AwsClients, bucket: string, key: string): string {
  const { endpoint, region } = clients.target;
  if (endpoint) return `${endpoint.replace(/\/$/, '')}/${bucket}/${key}`;
  const host = region === 'us-east-1' ? 's3.amazonaws.com' : `s3.${region}.amazonaws.com`;
  return `https://${host}/${bucket}/${key}`;
}

/**
 * Deploys a packaged service as one stack: create the bucket-only stack when new,
 * skip when nothing changed, upload (copying unchanged artifacts server-side),
 * update through a change set, follow it, keep the last deployments.
 */
export async function deployService(packaged: PackagedService, clients: AwsClients, options: DeployOptions): Promise<DeployOutcome> {
  const { reporter } = options;
  const { stackName } = packaged;
  let stack = await readyStack(clients, stackName, reporter, options.signal);

  if (!stack && packaged.createTemplate) {
    reporter.info(`Creating stack ${stackName}`);
    const since = new Date();
    await clients.cloudFormation.send(
      new CreateStackCommand({
        StackName: stackName,
        TemplateBody: JSON.stringify(packaged.createTemplate),
        Capabilities: [...CAPABILITIES],
        Tags: stackTags(packaged),
        OnFailure: 'DELETE',
      }),
    );
    const created = await monitorStack(clients, stackName, monitorOptions(options, since, 2));
    if (created.status !== 'CREATE_COMPLETE') throw failure(stackName, 'create', created.status, created.firstFailure);
    stack = await describeStack(clients, stackName);
  }

  const bucket = deploymentBucketOf(stack, packaged.state.deploymentBucket);
  if (!bucket) throw new CloudError(`Stack ${stackName} has no ServerlessDeploymentBucketName output: cannot find where to upload`);
  const servicePrefix = packaged.state.artifactDirectory.split('/').slice(0, -1).join('/');
  const previousFolders = await listDeployments(clients, bucket, servicePrefix);
  const previous = previousFolders.at(-1);
  const previousState = previous ? await readJson<PackageState>(clients, bucket, `${previous.folder}/${STATE_FILE}`) : undefined;

  if (!options.force && stack && previousState?.deploymentHash === packaged.state.deploymentHash && /_COMPLETE$/.test(stack.StackStatus ?? '') && !/ROLLBACK/.test(stack.StackStatus ?? '')) {
    reporter.info(`No changes to deploy: the template and code are those of the last deployment (use --force to deploy anyway)`);
    return 'unchanged';
  }

  for (const move of placementMoves(previousState, packaged.state)) reporter.info(`Warning: ${describeMove(move)}`);
  const folder = packaged.state.artifactDirectory;
  // An artifact whose bytes the last deployment already stored keeps that S3 key, so the functions
  // using it see no change at all and CloudFormation leaves them alone.
  const previousKeys = previousState?.artifactKeys ?? {};
  const artifactKeys: Record<string, string> = {};
  const nestedFiles = new Set((packaged.state.nestedStacks ?? []).map(stack => stack.file));
  const uploads: Upload[] = [];
  for (const artifact of packaged.state.artifacts) {
    if (nestedFiles.has(artifact.name)) continue;
    const unchanged = previousState?.artifacts.some(a => a.name === artifact.name && a.sha256 === artifact.sha256);
    const kept = unchanged ? previousKeys[artifact.name] : undefined;
    artifactKeys[artifact.name] = kept ?? `${folder}/${artifact.name}`;
    if (!kept) uploads.push({ key: `${folder}/${artifact.name}`, file: join(packaged.outDir, artifact.name), sha256: artifact.sha256 });
  }
  const pointAtKeptArtifacts = (text: string) =>
    Object.entries(artifactKeys).reduce((result, [name, key]) => result.split(`"${folder}/${name}"`).join(JSON.stringify(key)), text);
  // Nested templates name artifacts and this deployment's folder inside: uploaded afresh, pointing at the kept keys.
  for (const file of nestedFiles) {
    const text = pointAtKeptArtifacts(readFileSync(join(packaged.outDir, file), 'utf8'));
    uploads.push({ key: `${folder}/${file}`, body: text, sha256: sha256(text) });
  }
  const templateText = pointAtKeptArtifacts(readFileSync(join(packaged.outDir, UPDATE_TEMPLATE), 'utf8'));
  uploads.push({ key: `${folder}/${TEMPLATE_OBJECT}`, body: templateText, sha256: sha256(templateText) });
  const uploaded = await uploadAll(clients, bucket, uploads);
  const kept = Object.values(artifactKeys).filter(key => !key.startsWith(`${folder}/`)).length;
  reporter.info(`Uploaded ${uploaded} file${uploaded === 1 ? '' : 's'}${kept ? ` (${kept} unchanged artifact${kept === 1 ? '' : 's'} kept where the last deployment stored ${kept === 1 ? 'it' : 'them'})` : ''} to s3://${bucket}/${folder}/`);

  const templateUrl = objectUrl(clients, bucket, `${folder}/${TEMPLATE_OBJECT}`);
  const resourceCount = Object.keys(packaged.template.Resources).length;
  const since = new Date();
  const after = stack ? await latestEventId(clients, stackName) : undefined;
  const direct = packaged.config.provider.deploymentMethod === 'direct';
  let changed: boolean;
  if (!stack) changed = await createFullStack(packaged, clients, templateUrl);
  else if (direct) changed = await updateDirectly(packaged, clients, templateUrl);
  else changed = await updateWithChangeSet(packaged, clients, templateUrl, reporter);

  if (changed) {
    reporter.info(`${stack ? 'Updating' : 'Creating'} stack ${stackName} (${resourceCount} resources)`);
    const result = await monitorStack(clients, stackName, { ...monitorOptions(options, since, resourceCount), after });
    if (!/^(CREATE|UPDATE)_COMPLETE$/.test(result.status)) throw failure(stackName, stack ? 'update' : 'create', result.status, result.firstFailure);
  } else {
    reporter.info('No changes to the stack: CloudFormation found nothing to update');
  }

  // The state goes last: a later deploy compares against it only once this one succeeded.
  const state = JSON.stringify({ ...packaged.state, artifactKeys }, null, 2);
  await uploadAll(clients, bucket, [{ key: `${folder}/${STATE_FILE}`, body: state, sha256: packaged.state.deploymentHash }]);
  await pruneDeployments(clients, bucket, servicePrefix, Object.values(artifactKeys));
  return changed ? 'deployed' : 'no-changes';
}

/**
 * The state of the last deployment of a stack, read from its deployment bucket (none when the stack or
 * its state does not exist). Its `placement` is what `packageService({ previousPlacement })` keeps, so a
 * fresh checkout (CI, no `.serverless/`) packages the nested stacks exactly as deployed.
 */
export async function lastDeployedState(clients: AwsClients, stackName: string, servicePrefix: string, namedBucket?: string): Promise<PackageState | undefined> {
  const stack = await describeStack(clients, stackName);
  const bucket = deploymentBucketOf(stack, namedBucket);
  if (!stack || !bucket) return undefined;
  const previous = (await listDeployments(clients, bucket, servicePrefix)).at(-1);
  return previous ? readJson<PackageState>(clients, bucket, `${previous.folder}/${STATE_FILE}`) : undefined;
}

/** Resources the new package puts in another stack than the deployed one (stack splitting): each is replaced. */
export function placementMoves(deployed: PackageState | undefined, packaged: PackageState): Move[] {
  if (!deployed?.placement || !packaged.placement) return [];
  const moves: Move[] = [];
  for (const [logicalId, to] of Object.entries(packaged.placement.resources)) {
    const from = deployed.placement.resources[logicalId];
    if (from !== undefined && from !== to) moves.push({ logicalId, from, to });
  }
  return moves;
}

function monitorOptions(options: DeployOptions, since: Date, expectedResources: number) {
  return {
    since,
    expectedResources,
    signal: options.signal,
    onEvent: (event: StackEvent) => options.reporter.event(event),
    onProgress: (done: number, total: number, status: string) =>
      options.reporter.progress(`${status.startsWith('CREATE') ? 'Creating' : status.startsWith('DELETE') ? 'Deleting' : 'Updating'} stack (${done}/${total} resources)`),
  };
}

/**
 * The stack as it stands, once it can take a deploy: waits for a running operation,
 * refuses (saying what to do) in the states CloudFormation cannot update from.
 */
async function readyStack(clients: AwsClients, stackName: string, reporter: Reporter, signal?: AbortSignal): Promise<Stack | undefined> {
  let stack = await describeStack(clients, stackName);
  if (stack && isInProgress(stack.StackStatus)) {
    reporter.info(`Stack ${stackName} is busy (${stack.StackStatus}); waiting for that operation to finish`);
    await monitorStack(clients, stackName, { since: new Date(), signal });
    stack = await describeStack(clients, stackName);
  }
  switch (stack?.StackStatus) {
    case undefined:
    case 'DELETE_COMPLETE':
      return undefined;
    case 'ROLLBACK_COMPLETE':
    case 'ROLLBACK_FAILED':
      throw new CloudError(
        `Stack ${stackName} is in ${stack.StackStatus}: its first deployment failed and CloudFormation cannot update it. Run "fw remove" (or delete the stack) and deploy again.`,
      );
    case 'UPDATE_ROLLBACK_FAILED':
      throw new CloudError(
        `Stack ${stackName} is in UPDATE_ROLLBACK_FAILED: fix the resource that blocked the rollback, continue the rollback (aws cloudformation continue-update-rollback --stack-name ${stackName}), then deploy again.`,
      );
    case 'DELETE_FAILED':
      throw new CloudError(`Stack ${stackName} is in DELETE_FAILED: run "fw remove" again (or delete the stack) before deploying.`);
    default:
      return stack;
  }
}

async function createFullStack(packaged: PackagedService, clients: AwsClients, templateUrl: string): Promise<boolean> {
  await clients.cloudFormation.send(
    new CreateStackCommand({ StackName: packaged.stackName, TemplateURL: templateUrl, Capabilities: [...CAPABILITIES], Tags: stackTags(packaged), OnFailure: 'ROLLBACK' }),
  );
  return true;
}

async function updateDirectly(packaged: PackagedService, clients: AwsClients, templateUrl: string): Promise<boolean> {
  try {
    await clients.cloudFormation.send(
      new UpdateStackCommand({ StackName: packaged.stackName, TemplateURL: templateUrl, Capabilities: [...CAPABILITIES], Tags: stackTags(packaged) }),
    );
    return true;
  } catch (error) {
    if (/No updates are to be performed/.test((error as Error).message)) return false;
    throw error;
  }
}

async function updateWithChangeSet(packaged: PackagedService, clients: AwsClients, templateUrl: string, reporter: Reporter): Promise<boolean> {
  const changeSetName = `fw-${Date.now()}`;
  const stackName = packaged.stackName;
  await clients.cloudFormation.send(
    new CreateChangeSetCommand({
      StackName: stackName,
      ChangeSetName: changeSetName,
      ChangeSetType: 'UPDATE',
      TemplateURL: templateUrl,
      Capabilities: [...CAPABILITIES],
      Tags: stackTags(packaged),
    }),
  );
  for (let attempt = 0; ; attempt++) {
    const changeSet = await clients.cloudFormation.send(new DescribeChangeSetCommand({ StackName: stackName, ChangeSetName: changeSetName }));
    if (changeSet.Status === 'CREATE_COMPLETE') {
      reporter.info(`Change set: ${changeSet.Changes?.length ?? 0} resource change${changeSet.Changes?.length === 1 ? '' : 's'}`);
      await clients.cloudFormation.send(new ExecuteChangeSetCommand({ StackName: stackName, ChangeSetName: changeSetName }));
      return true;
    }
    if (changeSet.Status === 'FAILED') {
      await clients.cloudFormation.send(new DeleteChangeSetCommand({ StackName: stackName, ChangeSetName: changeSetName })).catch(() => undefined);
      if (/didn't contain changes|No updates are to be performed/.test(changeSet.StatusReason ?? '')) return false;
      throw new CloudError(`Change set for stack ${stackName} failed: ${changeSet.StatusReason}`);
    }
    await sleep(attempt < 10 ? 150 : 1000);
  }
}

/** Keeps the last deployments, and any older folder still holding an artifact the stack uses. */
async function pruneDeployments(clients: AwsClients, bucket: string, servicePrefix: string, inUse: string[]): Promise<void> {
  const folders = await listDeployments(clients, bucket, servicePrefix);
  for (const old of folders.slice(0, Math.max(0, folders.length - KEEP_DEPLOYMENTS))) {
    if (inUse.some(key => key.startsWith(`${old.folder}/`))) continue;
    await deletePrefix(clients, bucket, `${old.folder}/`);
  }
}

/** The root cause first: the first resource that failed and why, then where the stack ended up. */
function failure(stackName: string, action: string, status: string, first: StackEvent | undefined): StackError {
  const cause = first
    ? `${first.LogicalResourceId} (${first.ResourceType}) failed: ${(first.ResourceStatusReason ?? 'no reason given').replace(/\.$/, '')}`
    : `the stack ended in ${status}`;
  const state = /ROLLBACK_COMPLETE$/.test(status)
    ? status === 'ROLLBACK_COMPLETE'
      ? 'The new stack was rolled back (ROLLBACK_COMPLETE); run "fw remove" before deploying again.'
      : `The stack was rolled back to its previous state (${status}).`
    : `The stack is in ${status}.`;
  return new StackError(`Deploying stack ${stackName} failed (${action}): ${cause}. ${state}`, stackName, status, StackError.resourceOf(first));
}
