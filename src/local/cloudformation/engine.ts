import { randomUUID } from 'node:crypto';
import { AwsError, validationError } from '../aws/errors';
import type { LocalCloud } from '../cloud';
import { providerFor, isEmulated } from '../providers/registry';
import type { ProviderContext } from '../providers/provider';
import { creationOrder, dependencyGraph } from '../template/graph';
import { resolve } from '../template/intrinsics';
import { parseTemplate } from '../template/parse';
import type { Template } from '../template/types';
import { resolveContext } from './context';
import { recordEvent, setStackStatus } from './events';
import type { OperationInput, OutputRecord, ResourceRecord, StackRecord } from './model';
import { parameterValues } from './parameters';

type Step =
  | { kind: 'created'; logicalId: string }
  | { kind: 'updated'; logicalId: string; previous: ResourceRecord }
  | { kind: 'replaced'; logicalId: string; previous: ResourceRecord; replacement?: ResourceRecord };

class ResourceFailure extends Error {
  constructor(readonly logicalId: string, readonly verb: 'create' | 'update' | 'delete', message: string) {
    super(message);
  }
}

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
const NOT_EMULATED = 'Resource recorded, not emulated by the local cloud';

function equalJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs stack operations the way CloudFormation does: the call returns at once,
 * then resources are made in dependency order with an event for each step, and
 * a failure rolls everything back to where it was.
 */
