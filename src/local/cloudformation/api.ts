import { AwsError, validationError } from '../protocol/errors';
import type { QueryParams } from '../protocol/query';
import type { LocalServices } from '../service-interfaces';
import { ChangeSetApi } from './change-sets';
import { DescribeApi } from './describe';
import { newStack, operationInput } from './requests';
import { applyStackSettings, checkedPolicy, stackSettingsOf } from './stack-settings';
import { templateText } from './template-source';

const STARTS_AN_OPERATION = new Set(['CreateStack', 'UpdateStack', 'DeleteStack', 'ExecuteChangeSet', 'ContinueUpdateRollback']);

/** The CloudFormation query API (what the SDK, the AWS CLI and boto3 send). Returns each operation's `…Result` content. */
export class CloudFormationApi {
  private readonly describe: DescribeApi;
  private readonly changeSets: ChangeSetApi;

  constructor(private readonly cloud: LocalServices) {
    this.describe = new DescribeApi(cloud);
    this.changeSets = new ChangeSetApi(cloud);
  }

  private get stacks() {
    return this.cloud.stacks;
  }

  handle(action: string, params: QueryParams, region: string): Record<string, unknown> {
    const { describe, changeSets } = this;
    if (STARTS_AN_OPERATION.has(action)) this.cloud.engine.refuseWhileStopping();
    switch (action) {
      case 'CreateStack': return this.createStack(params, region);
      case 'UpdateStack': return this.updateStack(params);
      case 'DeleteStack': return this.deleteStack(params);
      case 'UpdateTerminationProtection': return this.updateTerminationProtection(params);
      case 'SetStackPolicy': return this.setStackPolicy(params);
      case 'GetStackPolicy': return { StackPolicyBody: this.stacks.get(params.required('StackName')).stackPolicyBody };
      case 'CancelUpdateStack': return this.cancelUpdateStack(params);
      case 'ContinueUpdateRollback': return this.continueUpdateRollback(params);
      case 'DescribeStacks': return describe.describeStacks(params);
      case 'ListStacks': return describe.listStacks(params);
      case 'DescribeStackEvents': return describe.describeStackEvents(params);
      case 'DescribeStackResource': return describe.describeStackResource(params);
      case 'DescribeStackResources': return describe.describeStackResources(params);
      case 'ListStackResources': return describe.listStackResources(params);
      case 'GetTemplate': return describe.getTemplate(params, changeSets);
      case 'GetTemplateSummary': return describe.getTemplateSummary(params);
      case 'ValidateTemplate': return describe.validateTemplate(params);
      case 'ListExports': return describe.listExports(params);
      case 'CreateChangeSet': return changeSets.createChangeSet(params, region);
      case 'DescribeChangeSet': return changeSets.describeChangeSet(params);
      case 'ExecuteChangeSet': return changeSets.executeChangeSet(params);
      case 'DeleteChangeSet': return changeSets.deleteChangeSet(params);
      case 'ListChangeSets': return changeSets.listChangeSets(params);
      default:
        throw new AwsError('InvalidAction', `not emulated: CloudFormation ${action}`);
    }
  }

  private createStack(params: QueryParams, region: string) {
    const name = params.required('StackName');
    if (this.stacks.find(name)) throw new AwsError('AlreadyExistsException', `Stack [${name}] already exists`);
    const input = operationInput(this.cloud, params);
    const stack = newStack(this.cloud, name, region, 'CREATE_IN_PROGRESS');
    stack.disableRollback = params.boolean('DisableRollback') === true || params.string('OnFailure') === 'DO_NOTHING';
    stack.deleteOnFailure = params.string('OnFailure') === 'DELETE';
    stack.terminationProtection = params.boolean('EnableTerminationProtection') === true;
    const settings = stackSettingsOf(params);
    this.cloud.engine.validate(input);
    applyStackSettings(stack, settings);
    this.stacks.add(stack);
    this.cloud.engine.create(stack, input);
    return { StackId: stack.stackId };
  }

  private updateStack(params: QueryParams) {
    const stack = this.stacks.get(params.required('StackName'));
    const input = operationInput(this.cloud, params, stack);
    const settings = stackSettingsOf(params);
    const duringUpdate = this.policyDuringUpdate(params);
    if (duringUpdate !== undefined) input.stackPolicyDuringUpdateBody = duringUpdate;
    this.cloud.engine.update(stack, input);
    if (params.boolean('DisableRollback') !== undefined) stack.disableRollback = params.boolean('DisableRollback') === true;
    applyStackSettings(stack, settings);
    return { StackId: stack.stackId };
  }

  private deleteStack(params: QueryParams) {
    const stack = this.stacks.find(params.required('StackName'));
    if (stack) this.cloud.engine.delete(stack);
    return {};
  }

  private cancelUpdateStack(params: QueryParams) {
    this.cloud.engine.cancelUpdate(this.stacks.get(params.required('StackName')));
    return {};
  }

  private continueUpdateRollback(params: QueryParams) {
    this.cloud.engine.continueUpdateRollback(this.stacks.get(params.required('StackName')), params.list('ResourcesToSkip'));
    return {};
  }

  /** StackPolicyDuringUpdateBody or …URL: the policy this update is checked against instead of the stack's. */
  private policyDuringUpdate(params: QueryParams): string | undefined {
    const body = params.string('StackPolicyDuringUpdateBody');
    const url = params.string('StackPolicyDuringUpdateURL');
    if (body !== undefined && url !== undefined) throw validationError('You cannot specify both StackPolicyDuringUpdateURL and StackPolicyDuringUpdateBody');
    if (url !== undefined) return checkedPolicy(templateText({ url }, this.cloud.s3));
    return body === undefined ? undefined : checkedPolicy(body);
  }

  /** Returned by GetStackPolicy; every later update is checked against it (stack-policy.ts). */
  private setStackPolicy(params: QueryParams) {
    const stack = this.stacks.get(params.required('StackName'));
    if (params.string('StackPolicyURL') !== undefined) {
      stack.stackPolicyBody = checkedPolicy(templateText({ url: params.string('StackPolicyURL') }, this.cloud.s3));
    } else {
      stack.stackPolicyBody = checkedPolicy(params.required('StackPolicyBody'));
    }
    this.stacks.save();
    return {};
  }

  private updateTerminationProtection(params: QueryParams) {
    const stack = this.stacks.get(params.required('StackName'));
    stack.terminationProtection = params.boolean('EnableTerminationProtection') === true;
    this.stacks.save();
    return { StackId: stack.stackId };
  }
}
