import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteChangeSetCommand,
  ExecuteChangeSetCommand,
  SetStackPolicyCommand,
  UpdateStackCommand,
  type Stack,
  type StackEvent,
} from '@aws-sdk/client-cloudformation';
import { CloudError, StackError } from '../errors';
import type { PackagedService, PackageState } from '../package/service';
import { STATE_FILE, UPDATE_TEMPLATE } from '../package/service';
import type { AwsClients } from '../aws/clients';
import { deletePrefix, listDeployments, readJson, uploadAll, type Upload } from './bucket';
import { deleteRolledBackStack, deploymentBucketOf, describeStack, isInProgress, latestEventId, monitorStack } from './stack';
import { describeMove } from '../synth/split/config';
import type { Move } from '../synth/split/split';
import type { Template } from '../synth/template';
import { dataLosses, describeDataLoss, refuseDataLoss } from './data-loss';
import { compareTemplates, readChangeSet, TEMPLATE_BODY_LIMIT, withNestedStackChanges, type ResourceChange } from './preview';
import { currentTemplate } from './deployed';
import {
  deploymentRole,
  disableRollback,
  keptDeployments,
  rollbackConfiguration,
  stackOperationSettings,
  stackPolicyBody,
  stackTags,
  uploadEncryption,
} from '../package/stack-settings';

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
  /** A line shown with --verbose (where the credentials came from). */
  detail?(line: string): void;
}

export interface DeployOptions {
  force?: boolean;
  /** Go ahead with changes that delete a resource holding data (else the deploy stops before them). */
  allowDataLoss?: boolean;
  reporter: Reporter;
  signal?: AbortSignal;
}

export type DeployOutcome = 'deployed' | 'unchanged' | 'no-changes' | 'hotswapped';

/** The template of a stack operation: its text when CloudFormation takes it inline, else its URL in the deployment bucket. */
type TemplateSource = { TemplateBody: string } | { TemplateURL: string };

/**
 * One call of the deploy, named on its failure (`create change set`, `upload`, …) so the error says
 * which step failed; `describeAwsError` prints the name.
 */
async function step<T>(name: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error !== null && typeof error === 'object' && !('step' in error)) Object.assign(error, { step: name });
    throw error;
  }
}

/**
 * Where CloudFormation reads an object from: the endpoint's path-style URL, or S3's regional one.
 * A loopback endpoint is named `localhost`: emulators resolve a URL to their own S3 by its host, and
 * moto knows `localhost` (and AWS's hosts) but not `127.0.0.1`.
 */
