import { validationError } from '../protocol/errors';
import type { EngineServices, LocalServices } from '../service-interfaces';
import { providerFor, isEmulated } from '../providers/registry';
import type { ProviderContext } from '../providers/provider';
import { creationOrder, dependencyGraph } from '../template/graph';
import { resolve } from '../template/intrinsics';
import type { Template } from '../template/types';
import { resolveContext } from './context';
import { recordEvent } from './events';
import type { OperationJournal } from './journal';
import type { OperationInput, OutputRecord, PendingRollback, ResourceRecord, StackRecord, Step } from './model';
import { parameterValues } from './parameters';
import { creationClock, deletionClock } from './provisioning-clock';

export type { Step } from './model';

/** An operation stopped between two resources (CancelUpdateStack, or the local cloud stopping). */
export class OperationCancelled extends Error {}

/** A resource that failed; the stack's status reason names it. */
export class ResourceFailure extends Error {
  constructor(readonly logicalId: string, readonly verb: 'create' | 'update' | 'delete', message: string) {
    super(message);
  }
}

const NOT_EMULATED = 'Resource recorded, not emulated by the local cloud';

function equalJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The resource-level half of a stack operation: creating, updating, replacing
 * and deleting resources through their providers, with an event for each step.
 */
export class ResourceSteps {
  constructor(
    private readonly cloud: EngineServices,
    private readonly providerServices: LocalServices,
    private readonly journal: OperationJournal,
  ) {}

  private providerContext(stack: StackRecord, logicalId: string, type: string, signal?: AbortSignal): ProviderContext {
    return { cloud: this.providerServices, stackName: stack.stackName, stackId: stack.stackId, region: stack.region, accountId: this.cloud.accountId, logicalId, type, signal };
  }

  private done(stack: StackRecord, steps: Step[], step: Step): void {
    steps.push(step);
    this.journal.append(stack, { kind: 'step', step, record: stack.resources[step.logicalId] });
  }

