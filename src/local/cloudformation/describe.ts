import { describedSettings } from './stack-settings';
import { checkIntrinsicShapes } from '../template/intrinsic-shapes';
import { dependencyGraph } from '../template/graph';
import { validationError } from '../protocol/errors';
import type { QueryParams } from '../protocol/query';
import type { LocalServices } from '../service-interfaces';
import { localizeEndpoints } from '../gateway/endpoints';
import { parseTemplate } from '../template/parse';
import type { Template } from '../template/types';
import type { ChangeSetApi } from './change-sets';
import type { StackRecord } from './model';
import { page } from './requests';
import { templateText } from './template-source';

/** The read-only CloudFormation operations: stacks, events, resources, templates, exports. */
export class DescribeApi {
  constructor(private readonly cloud: LocalServices) {}

  private get stacks() {
    return this.cloud.stacks;
  }

  private describeStack(stack: StackRecord): Record<string, unknown> {
    let declarations: Template['Parameters'] = {};
    try {
      declarations = stack.templateBody ? parseTemplate(stack.templateBody).Parameters ?? {} : {};
    } catch {
      declarations = {};
    }
    return {
      StackId: stack.stackId,
      StackName: stack.stackName,
      Description: stack.description,
      Parameters: Object.entries(declarations).map(([key, declaration]) => ({
        ParameterKey: key,
        ParameterValue: declaration.NoEcho === true || declaration.NoEcho === 'true' ? '****' : stack.parameters[key] ?? String(declaration.Default ?? ''),
      })),
      CreationTime: stack.creationTime,
      DeletionTime: stack.deletionTime,
      LastUpdatedTime: stack.lastUpdatedTime,
      StackStatus: stack.status,
      StackStatusReason: stack.statusReason,
      DisableRollback: stack.disableRollback,
      ParentId: stack.parentId,
      RootId: stack.rootId,
      ...describedSettings(stack),
      Capabilities: stack.capabilities,
      Outputs: stack.outputs.map((output) => ({ ...output, OutputValue: localizeEndpoints(output.OutputValue, this.cloud.baseUrl) })),
      Tags: stack.tags,
      EnableTerminationProtection: stack.terminationProtection,
      DriftInformation: { StackDriftStatus: 'NOT_CHECKED' },
    };
  }

  describeStacks(params: QueryParams) {
    const name = params.string('StackName');
    const stacks = name ? [this.stacks.get(name)] : this.stacks.live();
    const { items, next } = page(stacks, params.string('NextToken'));
    return { Stacks: items.map((stack) => this.describeStack(stack)), NextToken: next };
  }

  listStacks(params: QueryParams) {
    const filter = params.list('StackStatusFilter');
    const stacks = this.stacks.stacks.filter((stack) => filter.length === 0 || filter.includes(stack.status));
    const { items, next } = page(stacks, params.string('NextToken'));
    return {
      StackSummaries: items.map((stack) => ({
        StackId: stack.stackId,
        StackName: stack.stackName,
        TemplateDescription: stack.description,
        CreationTime: stack.creationTime,
        LastUpdatedTime: stack.lastUpdatedTime,
        DeletionTime: stack.deletionTime,
        StackStatus: stack.status,
        StackStatusReason: stack.statusReason,
        ParentId: stack.parentId,
        RootId: stack.rootId,
      })),
      NextToken: next,
    };
  }

  describeStackEvents(params: QueryParams) {
    const stack = this.stacks.get(params.required('StackName'));
    const { items, next } = page([...stack.events].reverse(), params.string('NextToken'));
    return { StackEvents: items, NextToken: next };
  }

  private resource(stack: StackRecord, logicalId: string) {
    const record = stack.resources[logicalId];
    if (!record) throw validationError(`Resource ${logicalId} does not exist for stack ${stack.stackName}`);
    return record;
  }

  describeStackResource(params: QueryParams) {
    const stack = this.stacks.get(params.required('StackName'));
    const record = this.resource(stack, params.required('LogicalResourceId'));
    return {
      StackResourceDetail: {
        StackName: stack.stackName,
        StackId: stack.stackId,
        LogicalResourceId: record.logicalId,
        PhysicalResourceId: record.physicalId,
        ResourceType: record.type,
        LastUpdatedTimestamp: record.timestamp,
        ResourceStatus: record.status,
        ResourceStatusReason: record.statusReason,
        Metadata: '{}',
        DriftInformation: { StackResourceDriftStatus: 'NOT_CHECKED' },
      },
    };
  }

