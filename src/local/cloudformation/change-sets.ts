import { randomUUID } from 'node:crypto';
import { AwsError, validationError } from '../protocol/errors';
import type { QueryParams } from '../protocol/query';
import type { LocalServices } from '../service-interfaces';
import { parseTemplate } from '../template/parse';
import { changesBetween } from './changes';
import { setStackStatus } from './events';
import type { ChangeSetRecord, OperationInput, StackRecord } from './model';
import { newStack, operationInput } from './requests';
import { applyStackSettings, stackSettingsOf } from './stack-settings';

/** Change sets: a preview of an operation, kept with the stack until executed or deleted. */
export class ChangeSetApi {
  constructor(private readonly cloud: LocalServices) {}

  private get stacks() {
    return this.cloud.stacks;
  }

  createChangeSet(params: QueryParams, region: string) {
    const stackName = params.required('StackName');
    const name = params.required('ChangeSetName');
    const type = (params.string('ChangeSetType') ?? 'UPDATE') as 'CREATE' | 'UPDATE';
    let stack = this.stacks.find(stackName);
    if (type === 'CREATE') {
      if (stack && stack.status !== 'REVIEW_IN_PROGRESS') {
        throw validationError(`Stack [${stackName}] already exists and cannot be created again with the changeSet [${name}].`);
      }
    } else if (!stack || stack.status === 'REVIEW_IN_PROGRESS') {
      throw validationError(`Stack [${stackName}] does not exist`);
    }
    if (stack?.changeSets.some((changeSet) => changeSet.name === name)) {
      throw new AwsError('AlreadyExistsException', `ChangeSet [${name}] already exists`);
    }
    const input = operationInput(this.cloud, params, type === 'UPDATE' ? stack : undefined);
    if (!stack) {
      stack = newStack(this.cloud, stackName, region, 'REVIEW_IN_PROGRESS');
      this.cloud.engine.validate(input);
      this.stacks.add(stack);
      setStackStatus(stack, 'REVIEW_IN_PROGRESS', 'User Initiated');
    } else {
      this.cloud.engine.validate(input);
    }
    const oldTemplate = type === 'UPDATE' ? parseTemplate(stack.templateBody) : undefined;
    const changedParameters = Object.keys({ ...stack.parameters, ...input.parameters }).filter((key) => stack!.parameters[key] !== input.parameters[key]);
    const changes = changesBetween(type === 'UPDATE' ? stack : undefined, oldTemplate, input.template, changedParameters);
    const nothing = changes.length === 0 && JSON.stringify(stack.tags) === JSON.stringify(input.tags) && JSON.stringify(oldTemplate?.Outputs) === JSON.stringify(input.template.Outputs);
    const changeSet: ChangeSetRecord = {
      id: `arn:aws:cloudformation:${stack.region}:${this.cloud.accountId}:changeSet/${name}/${randomUUID()}`,
      name,
      type,
      status: nothing ? 'FAILED' : 'CREATE_COMPLETE',
      statusReason: nothing ? "The submitted information didn't contain changes. Submit different information to create a change set." : undefined,
      executionStatus: nothing ? 'UNAVAILABLE' : 'AVAILABLE',
      creationTime: new Date().toISOString(),
      description: params.string('Description'),
      templateBody: input.templateBody,
      parameters: input.parameters,
      capabilities: input.capabilities,
      tags: input.tags,
      changes,
      settings: stackSettingsOf(params),
    };
    stack.changeSets.push(changeSet);
    this.stacks.save();
    return { Id: changeSet.id, StackId: stack.stackId };
  }

  findChangeSet(nameOrId: string, stackName?: string): { stack: StackRecord; changeSet: ChangeSetRecord } {
    const candidates = nameOrId.startsWith('arn:') ? this.stacks.stacks : stackName ? [this.stacks.get(stackName)] : [];
    for (const stack of candidates) {
      const changeSet = stack.changeSets.find((c) => c.id === nameOrId || c.name === nameOrId);
      if (changeSet) return { stack, changeSet };
    }
    throw new AwsError('ChangeSetNotFound', `ChangeSet [${nameOrId}] does not exist`, 404);
  }

  describeChangeSet(params: QueryParams) {
    const { stack, changeSet } = this.findChangeSet(params.required('ChangeSetName'), params.string('StackName'));
    return {
      ChangeSetName: changeSet.name,
      ChangeSetId: changeSet.id,
      StackId: stack.stackId,
      StackName: stack.stackName,
      Description: changeSet.description,
      Parameters: Object.entries(changeSet.parameters).map(([key, value]) => ({ ParameterKey: key, ParameterValue: value })),
      CreationTime: changeSet.creationTime,
      ExecutionStatus: changeSet.executionStatus,
      Status: changeSet.status,
      StatusReason: changeSet.statusReason,
      NotificationARNs: [],
      Capabilities: changeSet.capabilities,
      Tags: changeSet.tags,
      Changes: changeSet.changes.map((change) => ({
        Type: 'Resource',
        ResourceChange: {
          Action: change.action,
          LogicalResourceId: change.logicalId,
          PhysicalResourceId: change.physicalId,
          ResourceType: change.type,
          Replacement: change.replacement,
          Scope: change.scope,
          Details: change.details.map((detail) => ({
            Target: { Attribute: 'Properties', Name: detail.name, RequiresRecreation: detail.requiresRecreation },
            Evaluation: 'Static',
            ChangeSource: 'DirectModification',
          })),
        },
      })),
    };
  }

  executeChangeSet(params: QueryParams) {
    const { stack, changeSet } = this.findChangeSet(params.required('ChangeSetName'), params.string('StackName'));
    if (changeSet.executionStatus !== 'AVAILABLE') {
      throw new AwsError('InvalidChangeSetStatus', `ChangeSet [${changeSet.id}] cannot be executed in its current status of [${changeSet.status}]`);
    }
    const input: OperationInput = {
      template: parseTemplate(changeSet.templateBody),
      templateBody: changeSet.templateBody,
      parameters: changeSet.parameters,
      capabilities: changeSet.capabilities,
      tags: changeSet.tags,
    };
    if (params.boolean('DisableRollback') !== undefined) stack.disableRollback = params.boolean('DisableRollback') === true;
    if (changeSet.type === 'CREATE') this.cloud.engine.create(stack, input);
    else this.cloud.engine.update(stack, input);
    applyStackSettings(stack, changeSet.settings ?? {});
    changeSet.executionStatus = 'EXECUTE_COMPLETE';
    stack.changeSets = stack.changeSets.filter((other) => other === changeSet);
    this.stacks.save();
    return {};
  }

  deleteChangeSet(params: QueryParams) {
    const { stack, changeSet } = this.findChangeSet(params.required('ChangeSetName'), params.string('StackName'));
    stack.changeSets = stack.changeSets.filter((other) => other !== changeSet);
    this.stacks.save();
    return {};
  }

  listChangeSets(params: QueryParams) {
    const stack = this.stacks.get(params.required('StackName'));
    return {
      Summaries: stack.changeSets.map((changeSet) => ({
        StackId: stack.stackId,
        StackName: stack.stackName,
        ChangeSetId: changeSet.id,
        ChangeSetName: changeSet.name,
        ExecutionStatus: changeSet.executionStatus,
        Status: changeSet.status,
        StatusReason: changeSet.statusReason,
        CreationTime: changeSet.creationTime,
        Description: changeSet.description,
      })),
    };
  }
}
