import { DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { apiGatewayClient, type AwsClients } from '../aws/clients';

/** An API key of the stack and its value, as `serverless info` lists them under "api keys". */
export interface ApiKeyValue {
  name: string;
  value: string;
}

/**
 * The API keys a stack (and its nested stacks) holds, with their values read from
 * API Gateway (`GetApiKey` with `includeValue`), sorted by name.
 */
export async function stackApiKeys(clients: AwsClients, stackName: string): Promise<ApiKeyValue[]> {
  // One DescribeStackResources per stack: the root's answer names its nested stacks too.
  const ids: string[] = [];
  const pending = [stackName];
  for (let stack = pending.shift(); stack !== undefined; stack = pending.shift()) {
    const { StackResources } = await clients.cloudFormation.send(new DescribeStackResourcesCommand({ StackName: stack }));
    for (const resource of StackResources ?? []) {
      if (!resource.PhysicalResourceId) continue;
      if (resource.ResourceType === 'AWS::ApiGateway::ApiKey') ids.push(resource.PhysicalResourceId);
      if (resource.ResourceType === 'AWS::CloudFormation::Stack' && stack === stackName) pending.push(resource.PhysicalResourceId);
    }
  }
  if (ids.length === 0) return [];
  const { GetApiKeyCommand } = require('@aws-sdk/client-api-gateway') as typeof import('@aws-sdk/client-api-gateway');
  const apiGateway = apiGatewayClient(clients.target);
  try {
    const keys = await Promise.all(ids.map(id => apiGateway.send(new GetApiKeyCommand({ apiKey: id, includeValue: true }))));
    return keys.map(key => ({ name: key.name ?? key.id ?? '', value: key.value ?? '' })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } finally {
    apiGateway.destroy();
  }
}
