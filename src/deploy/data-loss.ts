import { CloudError } from '../errors';
import type { Template } from '../synth/template';
import type { ResourceChange } from './preview';

/**
 * Resource types whose deletion takes data with it: items, objects, rows, files, records, messages,
 * users, log events, search documents, backups, secret values, or (for a KMS key) the ability to read
 * whatever it encrypted. Deleting any other type loses configuration that the template recreates.
 */
export const DATA_BEARING_TYPES: ReadonlySet<string> = new Set([
  'AWS::DynamoDB::Table',
  'AWS::DynamoDB::GlobalTable',
  'AWS::S3::Bucket',
  'AWS::RDS::DBInstance',
  'AWS::RDS::DBCluster',
  'AWS::Neptune::DBCluster',
  'AWS::DocDB::DBCluster',
  'AWS::Redshift::Cluster',
  'AWS::EFS::FileSystem',
  'AWS::EC2::Volume',
  'AWS::Kinesis::Stream',
  'AWS::SQS::Queue',
  'AWS::Cognito::UserPool',
  'AWS::Logs::LogGroup',
  'AWS::Elasticsearch::Domain',
  'AWS::OpenSearchService::Domain',
  'AWS::Backup::BackupVault',
  'AWS::SecretsManager::Secret',
  'AWS::KMS::Key',
]);

/** The types CloudFormation can snapshot before deleting (`DeletionPolicy: Snapshot`); for others Snapshot keeps nothing. */
const SNAPSHOT_TYPES: ReadonlySet<string> = new Set([
  'AWS::RDS::DBInstance',
  'AWS::RDS::DBCluster',
  'AWS::Neptune::DBCluster',
  'AWS::DocDB::DBCluster',
  'AWS::Redshift::Cluster',
  'AWS::EC2::Volume',
]);

/**
 * Log groups fw generates for a function or an API hold that function's or API's logs and go with
 * it, as in Serverless Framework; only log groups the service declares itself count as data.
 */
const GENERATED_LOG_GROUP = /^\/aws\/(lambda|http-api|api-gateway|websocket)\//;

/** What a change does to the data a resource holds. */
export interface DataEffect {
  effect: 'removed' | 'replaced' | 'may be replaced';
  /** The policy that keeps the old resource (`DeletionPolicy: Retain`), when one does. */
  keptBy?: string;
}

/** A stack's resources before and after the deploy; `undefined` for the root stack's key. */
export type TemplatesByStack = Map<string | undefined, { before?: Template; after?: Template }>;

/**
 * Marks each change that deletes a data-bearing resource: a removal (judged by the deployed
 * template's DeletionPolicy) or a replacement, certain or possible (judged by the new template's
 * UpdateReplacePolicy). fw's own deployment bucket is fw's to manage and never marked.
 */
export function markDataLoss(changes: ResourceChange[], templates: TemplatesByStack): ResourceChange[] {
  return changes.map(change => {
    const stack = templates.get(change.nestedStack);
    const before = stack?.before?.Resources?.[change.logicalId];
    const after = stack?.after?.Resources?.[change.logicalId];
    const type = String(before?.Type ?? change.type);
    if (!DATA_BEARING_TYPES.has(type) || change.logicalId === 'ServerlessDeploymentBucket') return change;
    const name = (before?.Properties as { LogGroupName?: unknown } | undefined)?.LogGroupName;
    if (type === 'AWS::Logs::LogGroup' && typeof name === 'string' && GENERATED_LOG_GROUP.test(name)) return change;
    if (change.action === 'Remove') return { ...change, data: judged('removed', type, 'DeletionPolicy', before?.DeletionPolicy) };
    if (change.action === 'Modify' && (change.replacement === 'True' || change.replacement === 'Conditional')) {
      return { ...change, data: judged(change.replacement === 'True' ? 'replaced' : 'may be replaced', type, 'UpdateReplacePolicy', after?.UpdateReplacePolicy) };
    }
    return change;
  });
}

function judged(effect: DataEffect['effect'], type: string, attribute: string, policy: unknown): DataEffect {
  const keeps = policy === 'Retain' || policy === 'RetainExceptOnCreate' || (policy === 'Snapshot' && SNAPSHOT_TYPES.has(type));
  return keeps ? { effect, keptBy: `${attribute}: ${String(policy)}` } : { effect };
}

/** The changes that delete data nothing keeps. */
export const dataLosses = (changes: ResourceChange[]) => changes.filter(change => change.data && !change.data.keptBy);

/** `Orders (AWS::DynamoDB::Table) in Nested1 would be removed with its data` */
export function describeDataLoss(change: ResourceChange): string {
  const where = change.nestedStack ? ` in ${change.nestedStack}` : '';
  const what = {
    removed: 'would be removed with its data',
    replaced: 'would be replaced: the old one is deleted with its data',
    'may be replaced': 'may be replaced: the old one would be deleted with its data',
  }[change.data!.effect];
  return `${change.logicalId} (${change.type})${where} ${what}`;
}

/**
 * Why `fw deploy` stopped before changing anything: one line per resource, then how to go ahead.
 * `discarded` says what was prepared and thrown away (the change set), when anything was.
 */
export function refuseDataLoss(stackName: string, losses: ResourceChange[], discarded?: string): CloudError {
  return new CloudError(
    [
      `Deploying stack ${stackName} would delete data, so nothing was changed${discarded ? ` (${discarded})` : ''}:`,
      ...losses.map(change => `  ${describeDataLoss(change)}`),
      'Deploy with --allow-data-loss to accept this, or keep the resource with DeletionPolicy: Retain (UpdateReplacePolicy: Retain for a replacement).',
    ].join('\n'),
  );
}
