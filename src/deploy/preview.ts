import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateChangeSetCommand,
  DeleteChangeSetCommand,
  DescribeChangeSetCommand,
  type Change,
  type DescribeChangeSetCommandOutput,
} from '@aws-sdk/client-cloudformation';
import { CloudError } from '../errors';
import type { PackagedService, PackageState } from '../package/service';
import { STATE_FILE } from '../package/service';
import type { Template } from '../synth/template';
import type { AwsClients } from '../aws/clients';
import { deletePrefix, listDeployments, readJson, uploadAll } from './bucket';
import { stackOperationSettings, stackTags, uploadEncryption } from '../package/stack-settings';
import { CAPABILITIES, objectUrl, placementMoves } from './deploy';
import { describeMove } from '../synth/split/config';
import type { Move } from '../synth/split/split';
import { deploymentBucketOf, describeStack, sleep } from './stack';
import { byCodeUnits } from '../order';
import { currentTemplate, nestedStackIds } from './deployed';
import { dataLosses, markDataLoss, type DataEffect, type TemplatesByStack } from './data-loss';

/** One resource a deploy would add, change or remove. */
export interface ResourceChange {
  action: 'Add' | 'Modify' | 'Remove';
  logicalId: string;
  type: string;
  /** The top-level properties that change (Modify only), sorted. */
  properties: string[];
  /** Whether CloudFormation replaces the physical resource (Modify only). */
  replacement?: 'True' | 'False' | 'Conditional';
  /** The nested stack (its logical id in the root template) the resource lives in; none for the root stack. */
  nestedStack?: string;
  /** Set when the change deletes a resource that holds data (a table, a bucket, …). */
  data?: DataEffect;
}

export interface Preview {
  stackName: string;
  /** False: the stack does not exist yet and every change is an Add read from the template. */
  stackExists: boolean;
  changes: ResourceChange[];
  /** Resources the package puts in another stack than the deployed one (stack splitting): each is replaced. */
  moves?: Move[];
}

/** What `fw diff` and `fw deploy --dry-run` exit with, so CI can gate on it. */
export const exitCodeOf = (preview: Preview) => (preview.changes.length === 0 ? 0 : 2);

/** CloudFormation's TemplateBody limit; a larger template is uploaded and passed by URL. */
export const TEMPLATE_BODY_LIMIT = 51_200;
const PAGE_DELAY_MS = 150;

/**
 * What deploying this package would change, resource by resource, without changing anything:
 * for a new stack the template's resources; else a change set that is described and deleted.
 * Unchanged artifacts keep the S3 keys of the last deployment and the REST API deployment keeps
 * its logical id, so a package that only differs by its timestamp shows no change.
 */
export async function previewDeployment(packaged: PackagedService, clients: AwsClients): Promise<Preview> {
  const { stackName } = packaged;
  const stack = await describeStack(clients, stackName);
  const nested = nestedTemplates(packaged);
  if (!stack || stack.StackStatus === 'REVIEW_IN_PROGRESS') {
    const changes = templateAdds(packaged.template);
    for (const { logicalId, template } of nested) changes.push(...templateAdds(template, logicalId));
    return { stackName, stackExists: false, changes };
  }

  const bucket = deploymentBucketOf(stack, packaged.state.deploymentBucket);
  if (!bucket) throw new CloudError(`Stack ${stackName} has no ServerlessDeploymentBucketName output: cannot find where its templates live`);
  const servicePrefix = packaged.state.artifactDirectory.split('/').slice(0, -1).join('/');
  const previous = (await listDeployments(clients, bucket, servicePrefix)).at(-1);
  const previousState = previous ? await readJson<PackageState>(clients, bucket, `${previous.folder}/${STATE_FILE}`) : undefined;
  if (previous && previousState?.deploymentHash === packaged.state.deploymentHash) return { stackName, stackExists: true, changes: [] };

  const moves = placementMoves(previousState, packaged.state);
  const current = await currentTemplate(clients, stackName);
  const rewrite = asLastDeployed(packaged.state, previous?.folder, previousState, current, packaged.state.artifactDirectory);
  const rootText = rewrite(JSON.stringify(packaged.template));
  const previewFolder = `${servicePrefix}/fw-preview-${Date.now()}`;
  let uploaded = false;
  try {
    let templateSource: { TemplateBody: string } | { TemplateURL: string };
    if (Buffer.byteLength(rootText) <= TEMPLATE_BODY_LIMIT) templateSource = { TemplateBody: rootText };
    else {
      uploaded = true;
      const key = `${previewFolder}/compiled-cloudformation-template.json`;
      await uploadAll(clients, bucket, [{ key, body: rootText, sha256: 'preview' }], uploadEncryption(packaged));
      templateSource = { TemplateURL: objectUrl(clients, bucket, key) };
    }
    const rootChanges = await changeSetChanges(clients, stackName, templateSource, packaged);
    const changes = await withNestedStackChanges(clients, packaged, rootChanges, current, rewrite);
    return { stackName, stackExists: true, changes, ...(moves.length > 0 ? { moves } : {}) };
  } finally {
    if (uploaded) await deletePrefix(clients, bucket, `${previewFolder}/`).catch(() => undefined);
  }
}

