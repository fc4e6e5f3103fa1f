import { DescribeStackResourceCommand } from '@aws-sdk/client-cloudformation';
import type { PackagedService } from '../package/service';
import { apiGatewayClient, type AwsClients } from '../aws/clients';
import { describeStack } from './stack';

/**
 * The REST API stage settings Serverless v3 applies with API Gateway calls after the stack update,
 * since its template's stage is the one an AWS::ApiGateway::Deployment makes (no Stage resource to
 * carry them): `provider.tracing.apiGateway`, `provider.apiGateway.metrics`, `provider.logs.restApi`
 * (access and execution logging) as UpdateStage patch operations, and the stage's tags
 * (`provider.stackTags` and `provider.tags`) with TagResource. The operations and their order are
 * v3's (test/fixtures/aws-calls/rest-stage-settings.json). Unlike v3, a setting removed from the
 * service file is reverted (and a tag removed), from what the last deployment recorded it applied.
 */

import type { AppliedStageSettings, PatchOperation } from '../package/stack-settings';

export type { AppliedStageSettings, PatchOperation } from '../package/stack-settings';

/** v3's default access log format. */
export const DEFAULT_ACCESS_LOG_FORMAT =
  'requestId: $context.requestId, ip: $context.identity.sourceIp, caller: $context.identity.caller, user: $context.identity.user, ' +
  'requestTime: $context.requestTime, httpMethod: $context.httpMethod, resourcePath: $context.resourcePath, status: $context.status, ' +
  'protocol: $context.protocol, responseLength: $context.responseLength';

interface RestApiLogs {
  accessLogging?: boolean;
  executionLogging?: boolean;
  level?: string;
  fullExecutionData?: boolean;
  format?: string;
}

/** The settings the service file asks of its REST stage, as v3 sends them: patch operations, then tags. */
export function desiredStageSettings(packaged: Pick<PackagedService, 'config' | 'serviceName' | 'stage'>, logGroupArn: string): AppliedStageSettings {
  const provider = packaged.config.provider as Record<string, unknown>;
  const tracing = (provider.tracing as { apiGateway?: unknown } | undefined)?.apiGateway;
  const metrics = (provider.apiGateway as { metrics?: unknown } | undefined)?.metrics;
  const logsSetting = (provider.logs as { restApi?: unknown } | undefined)?.restApi;
  const operations: PatchOperation[] = [];
  if (typeof tracing === 'boolean') operations.push({ op: 'replace', path: '/tracingEnabled', value: String(tracing) });
  if (typeof metrics === 'boolean') operations.push({ op: 'replace', path: '/*/*/metrics/enabled', value: String(metrics) });
  if (logsSetting) {
    const logs: RestApiLogs = typeof logsSetting === 'object' ? (logsSetting as RestApiLogs) : {};
    if (logs.accessLogging !== false) {
      operations.push({ op: 'replace', path: '/accessLogSettings/destinationArn', value: logGroupArn });
      operations.push({ op: 'replace', path: '/accessLogSettings/format', value: logs.format ?? DEFAULT_ACCESS_LOG_FORMAT });
    }
    if (logs.executionLogging !== false) {
      operations.push({ op: 'replace', path: '/*/*/logging/dataTrace', value: String(logs.fullExecutionData !== false) });
      operations.push({ op: 'replace', path: '/*/*/logging/loglevel', value: logs.level ?? 'INFO' });
    }
  }
  const tags = Object.fromEntries(
    Object.entries({ ...(provider.stackTags as Record<string, unknown> | undefined), ...(provider.tags as Record<string, unknown> | undefined) }).map(([key, value]) => [key, String(value)]),
  );
  return { operations, tags };
}

/** What reverts a setting the last deployment applied and this one no longer asks for (API Gateway's defaults). */
export function revertOperations(previous: PatchOperation[], desired: PatchOperation[]): PatchOperation[] {
  const asked = new Set(desired.map(operation => operation.path));
  const reverts: PatchOperation[] = [];
  for (const { path } of previous) {
    if (asked.has(path)) continue;
    if (path === '/tracingEnabled' || path === '/*/*/metrics/enabled' || path === '/*/*/logging/dataTrace') reverts.push({ op: 'replace', path, value: 'false' });
    else if (path === '/*/*/logging/loglevel') reverts.push({ op: 'replace', path, value: 'OFF' });
    else if (path === '/accessLogSettings/destinationArn') reverts.push({ op: 'remove', path: '/accessLogSettings' });
  }
  return reverts;
}

/**
 * After the stack update: applies the stage settings (and reverts those the last deployment applied
 * that are gone). Returns what was applied, for the deployment's state; nothing when the service has
 * no REST API of its own or asks nothing of the stage.
 */
export async function applyStageSettings(
  packaged: PackagedService,
  clients: AwsClients,
  previous: AppliedStageSettings | undefined,
): Promise<AppliedStageSettings | undefined> {
  if (!packaged.template.Resources.ApiGatewayRestApi && !(packaged.config.provider as { apiGateway?: { restApiId?: unknown } }).apiGateway?.restApiId) return undefined;
  const stack = await describeStack(clients, packaged.stackName);
  const [, partition = 'aws', , region = packaged.region, account = ''] = (stack?.StackId ?? '').split(':');
  const logGroupArn = `arn:${partition}:logs:${region}:${account}:log-group:/aws/api-gateway/${packaged.serviceName}-${packaged.stage}`;
  const desired = desiredStageSettings(packaged, logGroupArn);
  const operations = [...desired.operations, ...revertOperations(previous?.operations ?? [], desired.operations)];
  const untag = Object.keys(previous?.tags ?? {}).filter(key => !(key in desired.tags));
  if (operations.length === 0 && Object.keys(desired.tags).length === 0 && untag.length === 0) return undefined;

  // Loaded only here, as `info` loads it: a service without REST stage settings never needs it.
  const api = require('@aws-sdk/client-api-gateway') as typeof import('@aws-sdk/client-api-gateway');
  const client = apiGatewayClient(clients.target);
  try {
    const restApiId = await restApiIdOf(packaged, clients);
    const stageName = packaged.stage;
    await client.send(new api.GetStageCommand({ restApiId, stageName }));
    if (operations.length > 0) await client.send(new api.UpdateStageCommand({ restApiId, stageName, patchOperations: operations }));
    const resourceArn = `arn:${partition}:apigateway:${region}::/restapis/${restApiId}/stages/${stageName}`;
    if (Object.keys(desired.tags).length > 0) await client.send(new api.TagResourceCommand({ resourceArn, tags: desired.tags }));
    if (untag.length > 0) await client.send(new api.UntagResourceCommand({ resourceArn, tagKeys: untag }));
  } finally {
    client.destroy();
  }
  return desired.operations.length > 0 || Object.keys(desired.tags).length > 0 ? desired : undefined;
}

async function restApiIdOf(packaged: PackagedService, clients: AwsClients): Promise<string> {
  const given = (packaged.config.provider as { apiGateway?: { restApiId?: unknown } }).apiGateway?.restApiId;
  if (typeof given === 'string') return given;
  const resource = await clients.cloudFormation.send(new DescribeStackResourceCommand({ StackName: packaged.stackName, LogicalResourceId: 'ApiGatewayRestApi' }));
  return resource.StackResourceDetail!.PhysicalResourceId!;
}