  /**
   * Creates and updates the template's resources in dependency order and records
   * each step for a rollback. Returns the resources the template now holds.
   */
  async apply(stack: StackRecord, input: OperationInput, steps: Step[], signal?: AbortSignal): Promise<Set<string>> {
    const template = input.template;
    const parameters = parameterValues(template, input.parameters, (name) => this.cloud.ssm.value(name));
    const imports = new Set<string>();
    const context = resolveContext(stack, template, parameters, stack.resources, this.cloud, imports);
    const graph = dependencyGraph(template);
    const order = creationOrder(graph);
    const clock = creationClock(this.cloud.provisioningDelay, graph);
    const included = new Set<string>();
    stack.templateBody = input.templateBody;
    stack.description = template.Description;
    stack.parameters = input.parameters;
    stack.capabilities = input.capabilities;
    stack.tags = input.tags;

    for (const logicalId of order) {
      if (signal?.aborted) throw new OperationCancelled(String(signal.reason));
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
      const providerContext = this.providerContext(stack, logicalId, declaration.Type, signal);
      const base = { logicalId, type: declaration.Type, emulated: isEmulated(declaration.Type), deletionPolicy: declaration.DeletionPolicy };

      if (!existing) {
        this.journal.append(stack, { kind: 'pending', logicalId, type: declaration.Type, properties, at: new Date().toISOString() });
        recordEvent(stack, { logicalId, physicalId: '', type: declaration.Type }, 'CREATE_IN_PROGRESS', undefined, properties);
        try {
          const made = await provider.create(properties, providerContext);
          stack.resources[logicalId] = { ...base, emulated: made.emulated ?? base.emulated, physicalId: made.physicalId, ref: made.ref, attributes: made.attributes ?? {}, properties, status: 'CREATE_COMPLETE', timestamp: new Date().toISOString() };
        } catch (error) {
          this.failStep(stack, logicalId, declaration.Type, undefined, message(error));
          throw new ResourceFailure(logicalId, 'create', message(error));
        }
        await clock.step(logicalId, declaration.Type, signal);
        this.done(stack, steps, { kind: 'created', logicalId });
        recordEvent(stack, { logicalId, physicalId: stack.resources[logicalId].physicalId, type: declaration.Type }, 'CREATE_COMPLETE', stack.resources[logicalId].emulated ? undefined : NOT_EMULATED);
        continue;
      }

      const replace = existing.type !== declaration.Type || (provider.replaceOn ?? []).some((name) => !equalJson(existing.properties[name], properties[name]));
      if (!replace && equalJson(existing.properties, properties)) {
        if (existing.deletionPolicy !== declaration.DeletionPolicy) existing.deletionPolicy = declaration.DeletionPolicy;
        continue;
      }
      if (replace) {
        this.journal.append(stack, { kind: 'pending', logicalId, type: declaration.Type, properties, at: new Date().toISOString() });
        recordEvent(stack, { logicalId, physicalId: existing.physicalId, type: declaration.Type }, 'UPDATE_IN_PROGRESS', 'Requested update requires the creation of a new physical resource; hence creating one.', properties);
        try {
          const made = await provider.create(properties, providerContext);
          stack.resources[logicalId] = { ...base, emulated: made.emulated ?? base.emulated, physicalId: made.physicalId, ref: made.ref, attributes: made.attributes ?? {}, properties, status: 'UPDATE_COMPLETE', timestamp: new Date().toISOString() };
        } catch (error) {
          this.failStep(stack, logicalId, declaration.Type, existing, message(error));
          throw new ResourceFailure(logicalId, 'update', message(error));
        }
        await clock.step(logicalId, declaration.Type, signal);
        this.done(stack, steps, { kind: 'replaced', logicalId, previous: existing, ...(declaration.UpdateReplacePolicy === 'Retain' ? { retainPrevious: true } : {}) });
      } else {
        recordEvent(stack, { logicalId, physicalId: existing.physicalId, type: declaration.Type }, 'UPDATE_IN_PROGRESS', undefined, properties);
        try {
          const made = provider.update ? await provider.update(properties, existing, providerContext) : { physicalId: existing.physicalId, attributes: existing.attributes, ref: existing.ref };
          stack.resources[logicalId] = { ...base, emulated: made.emulated ?? base.emulated, physicalId: made.physicalId, ref: made.ref, attributes: made.attributes ?? existing.attributes, properties, status: 'UPDATE_COMPLETE', timestamp: new Date().toISOString() };
        } catch (error) {
          this.failStep(stack, logicalId, declaration.Type, existing, message(error));
          throw new ResourceFailure(logicalId, 'update', message(error));
        }
        await clock.step(logicalId, declaration.Type, signal);
        // An update that answers with a new physical id (a custom resource can) is a replacement: the old one is deleted in the cleanup.
        const replacedByUpdate = stack.resources[logicalId].physicalId !== existing.physicalId;
        this.done(stack, steps, replacedByUpdate ? { kind: 'replaced', logicalId, previous: existing } : { kind: 'updated', logicalId, previous: existing });
      }
      recordEvent(stack, { logicalId, physicalId: stack.resources[logicalId].physicalId, type: declaration.Type }, 'UPDATE_COMPLETE', stack.resources[logicalId].emulated ? undefined : NOT_EMULATED);
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

  /**
   * Reverses the steps of a failed operation, newest first, taking each off the list once reversed.
   * Returns a reason when one cannot be reversed: the steps left (that one included) are what
   * ContinueUpdateRollback resumes from.
   */
  async undo(stack: StackRecord, rollback: PendingRollback): Promise<string | undefined> {
    const { steps } = rollback;
    while (steps.length > 0) {
      const step = steps[steps.length - 1];
      const current = stack.resources[step.logicalId];
      if (step.kind === 'created') {
        const failed = await this.removeAll(stack, [current]);
        if (failed) return `The following resource(s) failed to delete: [${failed}]. `;
      } else if (step.kind === 'replaced') {
        // The new physical resource goes in the cleanup that follows; the old one is still there.
        stack.resources[step.logicalId] = step.previous;
        if (current && current !== step.previous) rollback.replacements.push(current);
      } else if (current) {
        const provider = providerFor(step.previous.type);
        recordEvent(stack, { logicalId: step.logicalId, physicalId: current.physicalId, type: current.type }, 'UPDATE_IN_PROGRESS');
        try {
          const restored = provider.update ? await provider.update(step.previous.properties, current, this.providerContext(stack, step.logicalId, current.type)) : undefined;
          stack.resources[step.logicalId] = { ...step.previous, attributes: restored?.attributes ?? step.previous.attributes, status: 'UPDATE_COMPLETE', timestamp: new Date().toISOString() };
          recordEvent(stack, { logicalId: step.logicalId, physicalId: current.physicalId, type: current.type }, 'UPDATE_COMPLETE');
        } catch (error) {
          current.status = 'UPDATE_FAILED';
          current.statusReason = message(error);
          recordEvent(stack, { logicalId: step.logicalId, physicalId: current.physicalId, type: current.type }, 'UPDATE_FAILED', message(error));
          return `The following resource(s) failed to update: [${step.logicalId}]. `;
        }
      }
      steps.pop();
    }
    return undefined;
  }

  /**
   * Deletes physical resources in the order given, dropping those the stack
   * still lists. Like CloudFormation it goes on past a failure; returns the
   * logical ids that failed, as the status reason lists them.
   */
  async removeAll(stack: StackRecord, records: (ResourceRecord | undefined)[]): Promise<string | undefined> {
    const failed: string[] = [];
    const clock = deletionClock(this.cloud.provisioningDelay, stack.templateBody);
    for (const record of records) {
      if (!record) continue;
      const where = { logicalId: record.logicalId, physicalId: record.physicalId, type: record.type };
      if (record.deletionPolicy === 'Retain') {
        recordEvent(stack, where, 'DELETE_SKIPPED');
      } else {
        recordEvent(stack, where, 'DELETE_IN_PROGRESS');
        try {
          const context = this.providerContext(stack, record.logicalId, record.type);
          await providerFor(record.type).delete?.(record, context);
          // What tagging calls set on it goes with it: a resource made again under the same ARN starts with its own tags.
          context.cloud.tags.forgetResource(record);
          await clock.step(record.logicalId, record.type);
        } catch (error) {
          recordEvent(stack, where, 'DELETE_FAILED', message(error));
          record.status = 'DELETE_FAILED';
          failed.push(record.logicalId);
          continue;
        }
        recordEvent(stack, where, 'DELETE_COMPLETE');
      }
      const listed = stack.resources[record.logicalId];
      // The same resource, whether this very object or its copy read back from a journal after a restart.
      if (listed && (listed === record || (listed.physicalId === record.physicalId && equalJson(listed.properties, record.properties)))) delete stack.resources[record.logicalId];
    }
    return failed.length > 0 ? failed.join(', ') : undefined;
  }
}