/**
 * The root stack's changes completed with each nested stack's own changes (from comparing its
 * deployed and new templates: the root change set only says a nested stack changes), every change
 * that deletes data marked. `rewrite` makes a new nested template read like the deployed one where
 * only the deployment differs.
 */
export async function withNestedStackChanges(
  clients: AwsClients,
  packaged: PackagedService,
  rootChanges: ResourceChange[],
  current: Template | undefined,
  rewrite: (text: string) => string = text => text,
): Promise<ResourceChange[]> {
  const changes = [...rootChanges];
  const templates: TemplatesByStack = new Map([[undefined, { before: current, after: packaged.template }]]);
  const nested = nestedTemplates(packaged);
  const deployedNested = Object.values(current?.Resources ?? {}).some(resource => resource.Type === 'AWS::CloudFormation::Stack');
  if (nested.length > 0 || deployedNested) {
    const physical = await nestedStackIds(clients, packaged.stackName);
    for (const { logicalId, template } of nested) {
      const stackId = physical.get(logicalId);
      const before = stackId ? await currentTemplate(clients, stackId) : undefined;
      const after = JSON.parse(rewrite(JSON.stringify(template))) as Template;
      templates.set(logicalId, { before, after });
      const inner = compareTemplates(before, after, logicalId);
      const index = changes.findIndex(change => change.logicalId === logicalId && change.nestedStack === undefined);
      if (index >= 0 && changes[index].action === 'Modify' && inner.length === 0 && onlyTemplateUrl(changes[index])) changes.splice(index, 1);
      changes.push(...inner);
    }
    // A nested stack the package no longer has takes its resources with it.
    for (const [logicalId, stackId] of physical) {
      if (packaged.template.Resources[logicalId]) continue;
      const before = await currentTemplate(clients, stackId);
      templates.set(logicalId, { before });
      changes.push(...compareTemplates(before, { Resources: {} } as unknown as Template, logicalId));
    }
  }
  return markDataLoss(changes, templates);
}

const onlyTemplateUrl = (change: ResourceChange) => change.properties.every(name => name === 'TemplateURL');

/** `+ Name (Type)`, `~ Name (Type): A, B (replacement)`, `- Name (Type)`, then a count line. */
export function formatPreview(preview: Preview): string {
  if (preview.changes.length === 0) return `No changes: deploying would leave stack ${preview.stackName} as it is.\n`;
  const lines = [preview.stackExists ? `Changes to stack ${preview.stackName}:` : `Stack ${preview.stackName} does not exist yet; deploying would create:`];
  const order = { Add: 0, Modify: 1, Remove: 2 } as const;
  const sorted = [...preview.changes].sort((a, b) => order[a.action] - order[b.action] || byCodeUnits(a.nestedStack ?? '', b.nestedStack ?? '') || byCodeUnits(a.logicalId, b.logicalId));
  for (const change of sorted) {
    const where = change.nestedStack ? ` in ${change.nestedStack}` : '';
    const name = `${change.logicalId} (${change.type})${where}`;
    const data = change.data ? (change.data.keptBy ? ` [kept by ${change.data.keptBy}]` : ' [DATA LOSS: deleted with its data]') : '';
    if (change.action === 'Add') lines.push(`+ ${name}`);
    else if (change.action === 'Remove') lines.push(`- ${name}${data}`);
    else {
      const replacement = change.replacement === 'True' ? ' (replacement)' : change.replacement === 'Conditional' ? ' (may be replaced)' : '';
      lines.push(`~ ${name}${change.properties.length > 0 ? `: ${change.properties.join(', ')}` : ''}${replacement}${data}`);
    }
  }
  for (const move of preview.moves ?? []) lines.push(`Warning: ${describeMove(move)}`);
  const losses = dataLosses(preview.changes);
  if (losses.length > 0) {
    lines.push(
      `Warning: ${losses.length === 1 ? 'this resource holds' : `these ${losses.length} resources hold`} data that deploying would delete: ` +
        `${losses.map(change => change.logicalId).join(', ')}. fw deploy refuses it unless given --allow-data-loss.`,
    );
  }
  const count = (action: ResourceChange['action']) => preview.changes.filter(change => change.action === action).length;
  lines.push(`${count('Add')} to add, ${count('Modify')} to change, ${count('Remove')} to remove`);
  return `${lines.join('\n')}\n`;
}

