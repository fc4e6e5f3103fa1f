import type { DeployedResources, LoadBalancerEndpoints, Stores } from './service-interfaces';
import type { ResourceRecord, StackRecord } from './cloudformation/model';
import { byKey } from '../order';
import { isCustomResourceType, notRunReason } from './providers/custom-resource';
import { runsLocally, runtimeMismatch, usesRuntimeApi } from './runtime/interpreters';
import { LAYER_VERSION_TYPE, layerArns } from './runtime/layers-folder';
import { jsonResponse, type LocalRequest, type LocalResponse } from './http';

export const DEPLOY_REPORT_PATH = '/_fw/deploy-report';

/** The user pool Lambda triggers the local Cognito runs. */
const RUN_TRIGGERS = new Set(['PreSignUp', 'PostConfirmation', 'PreAuthentication', 'PostAuthentication', 'PreTokenGeneration', 'PreTokenGenerationConfig']);

/**
 * The parts of a deployed stack (and its nested stacks) that deploy but do not
 * behave locally as on AWS, one line each: what `fw deploy --local` warns about.
 */
export function notEnforced(cloud: Pick<Stores, 'stacks' | 's3' | 'cognito'> & Pick<DeployedResources, 'resources'>, stack: StackRecord): string[] {
  const layers = new Set(cloud.resources(LAYER_VERSION_TYPE).map(({ record }) => record.physicalId));
  const recorded = new Map<string, string[]>();
  const lines: string[] = [];
  const all: ResourceRecord[] = [];
  const visit = (current: StackRecord) => {
    for (const record of Object.values(current.resources)) {
      all.push(record);
      const properties = record.properties;
      if (record.type === 'AWS::CloudFormation::Stack') {
        const child = cloud.stacks.find(record.physicalId);
        if (child) visit(child);
        continue;
      }
      // The SQS API and the shard delivery run the function of a mapping on a queue or a DynamoDB / Kinesis stream.
      const sqsMapping = record.type === 'AWS::Lambda::EventSourceMapping' && /^arn:aws[a-z-]*:(sqs|kinesis|dynamodb):/.test(String(properties.EventSourceArn ?? ''));
      // fw's own deployment bucket policy only refuses requests not made over TLS; the local cloud
      // serves plain HTTP, so there is nothing a user could expect it to do here.
      const deploymentBucketPolicy = record.logicalId === 'ServerlessDeploymentBucketPolicy';
      if (!record.emulated && !sqsMapping && !deploymentBucketPolicy) recorded.set(record.type, [...(recorded.get(record.type) ?? []), record.logicalId]);
      // On a pool of the local Cognito the authorizer verifies tokens as API Gateway does.
      const localPool = ((properties.ProviderARNs as unknown[] | undefined) ?? []).some((arn) => cloud.cognito.find(String(arn).split('/').pop() ?? '') !== undefined);
      if (record.type === 'AWS::ApiGateway::Authorizer' && String(properties.Type).toUpperCase() === 'COGNITO_USER_POOLS' && !localPool) {
        lines.push(`${record.logicalId}: Cognito user pool authorizer not enforced (its pool is not in the local cloud); its methods refuse requests without a token and pass the token's claims unverified`);
      }
      if (record.type === 'AWS::Cognito::UserPoolDomain') lines.push(`${record.logicalId}: hosted UI and OAuth endpoints not emulated (the domain is set on its pool)`);
      // PreSignUp, PostConfirmation and the sign-in triggers run (cognito/service.ts); the others do not.
      const triggers = record.type === 'AWS::Cognito::UserPool' ? Object.keys((properties.LambdaConfig ?? {}) as object).filter((name) => !RUN_TRIGGERS.has(name)).sort() : [];
      if (triggers.length > 0) lines.push(`${record.logicalId}: Lambda triggers not run (${triggers.join(', ')})`);
      const tokenVersion = record.type === 'AWS::Cognito::UserPool' ? ((properties.LambdaConfig as Record<string, { LambdaVersion?: unknown } | undefined> | undefined)?.PreTokenGenerationConfig?.LambdaVersion ?? 'V1_0') : 'V1_0';
      if (tokenVersion !== 'V1_0') lines.push(`${record.logicalId}: PreTokenGeneration gets the V1_0 event, not ${String(tokenVersion)} (the access token is not customized)`);
      // Serverless Framework writes `Policy: ""` when there is none.
      if (record.type === 'AWS::ApiGateway::RestApi' && properties.Policy !== undefined && properties.Policy !== '' && JSON.stringify(properties.Policy) !== '{}') {
        lines.push(`${record.logicalId}: resource policy not enforced`);
      }
      if (record.type === 'AWS::ApiGateway::RestApi' && JSON.stringify(properties.EndpointConfiguration ?? {}).includes('PRIVATE')) {
        lines.push(`${record.logicalId}: PRIVATE endpoint type not enforced (the API answers on localhost)`);
      }
      const notRun = isCustomResourceType(record.type) ? notRunReason(record.type, properties, cloud.s3) : undefined;
      if (notRun) lines.push(`${record.logicalId}: custom resource not run: ${notRun}`);
      if (record.type === 'AWS::Lambda::Function') {
        const note = functionNote(properties);
        if (note) lines.push(`${record.logicalId}: ${note}`);
        for (const layer of layerArns(properties).filter((arn) => !layers.has(arn))) lines.push(`${record.logicalId}: layer ${layer} is not in the local cloud; its files are missing when the function runs`);
      }
      const listenerNote = loadBalancerNotEmulated(record.type, properties);
      if (listenerNote) lines.push(`${record.logicalId}: ${listenerNote}`);
      if (throttlesStage(record.type, properties)) lines.push(`${record.logicalId}: stage or method throttling not applied (usage plan throttles and quotas are)`);
    }
  };
  visit(stack);
  lines.push(...deliveriesWithoutPolicy(all));
  lines.push(...stackSettingsNotEnforced(stack));
  const recordedLines = [...recorded].sort(byKey).map(([type, ids]) => `${type} (${ids.sort().join(', ')}): recorded, not emulated`);
  return [...recordedLines, ...lines.sort()];
}