export class StackEngine {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly cloud: LocalCloud) {}

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

  private providerContext(stack: StackRecord, logicalId: string, type: string): ProviderContext {
    return { cloud: this.cloud, stackName: stack.stackName, stackId: stack.stackId, region: stack.region, accountId: this.cloud.accountId, logicalId, type };
  }

  private async runCreate(stack: StackRecord, input: OperationInput): Promise<void> {
    const steps: Step[] = [];
    try {
      await this.apply(stack, input, steps);
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
      const failed = await this.undo(stack, steps);
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
      included = await this.apply(stack, input, steps);
    } catch (error) {
      const reason = error instanceof ResourceFailure ? `The following resource(s) failed to ${error.verb}: [${error.logicalId}]. ` : message(error);
      setStackStatus(stack, 'UPDATE_ROLLBACK_IN_PROGRESS', reason);
      Object.assign(stack, previous);
      const failed = await this.undo(stack, steps);
      if (failed) {
        setStackStatus(stack, 'UPDATE_ROLLBACK_FAILED', failed);
        return;
      }
      setStackStatus(stack, 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS');
      await this.removeAll(stack, steps.flatMap((step) => (step.kind === 'replaced' ? [step.replacement] : [])));
      setStackStatus(stack, 'UPDATE_ROLLBACK_COMPLETE');
      return;
    }
    setStackStatus(stack, 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS');
    await this.removeAll(stack, steps.flatMap((step) => (step.kind === 'replaced' ? [step.previous] : [])));
    const removed = deletionOrder(oldTemplate, Object.keys(stack.resources).filter((id) => !included.has(id)));
    await this.removeAll(stack, removed.map((id) => stack.resources[id]));
    setStackStatus(stack, 'UPDATE_COMPLETE');
  }

  private async runDelete(stack: StackRecord): Promise<void> {
    let order: string[];
    try {
      order = deletionOrder(parseTemplate(stack.templateBody), Object.keys(stack.resources));
    } catch {
      order = Object.keys(stack.resources).reverse();
    }
    const failure = await this.removeAll(stack, order.map((id) => stack.resources[id]));
    if (failure) {
      setStackStatus(stack, 'DELETE_FAILED', `The following resource(s) failed to delete: [${failure}]. `);
      return;
    }
    stack.deletionTime = new Date().toISOString();
    stack.outputs = [];
    stack.imports = [];
    setStackStatus(stack, 'DELETE_COMPLETE');
  }

  /**
   * Creates and updates the template's resources in dependency order and records
   * each step for a rollback. Returns the resources the template now holds.
   */
  private async apply(stack: StackRecord, input: OperationInput, steps: Step[]): Promise<Set<string>> {
    const template = input.template;
    const parameters = parameterValues(template, input.parameters, (name) => this.cloud.ssm.value(name));
    const imports = new Set<string>();
    const context = resolveContext(stack, template, parameters, stack.resources, this.cloud, imports);
    const order = creationOrder(dependencyGraph(template));
    const included = new Set<string>();
    stack.templateBody = input.templateBody;
    stack.description = template.Description;
    stack.parameters = input.parameters;
    stack.capabilities = input.capabilities;
    stack.tags = input.tags;

    for (const logicalId of order) {
      const declaration = template.Resources[logicalId];
      if (declaration.Condition !== undefined && !context.condition(declaration.Condition)) continue;
      included.add(logicalId);
      const existing = stack.resources[logicalId];
      let properties: Record<string, unknown>;
      try {
        properties = resolve(declaration.Properties ?? {}, context) as Record<string, unknown>;
      } catch (error) {
        this.failStep(stack, logicalId, declaration.Type, existing, message(error));
        throw new ResourceFailure(logicalId, existing ? 'update' : 'create', message(error));
      }
      const provider = providerFor(declaration.Type);
      const providerContext = this.providerContext(stack, logicalId, declaration.Type);
      const base = { logicalId, type: declaration.Type, emulated: isEmulated(declaration.Type), deletionPolicy: declaration.DeletionPolicy };

      if (!existing) {
        recordEvent(stack, { logicalId, physicalId: '', type: declaration.Type }, 'CREATE_IN_PROGRESS', undefined, properties);
        try {
          const made = await provider.create(properties, providerContext);
          stack.resources[logicalId] = { ...base, physicalId: made.physicalId, ref: made.ref, attributes: made.attributes ?? {}, properties, status: 'CREATE_COMPLETE', timestamp: new Date().toISOString() };
        } catch (error) {
          this.failStep(stack, logicalId, declaration.Type, undefined, message(error));
          throw new ResourceFailure(logicalId, 'create', message(error));
        }
        steps.push({ kind: 'created', logicalId });
        recordEvent(stack, { logicalId, physicalId: stack.resources[logicalId].physicalId, type: declaration.Type }, 'CREATE_COMPLETE', base.emulated ? undefined : NOT_EMULATED);
        continue;
      }

      const replace = existing.type !== declaration.Type || (provider.replaceOn ?? []).some((name) => !equalJson(existing.properties[name], properties[name]));
      if (!replace && equalJson(existing.properties, properties)) {
        if (existing.deletionPolicy !== declaration.DeletionPolicy) existing.deletionPolicy = declaration.DeletionPolicy;
        continue;
      }
      if (replace) {
        recordEvent(stack, { logicalId, physicalId: existing.physicalId, type: declaration.Type }, 'UPDATE_IN_PROGRESS', 'Requested update requires the creation of a new physical resource; hence creating one.', properties);
        try {
          const made = await provider.create(properties, providerContext);
          stack.resources[logicalId] = { ...base, physicalId: made.physicalId, ref: made.ref, attributes: made.attributes ?? {}, properties, status: 'UPDATE_COMPLETE', timestamp: new Date().toISOString() };
        } catch (error) {
          this.failStep(stack, logicalId, declaration.Type, existing, message(error));
          throw new ResourceFailure(logicalId, 'update', message(error));
        }
        steps.push({ kind: 'replaced', logicalId, previous: existing });
      } else {
        recordEvent(stack, { logicalId, physicalId: existing.physicalId, type: declaration.Type }, 'UPDATE_IN_PROGRESS', undefined, properties);
        try {
          const made = provider.update ? await provider.update(properties, existing, providerContext) : { physicalId: existing.physicalId, attributes: existing.attributes, ref: existing.ref };
          stack.resources[logicalId] = { ...base, physicalId: made.physicalId, ref: made.ref, attributes: made.attributes ?? existing.attributes, properties, status: 'UPDATE_COMPLETE', timestamp: new Date().toISOString() };
        } catch (error) {
          this.failStep(stack, logicalId, declaration.Type, existing, message(error));
          throw new ResourceFailure(logicalId, 'update', message(error));
        }
        steps.push({ kind: 'updated', logicalId, previous: existing });
      }
      recordEvent(stack, { logicalId, physicalId: stack.resources[logicalId].physicalId, type: declaration.Type }, 'UPDATE_COMPLETE', base.emulated ? undefined : NOT_EMULATED);
    }

    stack.outputs = this.outputs(stack, template, context);
    stack.imports = [...imports];
    return included;
  }

  private failStep(stack: StackRecord, logicalId: string, type: string, existing: ResourceRecord | undefined, reason: string): void {
    const status = existing ? 'UPDATE_FAILED' : 'CREATE_FAILED';
    recordEvent(stack, { logicalId, physicalId: existing?.physicalId ?? '', type }, status, reason);
  }

  private outputs(stack: StackRecord, template: Template, context: ReturnType<typeof resolveContext>): OutputRecord[] {
    const exported = this.cloud.exports();
    const outputs: OutputRecord[] = [];
    for (const [key, declaration] of Object.entries(template.Outputs ?? {})) {
      if (declaration.Condition !== undefined && !context.condition(declaration.Condition)) continue;
      const value = resolve(declaration.Value, context);
      const exportName = declaration.Export ? String(resolve(declaration.Export.Name, context)) : undefined;
      if (exportName !== undefined) {
        const owner = exported.get(exportName);
        if (owner && owner.stackId !== stack.stackId) {
          throw validationError(`Export with name ${exportName} is already exported by stack ${this.cloud.stacks.get(owner.stackId).stackName}`);
        }
      }
      outputs.push({
        OutputKey: key,
        OutputValue: Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value),
        Description: declaration.Description,
        ExportName: exportName,
      });
    }
    return outputs;
  }

  /** Reverses the steps of a failed operation, newest first. Returns a reason when that fails too. */
  private async undo(stack: StackRecord, steps: Step[]): Promise<string | undefined> {
    for (const step of [...steps].reverse()) {
      const current = stack.resources[step.logicalId];
      if (step.kind === 'created') {
        const failed = await this.removeAll(stack, [current]);
        if (failed) return `The following resource(s) failed to delete: [${failed}]. `;
        continue;
      }
      if (step.kind === 'replaced') {
        // The new physical resource goes in the cleanup that follows; the old one is still there.
        stack.resources[step.logicalId] = step.previous;
        step.replacement = current;
        continue;
      }
      const provider = providerFor(step.previous.type);
      recordEvent(stack, { logicalId: step.logicalId, physicalId: current.physicalId, type: current.type }, 'UPDATE_IN_PROGRESS');
      try {
        const restored = provider.update ? await provider.update(step.previous.properties, current, this.providerContext(stack, step.logicalId, current.type)) : undefined;
        stack.resources[step.logicalId] = { ...step.previous, attributes: restored?.attributes ?? step.previous.attributes, status: 'UPDATE_COMPLETE', timestamp: new Date().toISOString() };
        recordEvent(stack, { logicalId: step.logicalId, physicalId: current.physicalId, type: current.type }, 'UPDATE_COMPLETE');
      } catch (error) {
        recordEvent(stack, { logicalId: step.logicalId, physicalId: current.physicalId, type: current.type }, 'UPDATE_FAILED', message(error));
        return `The following resource(s) failed to update: [${step.logicalId}]. `;
      }
    }
    return undefined;
  }

  /**
   * Deletes physical resources in the order given, dropping those the stack
   * still lists. Like CloudFormation it goes on past a failure; returns the
   * logical ids that failed, as the status reason lists them.
   */
  private async removeAll(stack: StackRecord, records: (ResourceRecord | undefined)[]): Promise<string | undefined> {
    const failed: string[] = [];
    for (const record of records) {
      if (!record) continue;
      const where = { logicalId: record.logicalId, physicalId: record.physicalId, type: record.type };
      if (record.deletionPolicy === 'Retain') {
        recordEvent(stack, where, 'DELETE_SKIPPED');
      } else {
        recordEvent(stack, where, 'DELETE_IN_PROGRESS');
        try {
          await providerFor(record.type).delete?.(record, this.providerContext(stack, record.logicalId, record.type));
        } catch (error) {
          recordEvent(stack, where, 'DELETE_FAILED', message(error));
          record.status = 'DELETE_FAILED';
          failed.push(record.logicalId);
          continue;
        }
        recordEvent(stack, where, 'DELETE_COMPLETE');
      }
      if (stack.resources[record.logicalId] === record) delete stack.resources[record.logicalId];
    }
    return failed.length > 0 ? failed.join(', ') : undefined;
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
