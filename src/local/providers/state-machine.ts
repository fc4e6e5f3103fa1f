import { AwsError } from '../protocol/errors';
import { lowerCamel, renameMembers } from '../protocol/member-names';
import { randomSuffix } from './names';
import type { ProviderContext, Provisioned, ResourceProvider } from './provider';

/**
 * The definition's text with `${name}` replaced by DefinitionSubstitutions: in DefinitionString as
 * written, in a Definition object inside its JSON strings (each value escaped as a JSON string's content).
 */
export function definitionText(properties: Record<string, unknown>): string {
  const substitutions = (properties.DefinitionSubstitutions ?? {}) as Record<string, unknown>;
  if (properties.DefinitionS3Location !== undefined) throw new AwsError('ValidationError', 'not emulated: Step Functions DefinitionS3Location (give Definition or DefinitionString)');
  const inObject = properties.Definition !== undefined;
  const given = inObject ? JSON.stringify(properties.Definition) : properties.DefinitionString;
  if (typeof given !== 'string') throw new AwsError('ValidationError', 'Properties validation failed for resource: Definition or DefinitionString is required');
  let text = given;
  for (const [name, value] of Object.entries(substitutions)) {
    const replacement = typeof value === 'string' ? value : JSON.stringify(value);
    text = text.split(`\${${name}}`).join(inObject ? JSON.stringify(replacement).slice(1, -1) : replacement);
  }
  return text;
}

function provisioned(arn: string, name: string): Provisioned {
  return { physicalId: arn, ref: arn, attributes: { Arn: arn, Name: name, StateMachineRevisionId: arn } };
}

function settings(properties: Record<string, unknown>) {
  const logging = renameMembers(properties.LoggingConfiguration ?? {}, lowerCamel) as Record<string, unknown>;
  const tracing = renameMembers(properties.TracingConfiguration ?? {}, lowerCamel) as Record<string, unknown>;
  return {
    definition: definitionText(properties),
    roleArn: String(properties.RoleArn ?? ''),
    loggingConfiguration: { level: 'OFF', includeExecutionData: false, ...logging },
    tracingConfiguration: { enabled: false, ...tracing },
  };
}

/**
 * A state machine a stack declares is a state machine of the local Step Functions: executions
 * started on `!Ref Machine` run its definition. CloudFormation names an unnamed one `<LogicalId>-<random>`.
 */
export const stateMachineProvider: ResourceProvider = {
  replaceOn: ['StateMachineName', 'StateMachineType'],
  create(properties, context: ProviderContext) {
    const name = typeof properties.StateMachineName === 'string' ? properties.StateMachineName : `${context.logicalId.slice(0, 67)}-${randomSuffix(12)}`;
    const tags = Array.isArray(properties.Tags) ? (properties.Tags as { Key: string; Value: string }[]).map((tag) => ({ key: tag.Key, value: tag.Value })) : [];
    const machine = context.cloud.stepFunctions.create({ name, ...settings(properties), type: properties.StateMachineType === 'EXPRESS' ? 'EXPRESS' : 'STANDARD', tags, stackId: context.stackId }, context.region);
    return provisioned(machine.stateMachineArn, machine.name);
  },
  update(properties, previous, context) {
    const machine = context.cloud.stepFunctions.update(previous.physicalId, settings(properties));
    return provisioned(machine.stateMachineArn, machine.name);
  },
  delete(record, context) {
    context.cloud.stepFunctions.delete(record.physicalId);
  },
};

/** An activity a stack declares (`AWS::StepFunctions::Activity`): Ref and Arn are its ARN, Name its name. */
export const activityProvider: ResourceProvider = {
  replaceOn: ['Name'],
  create(properties, context: ProviderContext) {
    const tags = Array.isArray(properties.Tags) ? (properties.Tags as { Key: string; Value: string }[]).map((tag) => ({ key: tag.Key, value: tag.Value })) : [];
    const activity = context.cloud.stepFunctions.createActivity(String(properties.Name), tags, context.region, context.stackId);
    return { physicalId: activity.activityArn, ref: activity.activityArn, attributes: { Arn: activity.activityArn, Name: activity.name } };
  },
  delete(previous, context) {
    context.cloud.stepFunctions.deleteActivity(previous.physicalId);
  },
};