/**
 * Deliveries the local cloud makes that AWS makes only where the target's resource policy allows the
 * sending service: to an EventBridge rule's SNS topic or SQS queue target (events.amazonaws.com, unless
 * the target has a role) and to an SNS subscription's SQS queue (sns.amazonaws.com). A policy made
 * outside the stack is not seen: the lines say "in the stack".
 */
function deliveriesWithoutPolicy(records: ResourceRecord[]): string[] {
  const queueArns = new Map(records.filter((r) => r.type === 'AWS::SQS::Queue').map((r) => [r.physicalId, String(r.attributes.Arn ?? '')]));
  const policies: Array<{ targets: string[]; document: string }> = [];
  for (const record of records) {
    const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
    const document = JSON.stringify(record.properties.PolicyDocument ?? {});
    if (record.type === 'AWS::SNS::TopicPolicy') policies.push({ targets: list(record.properties.Topics), document });
    if (record.type === 'AWS::SQS::QueuePolicy') policies.push({ targets: list(record.properties.Queues).map((url) => queueArns.get(url) ?? url), document });
  }
  const allowed = (arn: string, principal: string) => policies.some((policy) => policy.targets.includes(arn) && policy.document.includes(JSON.stringify(principal)));
  const kind = (arn: string) => (/^arn:aws[a-z-]*:sns:/.test(arn) ? 'topic' : /^arn:aws[a-z-]*:sqs:/.test(arn) ? 'queue' : undefined);
  const line = (logicalId: string, arn: string, principal: string) =>
    `${logicalId}: delivers to ${arn} here; AWS delivers only if the ${kind(arn)}'s policy allows ${principal} (no policy in the stack does)`;
  const lines: string[] = [];
  for (const record of records) {
    if (record.type === 'AWS::Events::Rule') {
      for (const target of (Array.isArray(record.properties.Targets) ? record.properties.Targets : []) as Array<{ Arn?: unknown; RoleArn?: unknown }>) {
        const arn = String(target.Arn ?? '');
        if (kind(arn) && !target.RoleArn && !allowed(arn, 'events.amazonaws.com')) lines.push(line(record.logicalId, arn, 'events.amazonaws.com'));
      }
    }
    const endpoint = String(record.properties.Endpoint ?? '');
    if (record.type === 'AWS::SNS::Subscription' && record.properties.Protocol === 'sqs' && kind(endpoint) === 'queue' && !allowed(endpoint, 'sns.amazonaws.com')) {
      lines.push(line(record.logicalId, endpoint, 'sns.amazonaws.com'));
    }
  }
  return lines;
}

