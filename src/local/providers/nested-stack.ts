import type { ResourceRecord, StackRecord, OperationInput } from '../cloudformation/model';
import { newStack } from '../cloudformation/requests';
import { templateText } from '../cloudformation/template-source';
import { parseTemplate } from '../template/parse';
import { generatedName } from './names';
import type { ProviderContext, Provisioned, ResourceProvider } from './provider';

/**
 * `AWS::CloudFormation::Stack`: a real child stack, run by the same engine. Its template
 * comes from TemplateURL in the local S3; it takes the parent's capabilities (as AWS does);
 * `Fn::GetAtt [Child, Outputs.Name]` reads its outputs; `Ref` is its stack id.
 */
export const nestedStackProvider: ResourceProvider = {
  async create(properties, context): Promise<Provisioned> {
    const input = childInput(properties, context);
    context.cloud.engine.validate(input);
    const stack = newStack(context.cloud, generatedName(context.stackName, context.logicalId, 128), context.region, 'CREATE_IN_PROGRESS');
    // What lets a restart or a DeleteStack of the parent find this stack when the parent never recorded it (a crash).
    stack.parentId = context.stackId;
    stack.rootId = context.cloud.stacks.find(context.stackId)?.rootId ?? context.stackId;
    context.cloud.stacks.add(stack);
    context.cloud.engine.create(stack, input);
    await context.cloud.engine.settled(stack);
    if (stack.status !== 'CREATE_COMPLETE') {
      const reason = stack.events.find((event) => event.ResourceStatus === 'CREATE_FAILED' && event.LogicalResourceId !== stack.stackName)?.ResourceStatusReason;
      // The child rolled itself back; like CloudFormation, the failed child does not outlive the operation.
      if (stack.status === 'ROLLBACK_COMPLETE') {
        context.cloud.engine.delete(stack);
        await context.cloud.engine.settled(stack);
      }
      throw new Error(`Embedded stack ${stack.stackId} was not successfully created: ${reason ?? stack.statusReason ?? stack.status}`);
    }
    return provisioned(stack);
  },

  async update(properties, previous, context): Promise<Provisioned> {
    const stack = context.cloud.stacks.get(previous.physicalId);
    const input = childInput(properties, context);
    try {
      context.cloud.engine.update(stack, input);
    } catch (error) {
      if (/No updates are to be performed/.test((error as Error).message)) return provisioned(stack);
      throw error;
    }
    await context.cloud.engine.settled(stack);
    if (stack.status !== 'UPDATE_COMPLETE') {
      const reason = stack.events.find((event) => event.ResourceStatus === 'UPDATE_FAILED' && event.LogicalResourceId !== stack.stackName)?.ResourceStatusReason;
      throw new Error(`Embedded stack ${stack.stackId} was not successfully updated. Currently in ${stack.status}${reason ? `: ${reason}` : ''}`);
    }
    return provisioned(stack);
  },

  async delete(record: ResourceRecord, context): Promise<void> {
    const stack = context.cloud.stacks.find(record.physicalId);
    if (!stack || stack.status === 'DELETE_COMPLETE') return;
    context.cloud.engine.delete(stack);
    await context.cloud.engine.settled(stack);
    if (stack.status !== 'DELETE_COMPLETE') throw new Error(`Embedded stack ${stack.stackId} was not successfully deleted: ${stack.statusReason ?? stack.status}`);
  },
};

function childInput(properties: Record<string, unknown>, context: ProviderContext): OperationInput {
  if (typeof properties.TemplateURL !== 'string') throw new Error('Property TemplateURL cannot be empty.');
  const templateBody = templateText({ url: properties.TemplateURL }, context.cloud.s3);
  const parent = context.cloud.stacks.find(context.stackId);
  const parameters: Record<string, string> = {};
  for (const [key, value] of Object.entries((properties.Parameters ?? {}) as Record<string, unknown>)) {
    parameters[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  const tags = Array.isArray(properties.Tags) ? (properties.Tags as { Key: string; Value: string }[]) : parent?.tags ?? [];
  return { template: parseTemplate(templateBody), templateBody, parameters, capabilities: parent?.capabilities ?? [], tags };
}

function provisioned(stack: StackRecord): Provisioned {
  const attributes: Record<string, unknown> = {};
  for (const output of stack.outputs) attributes[`Outputs.${output.OutputKey}`] = output.OutputValue;
  return { physicalId: stack.stackId, attributes };
}
