import { validationError } from '../protocol/errors';
import { isCustomResourceType, missingDataKey } from '../providers/custom-resource';
import { recordedAttribute } from '../providers/recorded';
import { resolve, type ResolveContext } from '../template/intrinsics';
import type { Template } from '../template/types';
import type { ResourceRecord, StackRecord } from './model';

export interface Environment {
  accountId: string;
  /** Live stacks, to find the value of an export. */
  exports(): Map<string, { value: string; stackId: string }>;
}

/**
 * The lookups intrinsic functions need while one stack operation runs:
 * pseudo parameters, parameter values, conditions, and the resources made so far.
 */
export function resolveContext(
  stack: StackRecord,
  template: Template,
  parameters: Record<string, unknown>,
  records: Record<string, ResourceRecord>,
  environment: Environment,
  imports: Set<string>,
): ResolveContext {
  const conditions = new Map<string, boolean>();
  const evaluating = new Set<string>();
  const context: ResolveContext = {
    pseudo: {
      'AWS::AccountId': environment.accountId,
      'AWS::Region': stack.region,
      'AWS::StackName': stack.stackName,
      'AWS::StackId': stack.stackId,
      'AWS::Partition': 'aws',
      'AWS::URLSuffix': 'amazonaws.com',
      'AWS::NotificationARNs': [],
    },
    parameters,
    mappings: template.Mappings ?? {},
    condition(name) {
      const known = conditions.get(name);
      if (known !== undefined) return known;
      const declaration = template.Conditions?.[name];
      if (declaration === undefined) throw validationError(`Template format error: Unresolved dependencies [${name}]. Cannot reference resources in the Conditions block of the template`);
      if (evaluating.has(name)) throw validationError(`Template error: circular dependency between conditions: [${[...evaluating].join(', ')}]`);
      evaluating.add(name);
      const value = resolve(declaration, context);
      evaluating.delete(name);
      if (typeof value !== 'boolean') throw validationError(`Template error: condition ${name} must resolve to true or false`);
      conditions.set(name, value);
      return value;
    },
    ref(logicalId) {
      const record = records[logicalId];
      if (!record) throw validationError(`Template error: resource ${logicalId} is not available (its Condition is false or it failed)`);
      return record.ref ?? record.physicalId;
    },
    getAtt(logicalId, attribute) {
      const record = records[logicalId];
      if (!record) throw validationError(`Template error: resource ${logicalId} is not available (its Condition is false or it failed)`);
      const value = record.attributes[attribute];
      if (value !== undefined) return value;
      if (!record.emulated) return recordedAttribute(record.physicalId, attribute, { region: stack.region, accountId: environment.accountId, type: record.type });
      if (isCustomResourceType(record.type)) throw validationError(missingDataKey(attribute, record, stack));
      throw validationError(`Template error: resource ${logicalId} does not support attribute type ${attribute} in Fn::GetAtt`);
    },
    importValue(name) {
      const found = environment.exports().get(name);
      if (!found) throw validationError(`No export named ${name} found.`);
      imports.add(name);
      return found.value;
    },
  };
  return context;
}