  describeStackResources(params: QueryParams) {
    const physical = params.string('PhysicalResourceId');
    const stackName = params.string('StackName');
    let stack: StackRecord | undefined;
    if (stackName) stack = this.stacks.get(stackName);
    else if (physical) stack = this.stacks.live().find((candidate) => Object.values(candidate.resources).some((r) => r.physicalId === physical));
    if (!stack) throw validationError(`Stack for ${physical ?? 'the request'} does not exist`);
    const logicalId = params.string('LogicalResourceId');
    const records = Object.values(stack.resources).filter((r) => (!logicalId || r.logicalId === logicalId) && (!physical || stackName || r.physicalId === physical));
    return {
      StackResources: records.map((record) => ({
        StackName: stack!.stackName,
        StackId: stack!.stackId,
        LogicalResourceId: record.logicalId,
        PhysicalResourceId: record.physicalId,
        ResourceType: record.type,
        Timestamp: record.timestamp,
        ResourceStatus: record.status,
        ResourceStatusReason: record.statusReason,
        DriftInformation: { StackResourceDriftStatus: 'NOT_CHECKED' },
      })),
    };
  }

  listStackResources(params: QueryParams) {
    const stack = this.stacks.get(params.required('StackName'));
    const { items, next } = page(Object.values(stack.resources), params.string('NextToken'));
    return {
      StackResourceSummaries: items.map((record) => ({
        LogicalResourceId: record.logicalId,
        PhysicalResourceId: record.physicalId,
        ResourceType: record.type,
        LastUpdatedTimestamp: record.timestamp,
        ResourceStatus: record.status,
        ResourceStatusReason: record.statusReason,
        DriftInformation: { StackResourceDriftStatus: 'NOT_CHECKED' },
      })),
      NextToken: next,
    };
  }

  getTemplate(params: QueryParams, changeSets: ChangeSetApi) {
    const changeSetName = params.string('ChangeSetName');
    if (changeSetName) {
      const { changeSet } = changeSets.findChangeSet(changeSetName, params.string('StackName'));
      return { TemplateBody: changeSet.templateBody, StagesAvailable: ['Original', 'Processed'] };
    }
    const stack = this.stacks.get(params.required('StackName'));
    return { TemplateBody: stack.templateBody, StagesAvailable: ['Original', 'Processed'] };
  }

  private templateFromParams(params: QueryParams): Template {
    const stackName = params.string('StackName');
    if (stackName) return parseTemplate(this.stacks.get(stackName).templateBody);
    return parseTemplate(templateText({ body: params.string('TemplateBody'), url: params.string('TemplateURL') }, this.cloud.s3));
  }

  validateTemplate(params: QueryParams) {
    const template = this.templateFromParams(params);
    checkIntrinsicShapes(template);
    dependencyGraph(template);
    const capabilities = Object.values(template.Resources).some((r) => r.Type.startsWith('AWS::IAM::')) ? ['CAPABILITY_IAM'] : [];
    return {
      Parameters: Object.entries(template.Parameters ?? {}).map(([key, declaration]) => ({
        ParameterKey: key,
        DefaultValue: declaration.Default === undefined ? undefined : String(declaration.Default),
        NoEcho: declaration.NoEcho === true || declaration.NoEcho === 'true',
        Description: declaration.Description,
      })),
      Description: template.Description,
      Capabilities: capabilities,
      CapabilitiesReason: capabilities.length ? 'The following resource(s) require capabilities: [AWS::IAM::Role]' : undefined,
    };
  }

  getTemplateSummary(params: QueryParams) {
    const template = this.templateFromParams(params);
    return {
      Parameters: Object.entries(template.Parameters ?? {}).map(([key, declaration]) => ({
        ParameterKey: key,
        DefaultValue: declaration.Default === undefined ? undefined : String(declaration.Default),
        ParameterType: declaration.Type,
        NoEcho: declaration.NoEcho === true || declaration.NoEcho === 'true',
        Description: declaration.Description,
      })),
      Description: template.Description,
      ResourceTypes: [...new Set(Object.values(template.Resources).map((r) => r.Type))],
      Version: template.AWSTemplateFormatVersion,
    };
  }

  listExports(params: QueryParams) {
    const exports = [...this.cloud.exports()].map(([name, found]) => ({ ExportingStackId: found.stackId, Name: name, Value: localizeEndpoints(found.value, this.cloud.baseUrl) }));
    const { items, next } = page(exports, params.string('NextToken'));
    return { Exports: items, NextToken: next };
  }
}
