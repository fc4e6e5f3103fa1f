import { DescribeStackResourcesCommand, GetTemplateCommand } from '@aws-sdk/client-cloudformation';
import type { Template, TemplateResource } from '../synth/template';
import type { AwsClients } from '../aws/clients';

/** The template a stack runs now (none when it cannot be read). */
export async function currentTemplate(clients: AwsClients, stackName: string): Promise<Template | undefined> {
  try {
    const result = await clients.cloudFormation.send(new GetTemplateCommand({ StackName: stackName }));
    return JSON.parse(result.TemplateBody ?? '') as Template;
  } catch {
    return undefined;
  }
}

/** The physical ids of a stack's nested stacks, by their logical ids. */
export async function nestedStackIds(clients: AwsClients, stackName: string): Promise<Map<string, string>> {
  const result = await clients.cloudFormation.send(new DescribeStackResourcesCommand({ StackName: stackName }));
  const ids = new Map<string, string>();
  for (const resource of result.StackResources ?? []) {
    if (resource.ResourceType === 'AWS::CloudFormation::Stack' && resource.PhysicalResourceId) ids.set(resource.LogicalResourceId!, resource.PhysicalResourceId);
  }
  return ids;
}

/**
 * Every resource of the templates a stack and its nested stacks run now, by logical id: what is
 * deployed, whatever the service file says today (a rolled-back deploy left the previous template).
 */
export async function deployedResources(clients: AwsClients, stackName: string): Promise<Map<string, TemplateResource>> {
  const root = await currentTemplate(clients, stackName);
  const resources = new Map(Object.entries(root?.Resources ?? {}));
  if (![...resources.values()].some(resource => resource.Type === 'AWS::CloudFormation::Stack')) return resources;
  for (const stackId of (await nestedStackIds(clients, stackName)).values()) {
    for (const [logicalId, resource] of Object.entries((await currentTemplate(clients, stackId))?.Resources ?? {})) resources.set(logicalId, resource);
  }
  return resources;
}
