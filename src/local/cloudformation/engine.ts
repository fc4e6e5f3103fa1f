import { randomUUID } from 'node:crypto';
import { AwsError, validationError } from '../aws/errors';
import type { LocalCloud } from '../cloud';
import { creationOrder, dependencyGraph } from '../template/graph';
import { parseTemplate } from '../template/parse';
import type { Template } from '../template/types';
import { setStackStatus } from './events';
import type { OperationInput, StackRecord } from './model';
import { parameterValues } from './parameters';
import { message, ResourceFailure, ResourceSteps, type Step } from './resources';

const STABLE = new Set(['CREATE_COMPLETE', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE', 'IMPORT_COMPLETE', 'IMPORT_ROLLBACK_COMPLETE']);
const FAILED_AFTER_BUG: Record<string, string> = {
  CREATE_IN_PROGRESS: 'CREATE_FAILED',
  ROLLBACK_IN_PROGRESS: 'ROLLBACK_FAILED',
  UPDATE_IN_PROGRESS: 'UPDATE_ROLLBACK_FAILED',
  UPDATE_COMPLETE_CLEANUP_IN_PROGRESS: 'UPDATE_COMPLETE',
  UPDATE_ROLLBACK_IN_PROGRESS: 'UPDATE_ROLLBACK_FAILED',
  UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS: 'UPDATE_ROLLBACK_COMPLETE',
  DELETE_IN_PROGRESS: 'DELETE_FAILED',
};

function equalJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Runs stack operations the way CloudFormation does: the call returns at once,
 * then resources are made in dependency order with an event for each step, and
 * a failure rolls everything back to where it was.
 */
export class StackEngine {
  private readonly running = new Set<Promise<void>>();
  private readonly resources: ResourceSteps;

  constructor(private readonly cloud: LocalCloud) {
    this.resources = new ResourceSteps(cloud);
  }

  /** Everything checked before an operation is accepted. */
  validate(input: OperationInput): void {
    const graph = dependencyGraph(input.template);
    creationOrder(graph);
    parameterValues(input.template, input.parameters, (name) => this.cloud.ssm.value(name));
    const required = requiredCapabilities(input.template);
    const missing = required.filter((capability) => !input.capabilities.includes(capability));
    if (missing.length > 0) throw new AwsError('InsufficientCapabilitiesException', `Requires capabilities : [${missing.join(', ')}]`);
  }

  /** Waits for every operation in flight (used when the server stops). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Runs an operation in the background; a bug in it still leaves the stack in a final state, never stuck in progress. */
  private launch(stack: StackRecord, work: () => Promise<void>): void {
    const promise = work()
      .catch((error) => {
        this.cloud.log(`internal error in a stack operation: ${(error as Error).stack ?? error}`);
        const failed = FAILED_AFTER_BUG[stack.status];
        if (failed) setStackStatus(stack, failed, `Internal error in the local cloud: ${message(error)}`);
      })
      .finally(() => {
        this.running.delete(promise);
        this.cloud.log(`stack ${stack.stackName}: ${stack.status}${stack.statusReason ? ` (${stack.statusReason.trim()})` : ''}`);
        this.cloud.stacks.save();
        this.cloud.afterStackChange();
      });
    this.running.add(promise);
  }

  create(stack: StackRecord, input: OperationInput): void {
    this.validate(input);
    stack.templateBody = input.templateBody;
    stack.description = input.template.Description;
    stack.parameters = input.parameters;
    stack.capabilities = input.capabilities;
    stack.tags = input.tags;
    setStackStatus(stack, 'CREATE_IN_PROGRESS', 'User Initiated');
    this.cloud.stacks.save();
    this.launch(stack, () => this.runCreate(stack, input));
  }

  update(stack: StackRecord, input: OperationInput): void {
    if (!STABLE.has(stack.status)) {
      throw validationError(`Stack:${stack.stackId} is in ${stack.status} state and can not be updated.`);
    }
    this.validate(input);
    const unchanged =
      equalJson(parseTemplate(stack.templateBody), input.template) &&
      equalJson(stack.parameters, input.parameters) &&
      equalJson(stack.tags, input.tags);
    if (unchanged) throw validationError('No updates are to be performed.');
    setStackStatus(stack, 'UPDATE_IN_PROGRESS', 'User Initiated');
    stack.lastUpdatedTime = new Date().toISOString();
    this.cloud.stacks.save();
    this.launch(stack, () => this.runUpdate(stack, input));
  }

  delete(stack: StackRecord): void {
    if (stack.status === 'DELETE_COMPLETE') return;
    if (stack.status.endsWith('_IN_PROGRESS') && stack.status !== 'REVIEW_IN_PROGRESS') {
      throw validationError(`Stack [${stack.stackName}] cannot be deleted while in status ${stack.status}`);
    }
    if (stack.terminationProtection) {
      throw validationError(`Stack [${stack.stackName}] cannot be deleted while TerminationProtection is enabled`);
    }
    const exportNames = new Set(stack.outputs.flatMap((output) => (output.ExportName ? [output.ExportName] : [])));
    for (const other of this.cloud.stacks.live()) {
      if (other === stack) continue;
      const used = other.imports.find((name) => exportNames.has(name));
      if (used) throw validationError(`Export ${used} cannot be deleted as it is in use by ${other.stackName}`);
    }
    setStackStatus(stack, 'DELETE_IN_PROGRESS', 'User Initiated');
    this.cloud.stacks.save();
    this.launch(stack, () => this.runDelete(stack));
  }

  private async runCreate(stack: StackRecord, input: OperationInput): Promise<void> {
    const steps: Step[] = [];
    try {
      await this.resources.apply(stack, input, steps);
      setStackStatus(stack, 'CREATE_COMPLETE');
    } catch (error) {
      const reason = error instanceof ResourceFailure
        ? `The following resource(s) failed to ${error.verb}: [${error.logicalId}]. `
        : message(error);
      if (stack.disableRollback) {
        setStackStatus(stack, 'CREATE_FAILED', reason);
        return;
      }
      setStackStatus(stack, 'ROLLBACK_IN_PROGRESS', `${reason}Rollback requested by user.`.trim());
      const failed = await this.resources.undo(stack, steps);
      setStackStatus(stack, failed ? 'ROLLBACK_FAILED' : 'ROLLBACK_COMPLETE', failed);
      stack.outputs = [];
    }
  }

  private async runUpdate(stack: StackRecord, input: OperationInput): Promise<void> {
    const steps: Step[] = [];
    const previous = {
      templateBody: stack.templateBody,
      parameters: stack.parameters,
      tags: stack.tags,
      outputs: stack.outputs,
      imports: stack.imports,
      description: stack.description,
      capabilities: stack.capabilities,
    };
    let oldTemplate: Template;
    let included: Set<string>;
    try {
      oldTemplate = parseTemplate(stack.templateBody);
      included = await this.resources.apply(stack, input, steps);
    } catch (error) {
      const reason = error instanceof ResourceFailure ? `The following resource(s) failed to ${error.verb}: [${error.logicalId}]. ` : message(error);
      setStackStatus(stack, 'UPDATE_ROLLBACK_IN_PROGRESS', reason);
      Object.assign(stack, previous);
      const failed = await this.resources.undo(stack, steps);
      if (failed) {
        setStackStatus(stack, 'UPDATE_ROLLBACK_FAILED', failed);
        return;
      }
      setStackStatus(stack, 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS');
      await this.resources.removeAll(stack, steps.flatMap((step) => (step.kind === 'replaced' ? [step.replacement] : [])));
      setStackStatus(stack, 'UPDATE_ROLLBACK_COMPLETE');
      return;
    }
    setStackStatus(stack, 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS');
    await this.resources.removeAll(stack, steps.flatMap((step) => (step.kind === 'replaced' ? [step.retainPrevious ? { ...step.previous, deletionPolicy: 'Retain' } : step.previous] : [])));
    const removed = deletionOrder(oldTemplate, Object.keys(stack.resources).filter((id) => !included.has(id)));
    await this.resources.removeAll(stack, removed.map((id) => stack.resources[id]));
    setStackStatus(stack, 'UPDATE_COMPLETE');
  }

  private async runDelete(stack: StackRecord): Promise<void> {
    let order: string[];
    try {
      order = deletionOrder(parseTemplate(stack.templateBody), Object.keys(stack.resources));
    } catch {
      order = Object.keys(stack.resources).reverse();
    }
    const failure = await this.resources.removeAll(stack, order.map((id) => stack.resources[id]));
    if (failure) {
      setStackStatus(stack, 'DELETE_FAILED', `The following resource(s) failed to delete: [${failure}]. `);
      return;
    }
    stack.deletionTime = new Date().toISOString();
    stack.outputs = [];
    stack.imports = [];
    setStackStatus(stack, 'DELETE_COMPLETE');
  }

  newStackId(region: string, name: string): string {
    return `arn:aws:cloudformation:${region}:${this.cloud.accountId}:stack/${name}/${randomUUID()}`;
  }
}

/** The reverse of the order the template would create these resources in. */
function deletionOrder(template: Template, ids: string[]): string[] {
  const wanted = new Set(ids);
  let order: string[];
  try {
    order = creationOrder(dependencyGraph(template));
  } catch {
    order = Object.keys(template.Resources);
  }
  const known = order.filter((id) => wanted.has(id));
  const rest = ids.filter((id) => !known.includes(id));
  return [...known, ...rest].reverse();
}

function requiredCapabilities(template: Template): string[] {
  const types = Object.values(template.Resources);
  const iam = types.filter((resource) => resource.Type.startsWith('AWS::IAM::'));
  if (iam.length === 0) return [];
  const named = iam.some((resource) => ['RoleName', 'UserName', 'GroupName', 'ManagedPolicyName', 'InstanceProfileName'].some((name) => resource.Properties?.[name] !== undefined));
  return [named ? 'CAPABILITY_NAMED_IAM' : 'CAPABILITY_IAM'];
}
