import type { LocalCloud } from './cloud';
import type { StackRecord } from './cloudformation/model';
import { jsonResponse, type LocalRequest, type LocalResponse } from './http';

export const DEPLOY_REPORT_PATH = '/_fw/deploy-report';

/**
 * The parts of a deployed stack (and its nested stacks) that deploy but do not
 * behave locally as on AWS, one line each: what `fw deploy --local` warns about.
 */
export function notEnforced(cloud: LocalCloud, stack: StackRecord): string[] {
  const recorded = new Map<string, string[]>();
  const lines: string[] = [];
  const visit = (current: StackRecord) => {
    for (const record of Object.values(current.resources)) {
      const properties = record.properties;
      if (record.type === 'AWS::CloudFormation::Stack') {
        const child = cloud.stacks.find(record.physicalId);
        if (child) visit(child);
        continue;
      }
      // The SQS API runs the function of a mapping on a queue; mappings on streams are recorded only.
      const sqsMapping = record.type === 'AWS::Lambda::EventSourceMapping' && String(properties.EventSourceArn ?? '').includes(':sqs:');
      if (!record.emulated && !sqsMapping) recorded.set(record.type, [...(recorded.get(record.type) ?? []), record.logicalId]);
      if (record.type === 'AWS::ApiGateway::Authorizer' && String(properties.Type).toUpperCase() === 'COGNITO_USER_POOLS') {
        lines.push(`${record.logicalId}: Cognito user pool authorizer not enforced (no local Cognito); its methods refuse requests without a token and pass the token's claims unverified`);
      }
      if (record.type === 'AWS::ApiGatewayV2::Api' && properties.ProtocolType === 'WEBSOCKET') {
        lines.push(`${record.logicalId}: WebSocket API not served by the local cloud`);
      }
    }
  };
  visit(stack);
  const recordedLines = [...recorded].map(([type, ids]) => `${type} (${ids.join(', ')}): recorded, not emulated`);
  return [...recordedLines, ...lines];
}

/** The stack's API keys and their values, as `serverless deploy` lists them under "api keys". */
export function apiKeys(stack: StackRecord): { name: string; value: string }[] {
  return Object.values(stack.resources)
    .filter((record) => record.type === 'AWS::ApiGateway::ApiKey')
    .map((record) => ({ name: String(record.properties.Name ?? record.physicalId), value: String(record.attributes.Value) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** `GET /_fw/deploy-report?stack=NAME`: what `fw deploy` prints after deploying to the local cloud. */
export function deployReportResponse(cloud: LocalCloud, request: LocalRequest): LocalResponse | undefined {
  if (request.path !== DEPLOY_REPORT_PATH) return undefined;
  const name = request.search.get('stack') ?? '';
  const stack = cloud.stacks.find(name);
  if (!stack) return jsonResponse({ message: `Stack with id ${name} does not exist` }, 404);
  const response = jsonResponse({ stack: stack.stackName, notEnforced: notEnforced(cloud, stack), apiKeys: apiKeys(stack) });
  return { ...response, headers: { ...response.headers, 'x-fw-local': '1' } };
}