export function objectUrl(clients: AwsClients, bucket: string, key: string): string {
  const { endpoint, region } = clients.target;
  if (endpoint) {
    const url = new URL(endpoint);
    if (/^(127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/.test(url.hostname)) url.hostname = 'localhost';
    return `${url.toString().replace(/\/$/, '')}/${bucket}/${key}`;
  }
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
  let stack = await step('describe stack', readyStack(clients, stackName, reporter, options.signal));

  if (!stack && packaged.createTemplate) {
    reporter.info(`Creating stack ${stackName}`);
    const since = new Date();
    await step(
      'create stack',
      clients.cloudFormation.send(
        new CreateStackCommand({
          StackName: stackName,
          TemplateBody: JSON.stringify(packaged.createTemplate),
          Capabilities: [...CAPABILITIES],
          Tags: stackTags(packaged),
          // The bucket-only stack declares none of the service's parameters and takes no stack policy yet
          // (the policy may name resources the full template adds): those go with the full template.
          ...(deploymentRole(packaged) ? { RoleARN: deploymentRole(packaged) } : {}),
          NotificationARNs: stackOperationSettings(packaged).NotificationARNs,
          // As v3, whose CREATE change set for the bucket-only stack carries the rollback triggers too.
          RollbackConfiguration: rollbackConfiguration(packaged),
          ...onFailure(packaged, 'DELETE'),
        }),
      ),
    );
    const created = await step('describe stack events', monitorStack(clients, stackName, monitorOptions(options, since, 2)));
    if (created.status !== 'CREATE_COMPLETE') throw failure(stackName, 'create', created.status, created.firstFailure);
    stack = await step('describe stack', describeStack(clients, stackName));
  }

  const bucket = deploymentBucketOf(stack, packaged.state.deploymentBucket);
  if (!bucket) throw new CloudError(`Stack ${stackName} has no ServerlessDeploymentBucketName output: cannot find where to upload`);
  const servicePrefix = packaged.state.artifactDirectory.split('/').slice(0, -1).join('/');
  const previousFolders = await step('list deployments', listDeployments(clients, bucket, servicePrefix));
  const previous = previousFolders.at(-1);
  const previousState = previous ? await step('read the last deployment', readJson<PackageState>(clients, bucket, `${previous.folder}/${STATE_FILE}`)) : undefined;

  if (previousState?.drift) {
    reporter.info(`The last deploy updated ${previousState.drift.functions.join(', ') || 'nothing'} in place (hotswap or deploy function): updating the stack through CloudFormation to match`);
  }
  if (!options.force && !previousState?.drift && stack && previousState?.deploymentHash === packaged.state.deploymentHash && /_COMPLETE$/.test(stack.StackStatus ?? '') && !/ROLLBACK/.test(stack.StackStatus ?? '')) {
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
    if (!kept) uploads.push({ key: `${folder}/${artifact.name}`, file: artifactFile(packaged, artifact.name), sha256: artifact.sha256 });
  }
  const pointAtKeptArtifacts = (text: string) =>
    Object.entries(artifactKeys).reduce((result, [name, key]) => result.split(`"${folder}/${name}"`).join(JSON.stringify(key)), text);
  // Nested templates name artifacts and this deployment's folder inside: uploaded afresh, pointing at the kept keys.
  let nestedResources = 0;
  for (const file of nestedFiles) {
    const text = pointAtKeptArtifacts(readFileSync(join(packaged.outDir, file), 'utf8'));
    nestedResources += Object.keys((JSON.parse(text) as { Resources?: object }).Resources ?? {}).length;
    uploads.push({ key: `${folder}/${file}`, body: text, sha256: sha256(text) });
  }
  const templateText = pointAtKeptArtifacts(readFileSync(join(packaged.outDir, UPDATE_TEMPLATE), 'utf8'));
  uploads.push({ key: `${folder}/${TEMPLATE_OBJECT}`, body: templateText, sha256: sha256(templateText) });
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const uploaded = await step(
    'upload',
    uploadAll(clients, bucket, uploads, uploadEncryption(packaged), undefined, (done, total) => reporter.progress(`Uploading: ${mb(done)} of ${mb(total)}`)),
  );
  const kept = Object.values(artifactKeys).filter(key => !key.startsWith(`${folder}/`)).length;
  reporter.info(`Uploaded ${uploaded} file${uploaded === 1 ? '' : 's'}${kept ? ` (${kept} unchanged artifact${kept === 1 ? '' : 's'} kept where the last deployment stored ${kept === 1 ? 'it' : 'them'})` : ''} to s3://${bucket}/${folder}/`);

  // Inline when CloudFormation takes it so (no emulator has to resolve a URL to its S3), else by URL, as Serverless does.
  const template: TemplateSource =
    Buffer.byteLength(templateText) <= TEMPLATE_BODY_LIMIT ? { TemplateBody: templateText } : { TemplateURL: objectUrl(clients, bucket, `${folder}/${TEMPLATE_OBJECT}`) };
  // The nested stacks' resources count too: a split service's progress covers every resource it deploys.
  const resourceCount = Object.keys(packaged.template.Resources).length + nestedResources;
  const since = new Date();
  const after = stack ? await step('describe stack events', latestEventId(clients, stackName)) : undefined;
  const direct = packaged.config.provider.deploymentMethod === 'direct';
  let changed: boolean;
  if (!stack) changed = await createFullStack(packaged, clients, template);
  else if (direct) changed = await updateDirectly(packaged, clients, template, options);
  else changed = await updateWithChangeSet(packaged, clients, template, options);

  if (changed) {
    reporter.info(`${stack ? 'Updating' : 'Creating'} stack ${stackName} (${resourceCount} resources)`);
    const result = await step('describe stack events', monitorStack(clients, stackName, { ...monitorOptions(options, since, resourceCount), after, countNested: nestedFiles.size > 0 }));
    if (!/^(CREATE|UPDATE)_COMPLETE$/.test(result.status)) throw failure(stackName, stack ? 'update' : 'create', result.status, result.firstFailure);
  } else {
    reporter.info('No changes to the stack: CloudFormation found nothing to update');
  }
  // A change set carries no stack policy: as v3, it is set once the change set ran, since it may name
  // resources that change set added (CreateStack and UpdateStack carried it themselves). Also when the
  // change set was empty: a changed policy alone is a change to deploy.
  const policy = stackPolicyBody(packaged);
  if (policy && stack && !direct) await step('set stack policy', clients.cloudFormation.send(new SetStackPolicyCommand({ StackName: stackName, StackPolicyBody: policy })));

  if (previousState?.drift) {
    const { reconcileHotswapped } = require('./deploy-function') as typeof import('./deploy-function');
    await reconcileHotswapped(packaged, previousState.drift.functions, clients, { bucket, codeKey: async artifact => artifactKeys[artifact.name]! }, reporter);
  }
  // REST stage settings v3 applies with API Gateway calls once the stack is updated (rest-stage.ts).
  const { applyStageSettings } = require('./rest-stage') as typeof import('./rest-stage');
  const restStage = await step('update the REST API stage', applyStageSettings(packaged, clients, previousState?.restStage));
  // The state goes last: a later deploy compares against it only once this one succeeded.
  const state = JSON.stringify({ ...packaged.state, artifactKeys, ...(restStage ? { restStage } : {}) }, null, 2);
  await step(
    'upload the deployment state',
    uploadAll(clients, bucket, [{ key: `${folder}/${STATE_FILE}`, body: state, sha256: packaged.state.deploymentHash }], uploadEncryption(packaged)),
  );
  await step('delete old deployments', pruneDeployments(clients, bucket, servicePrefix, Object.values(artifactKeys), keptDeployments(packaged)));
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

/**
 * Where an artifact's bytes are: a prebuilt one (`package.artifact`: a jar, a Go binary's zip) where the
 * service keeps it, anything fw built in the package folder.
 */
function artifactFile(packaged: PackagedService, name: string): string {
  const { service, functions, layers } = packaged.artifacts;
  const built = [service, ...Object.values(functions), ...Object.values(layers)].find(artifact => artifact?.name === name && !artifact.s3);
  return built?.path ?? join(packaged.outDir, name);
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
  let cleaningUp = false;
  return {
    since,
    expectedResources,
    signal: options.signal,
    onEvent: (event: StackEvent) => {
      options.reporter.event(event);
      if (event.LogicalResourceId === event.StackName) cleaningUp = /_CLEANUP_IN_PROGRESS$/.test(event.ResourceStatus ?? '');
      // CloudFormation leaves a resource it could not delete in cleanup (a non-empty bucket) behind without failing the update.
      else if (cleaningUp && event.ResourceStatus === 'DELETE_FAILED') options.reporter.info(`Warning: ${leftBehind(event)}`);
    },
    onProgress: (done: number, total: number, status: string) =>
      options.reporter.progress(`${status.startsWith('CREATE') ? 'Creating' : status.startsWith('DELETE') ? 'Deleting' : 'Updating'} stack (${done}/${total} resources)`),
  };
}

/** `Photos (AWS::S3::Bucket) shop-dev-photos-1x2y could not be deleted: <reason>. It is no longer part of …` */
function leftBehind(event: StackEvent): string {
  const physical = event.PhysicalResourceId ? ` ${event.PhysicalResourceId}` : '';
  const reason = (event.ResourceStatusReason ?? 'no reason given').replace(/\.$/, '');
  return (
    `${event.LogicalResourceId} (${event.ResourceType})${physical} could not be deleted: ${reason}. ` +
    `It is no longer part of stack ${event.StackName} but still exists; delete it yourself when you no longer need it.`
  );
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
    stack = await step('describe stack', describeStack(clients, stackName));
  }
  switch (stack?.StackStatus) {
    case undefined:
    case 'DELETE_COMPLETE':
      return undefined;
    case 'ROLLBACK_COMPLETE':
      // Nothing is left in it (its creation was rolled back) and it can only be deleted: deleted, then created afresh.
      await deleteRolledBackStack(clients, stackName, reporter, signal);
      return undefined;
    case 'ROLLBACK_FAILED':
      throw new CloudError(
        `Stack ${stackName} is in ${stack.StackStatus}: its first deployment failed and CloudFormation cannot update it. Run "fw remove" (or delete the stack) and deploy again.`,
      );
    case 'UPDATE_ROLLBACK_FAILED':
      throw new CloudError(
        `Stack ${stackName} is in UPDATE_ROLLBACK_FAILED: fix the resource that blocked the rollback, continue the rollback (aws cloudformation continue-update-rollback --stack-name ${stackName}${endpointOption(clients)}), then deploy again.`,
      );
    case 'DELETE_FAILED':
      throw new CloudError(`Stack ${stackName} is in DELETE_FAILED: run "fw remove" again (or delete the stack) before deploying.`);
    default:
      return stack;
  }
}

/** ` --endpoint-url URL` when the stack lives behind a custom endpoint (the local cloud), so advice can be pasted as is. */
function endpointOption(clients: AwsClients): string {
  return clients.target.endpoint ? ` --endpoint-url ${clients.target.endpoint}` : '';
}

/** What CreateStack and UpdateStack send with the full template: tags, role, topics, parameters, stack policy, rollback configuration. */
function fullTemplateRequest(packaged: PackagedService, template: TemplateSource) {
  return {
    StackName: packaged.stackName,
    ...template,
    Capabilities: [...CAPABILITIES],
    Tags: stackTags(packaged),
    ...stackOperationSettings(packaged),
    StackPolicyBody: stackPolicyBody(packaged),
    RollbackConfiguration: rollbackConfiguration(packaged),
  };
}

async function createFullStack(packaged: PackagedService, clients: AwsClients, template: TemplateSource): Promise<boolean> {
  await step(
    'create stack',
    clients.cloudFormation.send(new CreateStackCommand({ ...fullTemplateRequest(packaged, template), ...onFailure(packaged, 'ROLLBACK') })),
  );
  return true;
}

async function updateDirectly(packaged: PackagedService, clients: AwsClients, template: TemplateSource, options: DeployOptions): Promise<boolean> {
  const current = await currentTemplate(clients, packaged.stackName);
  await guardData(packaged, clients, compareTemplates(current, packaged.template), current, options);
  try {
    await step(
      'update stack',
      clients.cloudFormation.send(new UpdateStackCommand({ ...fullTemplateRequest(packaged, template), ...(disableRollback(packaged) ? { DisableRollback: true } : {}) })),
    );
    return true;
  } catch (error) {
    if (/No updates are to be performed/.test((error as Error).message)) return false;
    throw await whenConcurrent(clients, packaged.stackName, error);
  }
}

async function updateWithChangeSet(packaged: PackagedService, clients: AwsClients, template: TemplateSource, options: DeployOptions): Promise<boolean> {
  // Two deploys started in the same millisecond (CI jobs, compose) must not share a change set name.
  const changeSetName = `fw-${Date.now()}-${randomBytes(4).toString('hex')}`;
  const stackName = packaged.stackName;
  const deleteChangeSet = () => clients.cloudFormation.send(new DeleteChangeSetCommand({ StackName: stackName, ChangeSetName: changeSetName })).then(() => undefined, () => undefined);
  try {
    await step(
      'create change set',
      clients.cloudFormation.send(
        new CreateChangeSetCommand({
          StackName: stackName,
          ChangeSetName: changeSetName,
          ChangeSetType: 'UPDATE',
          ...template,
          Capabilities: [...CAPABILITIES],
          Tags: stackTags(packaged),
          ...stackOperationSettings(packaged),
          RollbackConfiguration: rollbackConfiguration(packaged),
        }),
      ),
    );
    const changes = await step('describe change set', readChangeSet(clients, stackName, changeSetName)).catch(async error => {
      await deleteChangeSet();
      throw error;
    });
    if (!changes) {
      await deleteChangeSet();
      return false;
    }
    await guardData(packaged, clients, changes, await currentTemplate(clients, stackName), options, { what: 'the change set was deleted', run: deleteChangeSet });
    options.reporter.info(`Change set: ${changes.length} resource change${changes.length === 1 ? '' : 's'}`);
    await step(
      'execute change set',
      clients.cloudFormation.send(new ExecuteChangeSetCommand({ StackName: stackName, ChangeSetName: changeSetName, ...(disableRollback(packaged) ? { DisableRollback: true } : {}) })),
    );
    return true;
  } catch (error) {
    throw await whenConcurrent(clients, stackName, error);
  }
}

/**
 * Stops the deploy before it changes anything when it would delete a resource holding data that no
 * policy keeps, unless --allow-data-loss (then each is named as a warning). `discard` undoes what was
 * prepared (the change set), and says so.
 */
async function guardData(
  packaged: PackagedService,
  clients: AwsClients,
  rootChanges: ResourceChange[],
  current: Template | undefined,
  options: DeployOptions,
  discard?: { what: string; run(): Promise<void> },
): Promise<void> {
  const losses = dataLosses(await withNestedStackChanges(clients, packaged, rootChanges, current));
  if (losses.length === 0) return;
  if (!options.allowDataLoss) {
    await discard?.run();
    throw refuseDataLoss(packaged.stackName, losses, discard?.what);
  }
  for (const change of losses) options.reporter.info(`Warning: ${describeDataLoss(change)} (--allow-data-loss)`);
}

/**
 * A stack operation refused because another one started meanwhile (two deploys at once: the other
 * one's change set executed, deleting this one's, or the stack is busy) becomes one line naming the
 * stack and its status; any other error is returned as it is.
 */
async function whenConcurrent(clients: AwsClients, stackName: string, error: unknown): Promise<unknown> {
  const name = (error as { name?: string }).name ?? '';
  const message = (error as Error).message ?? '';
  const concurrent =
    /^(ChangeSetNotFound|InvalidChangeSetStatus|OperationInProgress)(Exception)?$/.test(name) || /_IN_PROGRESS state and can ?not be updated/.test(message);
  if (!concurrent) return error;
  const status = (await describeStack(clients, stackName).catch(() => undefined))?.StackStatus ?? 'unknown';
  return new CloudError(
    `Another deploy or operation changed stack ${stackName} while this deploy was preparing (stack status: ${status}), so this deploy changed nothing. ` +
      `Run "fw deploy" again: it waits for an operation in progress.`,
  );
}

/**
 * Keeps the last `keep` deployments (`provider.deploymentBucket.maxPreviousDeploymentArtifacts`), and any
 * older folder still holding an artifact the stack uses. The newest one always stays, even with 0: the
 * next deploy compares against its state.
 */
export async function pruneDeployments(clients: AwsClients, bucket: string, servicePrefix: string, inUse: string[], keep = KEEP_DEPLOYMENTS): Promise<void> {
  const folders = await listDeployments(clients, bucket, servicePrefix);
  for (const old of folders.slice(0, Math.max(0, folders.length - Math.max(1, keep)))) {
    if (inUse.some(key => key.startsWith(`${old.folder}/`))) continue;
    await deletePrefix(clients, bucket, `${old.folder}/`);
  }
}

/** CreateStack's `OnFailure`, or v3's `DisableRollback: true` in its place when `provider.disableRollback` is set. */
function onFailure(packaged: PackagedService, otherwise: 'DELETE' | 'ROLLBACK'): { OnFailure?: 'DELETE' | 'ROLLBACK'; DisableRollback?: boolean } {
  return disableRollback(packaged) ? { DisableRollback: true } : { OnFailure: otherwise };
}

/** The root cause first: the first resource that failed and why, then where the stack ended up. */
function failure(stackName: string, action: string, status: string, first: StackEvent | undefined): StackError {
  const cause = first
    ? `${first.LogicalResourceId} (${first.ResourceType}) failed: ${(first.ResourceStatusReason ?? 'no reason given').replace(/\.$/, '')}`
    : `the stack ended in ${status}`;
  const state = /ROLLBACK_COMPLETE$/.test(status)
    ? status === 'ROLLBACK_COMPLETE'
      ? 'The new stack was rolled back (ROLLBACK_COMPLETE); the next "fw deploy" deletes it and creates it again.'
      : `The stack was rolled back to its previous state (${status}).`
    : `The stack is in ${status}.`;
  return new StackError(`Deploying stack ${stackName} failed (${action}): ${cause}. ${state}`, stackName, status, StackError.resourceOf(first));
}
