import { validationError } from '../protocol/errors';
import type { QueryParams } from '../protocol/query';
import type { RollbackConfigurationRecord, StackRecord, StackSettings } from './model';

export type { RollbackConfigurationRecord, StackSettings };

/** What a CreateStack, UpdateStack or CreateChangeSet request sets; a field it leaves out keeps the stack's value, as in CloudFormation. */
export function stackSettingsOf(params: QueryParams): StackSettings {
  const settings: StackSettings = {};
  const role = params.string('RoleARN');
  if (role !== undefined) settings.roleArn = role;
  // An empty list is sent as `NotificationARNs=` and removes every topic.
  if (params.string('NotificationARNs') !== undefined || params.list('NotificationARNs').length > 0) settings.notificationArns = params.list('NotificationARNs');
  const triggers = params.structs('RollbackConfiguration.RollbackTriggers');
  const minutes = params.number('RollbackConfiguration.MonitoringTimeInMinutes');
  if (triggers.length > 0 || minutes !== undefined || params.string('RollbackConfiguration') !== undefined) {
    settings.rollbackConfiguration = {
      RollbackTriggers: triggers.map((trigger) => ({ Arn: trigger.Arn, Type: trigger.Type })),
      ...(minutes !== undefined ? { MonitoringTimeInMinutes: minutes } : {}),
    };
  }
  const policy = params.string('StackPolicyBody');
  if (policy !== undefined) settings.stackPolicyBody = checkedPolicy(policy);
  return settings;
}

export function applyStackSettings(stack: StackRecord, settings: StackSettings): void {
  if (settings.roleArn !== undefined) stack.roleArn = settings.roleArn;
  if (settings.notificationArns !== undefined) stack.notificationArns = settings.notificationArns;
  if (settings.rollbackConfiguration !== undefined) stack.rollbackConfiguration = settings.rollbackConfiguration;
  if (settings.stackPolicyBody !== undefined) stack.stackPolicyBody = settings.stackPolicyBody;
}

/** A stack policy must be a JSON document with a `Statement`, else CloudFormation refuses it. */
export function checkedPolicy(body: string): string {
  let policy: unknown;
  try {
    policy = JSON.parse(body);
  } catch {
    throw validationError('Error validating stack policy: Invalid stack policy');
  }
  if (!policy || typeof policy !== 'object' || !('Statement' in policy)) throw validationError('Error validating stack policy: Invalid stack policy');
  return body;
}

/** The DescribeStacks fields of the recorded settings. */
export function describedSettings(stack: StackRecord): Record<string, unknown> {
  return {
    RoleARN: stack.roleArn,
    NotificationARNs: stack.notificationArns ?? [],
    RollbackConfiguration: stack.rollbackConfiguration ?? {},
  };
}