function templateAdds(template: Template, nestedStack?: string): ResourceChange[] {
  return Object.entries(template.Resources).map(([logicalId, resource]) => ({
    action: 'Add' as const,
    logicalId,
    type: String(resource.Type),
    properties: [],
    ...(nestedStack ? { nestedStack } : {}),
  }));
}

/** The nested templates `fw package` wrote beside the root one (stack splitting), read from the package folder. */
function nestedTemplates(packaged: PackagedService): Array<{ logicalId: string; template: Template }> {
  return (packaged.state.nestedStacks ?? []).map(({ logicalId, file }) => ({
    logicalId,
    template: JSON.parse(readFileSync(join(packaged.outDir, file), 'utf8')) as Template,
  }));
}

/**
 * Makes the new template read like the deployed one where only the deployment differs:
 * an artifact whose bytes did not change points at the last deployment's copy, and the
 * REST API deployment (whose logical id is new on every package) takes the deployed id.
 */
function asLastDeployed(
  state: PackageState,
  previousFolder: string | undefined,
  previousState: PackageState | undefined,
  deployed: Template | undefined,
  folder: string,
): (text: string) => string {
  const renames: Array<[string, string]> = [];
  if (previousFolder && previousState) {
    for (const artifact of state.artifacts) {
      const before = previousState.artifacts.find(a => a.name === artifact.name && a.sha256 === artifact.sha256);
      if (before) renames.push([`${folder}/${artifact.name}`, `${previousFolder}/${artifact.name}`]);
    }
  }
  const deployedRestDeployment = Object.keys(deployed?.Resources ?? {}).find(id => /^ApiGatewayDeployment\d+$/.test(id));
  return text => {
    let result = text;
    for (const [from, to] of renames) result = result.split(`"${from}"`).join(`"${to}"`);
    if (deployedRestDeployment) result = result.replace(/"ApiGatewayDeployment\d+"/g, `"${deployedRestDeployment}"`);
    return result;
  };
}

/** Creates the change set, reads every page of it, and deletes it whatever happens. */
async function changeSetChanges(
  clients: AwsClients,
  stackName: string,
  source: { TemplateBody: string } | { TemplateURL: string },
  packaged: PackagedService,
): Promise<ResourceChange[]> {
  const changeSetName = `fw-preview-${Date.now()}-${randomBytes(4).toString('hex')}`;
  await clients.cloudFormation.send(
    new CreateChangeSetCommand({
      StackName: stackName,
      ChangeSetName: changeSetName,
      ChangeSetType: 'UPDATE',
      Capabilities: [...CAPABILITIES],
      Tags: stackTags(packaged),
      ...stackOperationSettings(packaged),
      ...source,
    }),
  );
  try {
    return (await readChangeSet(clients, stackName, changeSetName)) ?? [];
  } finally {
    await clients.cloudFormation.send(new DeleteChangeSetCommand({ StackName: stackName, ChangeSetName: changeSetName })).catch(() => undefined);
  }
}