/** What the local runtime does not run of a function as AWS would (a container image, Java, another Python version), or nothing. */
function functionNote(properties: Record<string, unknown>): string | undefined {
  const notRun = 'not run by the local cloud (it runs Node.js, Python and Runtime API functions: provided, go1.x); invoking it fails';
  if (properties.PackageType === 'Image') return `container image ${notRun}`;
  const runtime = String(properties.Runtime ?? 'nodejs20.x');
  if (!runsLocally(runtime)) return `runtime ${runtime} ${notRun}`;
  if (usesRuntimeApi(runtime)) return `runtime ${runtime}: its executable runs on this machine (${process.platform}/${process.arch}), not on Amazon Linux; a binary built for another system fails`;
  return runtimeMismatch(runtime);
}

/** The deploy-time settings the stack was deployed with, which the local cloud records (DescribeStacks) but does not act on; its stack policy it enforces. */
function stackSettingsNotEnforced(stack: StackRecord): string[] {
  const lines: string[] = [];
  if (stack.roleArn) lines.push(`service role ${stack.roleArn}: recorded, not assumed`);
  if ((stack.notificationArns ?? []).length > 0) lines.push(`notification topics of ${stack.stackName}: recorded, no stack events are published to them`);
  if ((stack.rollbackConfiguration?.RollbackTriggers ?? []).length > 0) lines.push(`rollback triggers of ${stack.stackName}: recorded, their alarms are not watched`);
  return lines;
}

/** What of a load balancer listener or rule the local listener does not do. */
function loadBalancerNotEmulated(type: string, properties: Record<string, unknown>): string | undefined {
  if (type !== 'AWS::ElasticLoadBalancingV2::Listener' && type !== 'AWS::ElasticLoadBalancingV2::ListenerRule') return undefined;
  const actions = ((type.endsWith('Listener') ? properties.DefaultActions : properties.Actions) as { Type?: string }[] | undefined) ?? [];
  const notes: string[] = [];
  if (actions.some((action) => String(action.Type).startsWith('authenticate-'))) notes.push('authenticate actions not applied (requests go straight to the next action)');
  if (type.endsWith('Listener') && properties.Protocol === 'HTTPS') notes.push('served over plain HTTP (no certificate)');
  return notes.length > 0 ? notes.join('; ') : undefined;
}

/** Stage-level and per-method throttles: only usage plans' own Throttle and Quota are applied locally. */
function throttlesStage(type: string, properties: Record<string, unknown>): boolean {
  if (type === 'AWS::ApiGateway::Stage') return JSON.stringify(properties.MethodSettings ?? []).includes('Throttling');
  if (type === 'AWS::ApiGatewayV2::Stage') return JSON.stringify([properties.DefaultRouteSettings ?? {}, properties.RouteSettings ?? {}]).includes('Throttling');
  if (type === 'AWS::ApiGateway::UsagePlan') return ((properties.ApiStages as { Throttle?: unknown }[] | undefined) ?? []).some((stage) => stage.Throttle !== undefined);
  return false;
}

/** The stack and its nested stacks, by stack id. */
function stackTree(cloud: Pick<Stores, 'stacks'>, stack: StackRecord, ids = new Set<string>()): Set<string> {
  ids.add(stack.stackId);
  for (const record of Object.values(stack.resources)) {
    const child = record.type === 'AWS::CloudFormation::Stack' ? cloud.stacks.find(record.physicalId) : undefined;
    if (child && !ids.has(child.stackId)) stackTree(cloud, child, ids);
  }
  return ids;
}

/** `GET /_fw/deploy-report?stack=NAME`: what `fw deploy` prints after deploying to the local cloud. */
export async function deployReportResponse(cloud: Pick<Stores, 'stacks' | 's3' | 'cognito'> & Pick<DeployedResources, 'resources'> & { loadBalancers: LoadBalancerEndpoints }, request: LocalRequest): Promise<LocalResponse | undefined> {
  if (request.path !== DEPLOY_REPORT_PATH) return undefined;
  const name = request.search.get('stack') ?? '';
  const stack = cloud.stacks.find(name);
  if (!stack) return jsonResponse({ message: `Stack with id ${name} does not exist` }, 404);
  await cloud.loadBalancers.ready();
  const loadBalancers = cloud.loadBalancers.endpoints(stackTree(cloud, stack)).map(({ listenerArn, url, logicalId }) => ({ listener: logicalId ?? listenerArn, url }));
  const response = jsonResponse({ stack: stack.stackName, notEnforced: notEnforced(cloud, stack), loadBalancers });
  return { ...response, headers: { ...response.headers, 'x-fw-local': '1' } };
}
