import type { Parameter, RollbackConfiguration, Tag } from '@aws-sdk/client-cloudformation';
import type { ServerSideEncryption } from '@aws-sdk/client-s3';
import type { LoadedService } from '../service/load';

/**
 * The deploy-time settings of `provider` that change no template but change the requests that
 * deploy it, read the way Serverless v3 reads them: stack tags, the CloudFormation service role,
 * notification topics, stack parameters, the stack policy, rollback settings, how uploads are
 * encrypted and how many deployments the bucket keeps.
 */

type Provider = LoadedService['config']['provider'];
const provider = (packaged: Pick<LoadedService, 'config'>): Provider & Record<string, unknown> =>
  packaged.config.provider as Provider & Record<string, unknown>;

/** v3 tags the stack `STAGE: <stage>`, unless `stackTags` sets a key spelled the same in any case. */
export function stackTags(packaged: Pick<LoadedService, 'config' | 'stage'>): Tag[] {
  const custom = provider(packaged).stackTags ?? {};
  const own = Object.keys(custom).some(key => key.toLowerCase() === 'stage') ? {} : { STAGE: packaged.stage };
  return Object.entries({ ...own, ...custom }).map(([Key, Value]) => ({ Key, Value: String(Value) }));
}

/** `provider.iam.deploymentRole`, else the older `provider.cfnRole`: CloudFormation acts as this role. */
export function deploymentRole(packaged: Pick<LoadedService, 'config'>): string | undefined {
  const settings = provider(packaged);
  return settings.iam?.deploymentRole ?? (settings.cfnRole as string | undefined);
}

/** What every stack operation carrying the full template sends: role, notification topics, parameters. */
export function stackOperationSettings(packaged: Pick<LoadedService, 'config'>): { RoleARN?: string; NotificationARNs: string[]; Parameters?: Parameter[] } {
  const settings = provider(packaged);
  const role = deploymentRole(packaged);
  const parameters = settings.stackParameters as Parameter[] | undefined;
  return {
    ...(role ? { RoleARN: role } : {}),
    // v3 always sends the list, so topics removed from the config are removed from the stack.
    NotificationARNs: (settings.notificationArns as string[] | undefined) ?? [],
    ...(parameters ? { Parameters: parameters } : {}),
  };
}

/**
 * `provider.stackPolicy` (a list of statements) as CloudFormation's policy document; none for an empty
 * list. A statement's single `Action` is sent as a list, as v3's validation rewrites it.
 */
export function stackPolicyBody(packaged: Pick<LoadedService, 'config'>): string | undefined {
  const statements = provider(packaged).stackPolicy as Array<Record<string, unknown>> | undefined;
  if (!statements || statements.length === 0) return undefined;
  const listed = statements.map(statement => (typeof statement?.Action === 'string' ? { ...statement, Action: [statement.Action] } : statement));
  return JSON.stringify({ Statement: listed });
}

export function rollbackConfiguration(packaged: Pick<LoadedService, 'config'>): RollbackConfiguration | undefined {
  return provider(packaged).rollbackConfiguration as RollbackConfiguration | undefined;
}

export const disableRollback = (packaged: Pick<LoadedService, 'config'>): boolean => provider(packaged).disableRollback === true;

type DeploymentBucketObject = {
  serverSideEncryption?: string;
  sseCustomerAlgorithim?: string;
  sseCustomerKey?: string;
  sseCustomerKeyMD5?: string;
  sseKMSKeyId?: string;
  maxPreviousDeploymentArtifacts?: number;
};

function deploymentBucketObject(packaged: Pick<LoadedService, 'config'>): DeploymentBucketObject {
  const bucket = provider(packaged).deploymentBucket;
  return bucket && typeof bucket === 'object' ? (bucket as DeploymentBucketObject) : {};
}

/** The PutObject encryption fields `provider.deploymentBucket` asks for (v3 spells the algorithm `sseCustomerAlgorithim`). */
export interface UploadEncryption {
  ServerSideEncryption?: ServerSideEncryption;
  SSEKMSKeyId?: string;
  SSECustomerAlgorithm?: string;
  SSECustomerKey?: string;
  SSECustomerKeyMD5?: string;
}

export function uploadEncryption(packaged: Pick<LoadedService, 'config'>): UploadEncryption {
  const bucket = deploymentBucketObject(packaged);
  const fields: UploadEncryption = {
    ServerSideEncryption: bucket.serverSideEncryption as ServerSideEncryption | undefined,
    SSEKMSKeyId: bucket.sseKMSKeyId,
    SSECustomerAlgorithm: bucket.sseCustomerAlgorithim,
    SSECustomerKey: bucket.sseCustomerKey,
    SSECustomerKeyMD5: bucket.sseCustomerKeyMD5,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== ''));
}

/** How many deployment folders stay in the bucket after a deploy (v3's default: 5). */
export function keptDeployments(packaged: Pick<LoadedService, 'config'>): number {
  return deploymentBucketObject(packaged).maxPreviousDeploymentArtifacts ?? 5;
}

/**
 * Every `provider` setting that changes the requests of a deploy but not its template, as one value:
 * part of the deployment hash, so changing one deploys even when the template and code are unchanged.
 */
export function deployTimeSettings(packaged: Pick<LoadedService, 'config'>): unknown {
  const settings = provider(packaged);
  const logs = settings.logs as { restApi?: unknown } | undefined;
  const tracing = settings.tracing as { apiGateway?: unknown } | undefined;
  const apiGateway = settings.apiGateway as { metrics?: unknown } | undefined;
  return {
    stackTags: settings.stackTags,
    tags: settings.tags,
    role: deploymentRole(packaged),
    notificationArns: settings.notificationArns,
    stackParameters: settings.stackParameters,
    stackPolicy: settings.stackPolicy,
    rollbackConfiguration: settings.rollbackConfiguration,
    disableRollback: settings.disableRollback,
    deploymentBucket: settings.deploymentBucket,
    restApiStage: [logs?.restApi, tracing?.apiGateway, apiGateway?.metrics],
  };
}

/** One UpdateStage patch operation (API Gateway's PatchOperation, as fw sends them). */
export interface PatchOperation {
  op: 'replace' | 'remove';
  path: string;
  value?: string;
}

/** What a deployment applied to its REST API stage (src/deploy/rest-stage.ts), kept in the deployment's state so the next one can revert what goes. */
export interface AppliedStageSettings {
  operations: PatchOperation[];
  tags: Record<string, string>;
}