/** Waits until a change set is ready and reads every page of it: its changes, or none when CloudFormation found nothing to change. */
export async function readChangeSet(clients: AwsClients, stackName: string, changeSetName: string): Promise<ResourceChange[] | undefined> {
  for (let attempt = 0; ; attempt++) {
    const first = await clients.cloudFormation.send(new DescribeChangeSetCommand({ StackName: stackName, ChangeSetName: changeSetName }));
    if (first.Status === 'FAILED') {
      if (/didn't contain changes|No updates are to be performed/.test(first.StatusReason ?? '')) return undefined;
      throw new CloudError(`Change set for stack ${stackName} failed: ${first.StatusReason}`);
    }
    if (first.Status === 'CREATE_COMPLETE') {
      const changes: Change[] = [...(first.Changes ?? [])];
      let page: DescribeChangeSetCommandOutput = first;
      while (page.NextToken) {
        page = await clients.cloudFormation.send(new DescribeChangeSetCommand({ StackName: stackName, ChangeSetName: changeSetName, NextToken: page.NextToken }));
        changes.push(...(page.Changes ?? []));
      }
      return changes.flatMap(resourceChange);
    }
    await sleep(attempt < 10 ? PAGE_DELAY_MS : 1000);
  }
}

function resourceChange(change: Change): ResourceChange[] {
  const resource = change.ResourceChange;
  if (!resource?.LogicalResourceId || !resource.Action) return [];
  const action = resource.Action === 'Add' || resource.Action === 'Remove' ? resource.Action : 'Modify';
  const properties = [
    ...new Set(
      (resource.Details ?? [])
        .filter(detail => detail.Target?.Attribute === 'Properties' && detail.Target.Name)
        .map(detail => detail.Target!.Name!.split('.')[0]),
    ),
  ].sort();
  return [
    {
      action,
      logicalId: resource.LogicalResourceId,
      type: resource.ResourceType ?? 'unknown',
      properties: action === 'Modify' ? properties : [],
      ...(action === 'Modify' && resource.Replacement ? { replacement: resource.Replacement as ResourceChange['replacement'] } : {}),
    },
  ];
}

/**
 * Properties whose change replaces the resource (from the CloudFormation resource reference), for the
 * types fw generates; `*`: every property. Other types say "Conditional" (may be replaced).
 */
const REPLACED_BY: Record<string, readonly string[]> = {
  'AWS::Lambda::Function': ['FunctionName', 'PackageType'],
  'AWS::Lambda::Version': ['*'],
  'AWS::Lambda::Permission': ['*'],
  'AWS::Lambda::Url': ['TargetFunctionArn', 'Qualifier'],
  'AWS::Lambda::EventSourceMapping': ['EventSourceArn', 'StartingPosition', 'StartingPositionTimestamp', 'SelfManagedEventSource'],
  'AWS::Lambda::EventInvokeConfig': ['FunctionName', 'Qualifier'],
  'AWS::Logs::LogGroup': ['LogGroupName'],
  'AWS::Logs::SubscriptionFilter': ['LogGroupName', 'FilterName'],
  'AWS::ApiGatewayV2::Route': ['ApiId'],
  'AWS::ApiGatewayV2::Integration': ['ApiId'],
  'AWS::ApiGateway::Resource': ['RestApiId', 'ParentId', 'PathPart'],
  'AWS::ApiGateway::Method': ['RestApiId', 'ResourceId', 'HttpMethod'],
  'AWS::Events::Rule': ['Name', 'EventBusName'],
  'AWS::SNS::Topic': ['TopicName', 'FifoTopic'],
  'AWS::SNS::Subscription': ['Endpoint', 'Protocol', 'TopicArn'],
  'AWS::SQS::Queue': ['QueueName', 'FifoQueue'],
  'AWS::S3::Bucket': ['BucketName'],
  'AWS::DynamoDB::Table': ['TableName', 'KeySchema', 'LocalSecondaryIndexes', 'ImportSourceSpecification'],
  'AWS::DynamoDB::GlobalTable': ['TableName', 'KeySchema', 'LocalSecondaryIndexes'],
  'AWS::Kinesis::Stream': ['Name'],
  'AWS::SecretsManager::Secret': ['Name'],
  'AWS::KMS::Key': ['KeySpec', 'KeyUsage'],
  'AWS::EFS::FileSystem': ['PerformanceMode', 'Encrypted', 'KmsKeyId', 'AvailabilityZoneName'],
  'AWS::Backup::BackupVault': ['BackupVaultName', 'EncryptionKeyArn'],
};

function replacementOf(type: string, properties: string[]): ResourceChange['replacement'] {
  const replacedBy = REPLACED_BY[type];
  if (!replacedBy) return 'Conditional';
  return replacedBy.includes('*') || properties.some(name => replacedBy.includes(name)) ? 'True' : 'False';
}

/**
 * A nested stack's changes, from its deployed template and the new one: added, removed,
 * and modified resources with the properties that differ. CloudFormation only says whether
 * a change replaces a resource for the root stack's change set, so here it comes from the
 * resource reference for the types fw generates, else "Conditional".
 */
export function compareTemplates(before: Template | undefined, after: Template, nestedStack?: string): ResourceChange[] {
  const changes: ResourceChange[] = [];
  const old = before?.Resources ?? {};
  const where = nestedStack ? { nestedStack } : {};
  for (const [logicalId, resource] of Object.entries(after.Resources)) {
    const previous = old[logicalId];
    if (!previous) {
      changes.push({ action: 'Add', logicalId, type: String(resource.Type), properties: [], ...where });
      continue;
    }
    const a = (previous.Properties ?? {}) as Record<string, unknown>;
    const b = (resource.Properties ?? {}) as Record<string, unknown>;
    const properties = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(name => JSON.stringify(a[name]) !== JSON.stringify(b[name])).sort();
    if (previous.Type !== resource.Type) changes.push({ action: 'Modify', logicalId, type: String(resource.Type), properties, replacement: 'True', ...where });
    else if (properties.length > 0) changes.push({ action: 'Modify', logicalId, type: String(resource.Type), properties, replacement: replacementOf(String(resource.Type), properties), ...where });
  }
  for (const [logicalId, resource] of Object.entries(old)) {
    if (!after.Resources[logicalId]) changes.push({ action: 'Remove', logicalId, type: String(resource.Type), properties: [], ...where });
  }
  return changes;
}
