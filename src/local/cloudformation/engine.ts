import { randomUUID } from 'node:crypto';
import { checkIntrinsicShapes } from '../template/intrinsic-shapes';
import { AwsError, validationError } from '../protocol/errors';
import type { EngineServices, LocalServices, StackOperations } from '../service-interfaces';
import { providerFor } from '../providers/registry';
import { creationOrder, dependencyGraph } from '../template/graph';
import { parseTemplate } from '../template/parse';
import type { Template } from '../template/types';
import { recordEvent, setStackStatus } from './events';
import { OperationJournal, snapshotOf, type InterruptedOperation, type OperationAction } from './journal';
import type { OperationInput, PendingRollback, ResourceRecord, StackRecord, StackSnapshot, Step } from './model';
import { changesBetween } from './changes';
import { parameterValues } from './parameters';
import { policyDenial, type PolicyDenial } from './stack-policy';
import { message, OperationCancelled, ResourceFailure, ResourceSteps } from './resources';

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
/** Why a stack rolled back or finished when the local cloud started again. */
export const RESUMED_AFTER_STOP = 'The local cloud stopped while this operation ran';

const isRunning = (status: string) => status.endsWith('_IN_PROGRESS') && status !== 'REVIEW_IN_PROGRESS';

interface RunningOperation {
  action: OperationAction | 'ROLLBACK';
  promise: Promise<void>;
  controller: AbortController;
}

/** An operation the local cloud stopped before it ended, and where its stack ended up. */
export interface StoppedOperation {
  stackName: string;
  action: OperationAction;
  status: string;
}

function equalJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Runs stack operations the way CloudFormation does: the call returns at once,
 * then resources are made in dependency order with an event for each step, and
 * a failure rolls everything back to where it was. Each operation keeps a journal
 * on disk, so one cut off by a crash is rolled back or finished by the next start.
 */
export class StackEngine implements StackOperations {
  private readonly running = new Map<StackRecord, RunningOperation>();
  private readonly resources: ResourceSteps;
  private readonly journal: OperationJournal;
  private recovery?: Promise<void>;
  private stopping = false;
  /** The stack whose interrupted operation is being recovered: its nested stacks may be deleted while it is in progress. */
  private resuming?: StackRecord;

  /** `providerServices`: what resource providers are given (the whole local cloud; nested stacks start operations on this engine). */
  constructor(private readonly cloud: EngineServices, private readonly providerServices: LocalServices) {
    this.journal = new OperationJournal(cloud.dataDir);
    this.resources = new ResourceSteps(cloud, providerServices, this.journal);
  }

  /** Everything checked before an operation is accepted. */
  validate(input: OperationInput): void {
    checkIntrinsicShapes(input.template);
    const graph = dependencyGraph(input.template);
    creationOrder(graph);
    parameterValues(input.template, input.parameters, (name) => this.cloud.ssm.value(name));
    const required = requiredCapabilities(input.template);
    const missing = required.filter((capability) => !input.capabilities.includes(capability));
    if (missing.length > 0) throw new AwsError('InsufficientCapabilitiesException', `Requires capabilities : [${missing.join(', ')}]`);
  }

  /** Refuses a new operation once the local cloud is stopping (a request that was on its way when Ctrl-C came). */
  refuseWhileStopping(): void {
    if (this.stopping) throw new AwsError('ServiceUnavailable', 'The local cloud is stopping: no new stack operation starts', 503);
  }

  /** Waits for every operation in flight (used when the server stops). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.recovery) {
      await Promise.all([...[...this.running.values()].map((operation) => operation.promise), this.recovery]);
    }
  }

  /** Waits for the operation running on this stack, if any. */
  async settled(stack: StackRecord): Promise<void> {
    while (this.running.has(stack)) await this.running.get(stack)!.promise;
  }

  /** Runs an operation in the background; a bug in it still leaves the stack in a final state, never stuck in progress. */
  private launch(stack: StackRecord, action: RunningOperation['action'], work: (signal: AbortSignal) => Promise<void>): void {
    const controller = new AbortController();
    const promise = work(controller.signal)
      .catch((error) => {
        this.cloud.log(`internal error in a stack operation: ${(error as Error).stack ?? error}`);
        const failed = FAILED_AFTER_BUG[stack.status];
        if (failed) setStackStatus(stack, failed, `Internal error in the local cloud: ${message(error)}`);
      })
      .finally(() => {
        this.running.delete(stack);
        this.cloud.log(`stack ${stack.stackName}: ${stack.status}${stack.statusReason ? ` (${stack.statusReason.trim()})` : ''}`);
        this.cloud.stacks.save();
        // Only once the outcome is saved: until then the journal is what a restart recovers from.
        this.journal.end(stack);
        this.cloud.afterStackChange();
      });
    this.running.set(stack, { action, promise, controller });
  }

  create(stack: StackRecord, input: OperationInput): void {
    this.validate(input);
    stack.templateBody = input.templateBody;
    stack.description = input.template.Description;
    stack.parameters = input.parameters;
    stack.capabilities = input.capabilities;
    stack.tags = input.tags;
    setStackStatus(stack, 'CREATE_IN_PROGRESS', 'User Initiated');
    this.journal.begin(stack, 'CREATE');
    this.cloud.stacks.save();
    this.launch(stack, 'CREATE', (signal) => this.runCreate(stack, input, signal));
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
    // Read now: a StackPolicyBody sent with the update replaces the policy only for later updates.
    const denial = this.policyDenial(stack, input);
    this.journal.begin(stack, 'UPDATE', snapshotOf(stack));
    setStackStatus(stack, 'UPDATE_IN_PROGRESS', 'User Initiated');
    stack.lastUpdatedTime = new Date().toISOString();
    this.cloud.stacks.save();
    this.launch(stack, 'UPDATE', (signal) => this.runUpdate(stack, input, signal, denial));
  }

  /** The change the stack policy (or the update's StackPolicyDuringUpdateBody) denies, if any. */
  private policyDenial(stack: StackRecord, input: OperationInput): PolicyDenial | undefined {
    const policy = input.stackPolicyDuringUpdateBody ?? stack.stackPolicyBody;
    if (policy === undefined) return undefined;
    const changedParameters = Object.keys({ ...stack.parameters, ...input.parameters }).filter((key) => stack.parameters[key] !== input.parameters[key]);
    return policyDenial(policy, changesBetween(stack, parseTemplate(stack.templateBody), input.template, changedParameters));
  }

  delete(stack: StackRecord): void {
    if (stack.status === 'DELETE_COMPLETE') return;
    if (isRunning(stack.status)) {
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
    this.journal.begin(stack, 'DELETE');
    setStackStatus(stack, 'DELETE_IN_PROGRESS', 'User Initiated');
    this.cloud.stacks.save();
    this.launch(stack, 'DELETE', () => this.runDelete(stack));
  }

  /** CancelUpdateStack: the update stops before its next resource and rolls back, with the nested stacks it is creating or updating. */
  cancelUpdate(stack: StackRecord): void {
    if (stack.status !== 'UPDATE_IN_PROGRESS') throw validationError('CancelUpdateStack cannot be called from current stack status');
    for (const [other, operation] of this.running) {
      const stoppable = operation.action === 'UPDATE' || operation.action === 'CREATE';
      if (stoppable && this.isWithin(other, stack)) operation.controller.abort('Stack update cancelled');
    }
  }

  /** ContinueUpdateRollback: resumes the reversal that failed, leaving the skipped resources as they are. */
  continueUpdateRollback(stack: StackRecord, resourcesToSkip: string[]): void {
    if (stack.status !== 'UPDATE_ROLLBACK_FAILED') throw validationError('ContinueUpdateRollback cannot be called from current stack status');
    const pending: PendingRollback = stack.pendingRollback ?? { steps: [], replacements: [] };
    for (const logicalId of resourcesToSkip) {
      const record = stack.resources[logicalId];
      if (!record || !/_FAILED$/.test(record.status) || !pending.steps.some((step) => step.logicalId === logicalId)) {
        throw validationError(`Resource ${logicalId} cannot be skipped: only a resource whose rollback failed (UPDATE_FAILED) can be skipped`);
      }
    }
    for (const logicalId of resourcesToSkip) {
      const record = stack.resources[logicalId];
      const created = pending.steps.some((step) => step.logicalId === logicalId && step.kind === 'created');
      pending.steps = pending.steps.filter((step) => step.logicalId !== logicalId);
      // A skipped resource the failed update made is no longer the stack's (the previous template lacks it).
      if (created) delete stack.resources[logicalId];
      else Object.assign(record, { status: 'UPDATE_COMPLETE', statusReason: undefined });
      recordEvent(stack, { logicalId, physicalId: record.physicalId, type: record.type }, 'UPDATE_COMPLETE', 'Resource skipped during UPDATE_ROLLBACK');
    }
    // No journal: the steps left are in the saved stack (pendingRollback), which a restart resumes from.
    setStackStatus(stack, 'UPDATE_ROLLBACK_IN_PROGRESS', 'User Initiated');
    this.cloud.stacks.save();
    this.launch(stack, 'ROLLBACK', () => this.continueRollback(stack, pending));
  }

  /**
   * The local cloud is stopping in the middle of a command (Ctrl-C on `fw deploy --local`):
   * creates and updates stop before their next resource and roll back; deletes and rollbacks
   * run to their end. Returns the operations stopped, with the state each stack ended in.
   */
  async interrupt(reason: string): Promise<StoppedOperation[]> {
    this.stopping = true;
    const stopped: StackRecord[] = [];
    for (const [stack, operation] of this.running) {
      if (operation.action !== 'CREATE' && operation.action !== 'UPDATE') continue;
      operation.controller.abort(reason);
      if (!stack.parentId) stopped.push(stack);
    }
    await this.idle();
    return stopped.map((stack) => ({ stackName: stack.stackName, action: stack.status.startsWith('UPDATE') ? 'UPDATE' : 'CREATE', status: stack.status }));
  }

  /** Whether `stack` is `ancestor` or one of its nested stacks. */
  private isWithin(stack: StackRecord, ancestor: StackRecord): boolean {
    for (let current: StackRecord | undefined = stack; current; current = current.parentId ? this.cloud.stacks.find(current.parentId) : undefined) {
      if (current === ancestor) return true;
    }
    return false;
  }

  private async runCreate(stack: StackRecord, input: OperationInput, signal: AbortSignal): Promise<void> {
    const steps: Step[] = [];
    try {
      await this.resources.apply(stack, input, steps, signal);
      setStackStatus(stack, 'CREATE_COMPLETE');
    } catch (error) {
      const reason = failureReason(error);
      if (stack.disableRollback) {
        setStackStatus(stack, 'CREATE_FAILED', reason);
        return;
      }
      await this.rollbackCreate(stack, steps, error instanceof OperationCancelled ? reason : `${reason}Rollback requested by user.`.trim());
    }
  }

  private async rollbackCreate(stack: StackRecord, steps: Step[], reason: string): Promise<void> {
    setStackStatus(stack, 'ROLLBACK_IN_PROGRESS', reason);
    const failed = await this.resources.undo(stack, { steps, replacements: [] });
    setStackStatus(stack, failed ? 'ROLLBACK_FAILED' : 'ROLLBACK_COMPLETE', failed);
    stack.outputs = [];
    if (!failed && stack.deleteOnFailure) {
      setStackStatus(stack, 'DELETE_IN_PROGRESS', 'The stack creation failed and OnFailure is DELETE');
      await this.runDelete(stack);
    }
  }

  private async runUpdate(stack: StackRecord, input: OperationInput, signal: AbortSignal, denial?: PolicyDenial): Promise<void> {
    const steps: Step[] = [];
    const previous = snapshotOf(stack);
    if (denial) {
      const { logicalId, physicalId, type } = denial.change;
      recordEvent(stack, { logicalId, physicalId: physicalId ?? '', type }, 'UPDATE_FAILED', denial.reason);
      await this.rollbackUpdate(stack, previous, steps, `The following resource(s) failed to update: [${logicalId}]. `);
      return;
    }
    let oldTemplate: Template;
    let included: Set<string>;
    try {
      oldTemplate = parseTemplate(stack.templateBody);
      included = await this.resources.apply(stack, input, steps, signal);
    } catch (error) {
      await this.rollbackUpdate(stack, previous, steps, failureReason(error));
      return;
    }
    // UpdateReplacePolicy: Retain (of the new declaration) keeps the old physical resource in the cleanup.
    const replaced = steps.flatMap((step) => (step.kind === 'replaced' ? [step.retainPrevious ? { ...step.previous, deletionPolicy: 'Retain' } : step.previous] : []));
    const removed = deletionOrder(oldTemplate, Object.keys(stack.resources).filter((id) => !included.has(id))).map((id) => stack.resources[id]);
    this.journal.append(stack, { kind: 'applied', snapshot: snapshotOf(stack), removals: [...replaced, ...removed] });
    setStackStatus(stack, 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS');
    await this.resources.removeAll(stack, [...replaced, ...removed]);
    setStackStatus(stack, 'UPDATE_COMPLETE');
  }

  private async rollbackUpdate(stack: StackRecord, previous: StackSnapshot, steps: Step[], reason: string): Promise<void> {
    setStackStatus(stack, 'UPDATE_ROLLBACK_IN_PROGRESS', reason);
    const { resources: _current, ...fields } = previous;
    Object.assign(stack, fields);
    await this.continueRollback(stack, { steps, replacements: [] });
  }

  private async continueRollback(stack: StackRecord, pending: PendingRollback): Promise<void> {
    const failed = await this.resources.undo(stack, pending);
    if (failed) {
      stack.pendingRollback = pending;
      setStackStatus(stack, 'UPDATE_ROLLBACK_FAILED', failed);
      return;
    }
    delete stack.pendingRollback;
    setStackStatus(stack, 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS');
    await this.resources.removeAll(stack, pending.replacements);
    setStackStatus(stack, 'UPDATE_ROLLBACK_COMPLETE');
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
    // Nested stacks a crash left behind, that this stack's resources no longer list: they go with it, as in AWS.
    const orphans = await this.deleteOrphans((child) => child.parentId === stack.stackId);
    if (orphans) {
      setStackStatus(stack, 'DELETE_FAILED', `Embedded stack(s) failed to delete: [${orphans}]. `);
      return;
    }
    stack.deletionTime = new Date().toISOString();
    stack.outputs = [];
    stack.imports = [];
    setStackStatus(stack, 'DELETE_COMPLETE');
  }

  /**
   * Deletes the nested stacks (among those `which` picks) whose parent is gone or no longer
   * lists them. Returns the names of those that failed to delete.
   */
  private async deleteOrphans(which: (stack: StackRecord) => boolean): Promise<string | undefined> {
    const failed: string[] = [];
    for (const child of this.cloud.stacks.live()) {
      if (!child.parentId || !which(child) || isRunning(child.status)) continue;
      const parent = this.cloud.stacks.find(child.parentId);
      const listed = parent && parent.status !== 'DELETE_COMPLETE' && Object.values(parent.resources).some((record) => record.physicalId === child.stackId);
      // A parent in the middle of an operation may be about to record it; one being deleted or recovered is not.
      const busy = parent && isRunning(parent.status) && parent.status !== 'DELETE_IN_PROGRESS' && parent !== this.resuming;
      if (listed || busy) continue;
      child.terminationProtection = false;
      this.delete(child);
      await this.settled(child);
      if (child.status !== 'DELETE_COMPLETE') failed.push(child.stackName);
    }
    return failed.length > 0 ? failed.join(', ') : undefined;
  }

  /**
   * At start: rolls back or finishes the operations a previous process left in progress
   * (a crash, a kill -9, Ctrl-C on a command running the local cloud), nested stacks first,
   * then deletes nested stacks no parent lists any more.
   */
  recover(): void {
    const journals = new Map(this.journal.interrupted().map((operation) => [operation.stackId, operation]));
    const interrupted = this.cloud.stacks.stacks.filter((stack) => isRunning(stack.status));
    for (const stackId of journals.keys()) {
      const stack = this.cloud.stacks.find(stackId);
      if (!stack || !isRunning(stack.status)) this.journal.end({ stackId } as StackRecord);
    }
    const depth = (stack: StackRecord) => {
      let levels = 0;
      for (let parent = stack.parentId; parent; parent = this.cloud.stacks.find(parent)?.parentId) levels++;
      return levels;
    };
    interrupted.sort((a, b) => depth(b) - depth(a));
    this.recovery = (async () => {
      for (const stack of interrupted) {
        const operation = journals.get(stack.stackId);
        this.cloud.log(`stack ${stack.stackName} was in ${stack.status} when the local cloud stopped: recovering it`);
        this.launch(stack, operation?.action ?? 'ROLLBACK', () => this.resume(stack, operation));
        await this.settled(stack);
      }
      await this.deleteOrphans(() => true);
      if (interrupted.length > 0) this.cloud.stacks.save();
    })()
      .catch((error) => this.cloud.log(`recovering stacks failed: ${(error as Error).stack ?? error}`))
      .finally(() => {
        this.recovery = undefined;
      });
  }

  private async resume(stack: StackRecord, operation: InterruptedOperation | undefined): Promise<void> {
    if (operation) await this.releasePending(stack, operation);
    if (operation?.action === 'CREATE' || (operation?.action === 'UPDATE' && operation.previous)) {
      // A nested stack the operation was making when it stopped: the journal never got its id.
      stack.resources = { ...(operation.previous?.resources ?? {}) };
      for (const { step, record } of operation.steps) stack.resources[step.logicalId] = record;
      this.resuming = stack;
      try {
        await this.deleteOrphans((child) => child.parentId === stack.stackId);
      } finally {
        this.resuming = undefined;
      }
    }
    if (stack.status === 'DELETE_IN_PROGRESS' || operation?.action === 'DELETE') return this.runDelete(stack);
    if (operation?.applied) {
      // The update went through before the stop: only its cleanup is left.
      const { resources, ...fields } = operation.applied.snapshot;
      Object.assign(stack, fields, { resources });
      setStackStatus(stack, 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', RESUMED_AFTER_STOP);
      await this.resources.removeAll(stack, operation.applied.removals);
      setStackStatus(stack, 'UPDATE_COMPLETE');
      return;
    }
    if (operation?.action === 'UPDATE' && operation.previous) {
      return this.rollbackUpdate(stack, operation.previous, operation.steps.map(({ step }) => step), RESUMED_AFTER_STOP);
    }
    if (operation?.action === 'CREATE') {
      return this.rollbackCreate(stack, operation.steps.map(({ step }) => step), RESUMED_AFTER_STOP);
    }
    // No journal (a ContinueUpdateRollback, or state written by an older fw): what the state file holds.
    if (stack.status === 'UPDATE_ROLLBACK_IN_PROGRESS' && stack.pendingRollback) return this.continueRollback(stack, stack.pendingRollback);
    if (stack.status === 'CREATE_IN_PROGRESS' || stack.status === 'ROLLBACK_IN_PROGRESS') {
      return this.rollbackCreate(stack, Object.keys(stack.resources).map((logicalId) => ({ kind: 'created', logicalId })), RESUMED_AFTER_STOP);
    }
    // An update whose previous state is unknown keeps the resources it has.
    setStackStatus(stack, stack.status === 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS' ? 'UPDATE_COMPLETE' : 'UPDATE_ROLLBACK_COMPLETE', RESUMED_AFTER_STOP);
  }

  /** A resource a provider was making when the process died, that its name ties up (a bucket): freed unless a stack holds it. */
  private async releasePending(stack: StackRecord, operation: InterruptedOperation): Promise<void> {
    for (const pending of operation.pending) {
      const provider = providerFor(pending.type);
      const name = provider.leftoverOf?.(pending.properties, pending.at, { cloud: this.providerServices });
      if (!name || this.cloud.resources(pending.type).some(({ record }) => record.physicalId === name)) continue;
      const record: ResourceRecord = { logicalId: pending.logicalId, type: pending.type, physicalId: name, status: 'CREATE_FAILED', timestamp: new Date().toISOString(), properties: pending.properties, attributes: {}, emulated: true };
      const context = { cloud: this.providerServices, stackName: stack.stackName, stackId: stack.stackId, region: stack.region, accountId: this.cloud.accountId, logicalId: pending.logicalId, type: pending.type };
      try {
        await provider.delete?.(record, context);
      } catch (error) {
        this.cloud.log(`could not free ${pending.type} ${name} left by the interrupted operation: ${message(error)}`);
      }
    }
  }

  newStackId(region: string, name: string): string {
    return `arn:aws:cloudformation:${region}:${this.cloud.accountId}:stack/${name}/${randomUUID()}`;
  }
}

function failureReason(error: unknown): string {
  if (error instanceof ResourceFailure) return `The following resource(s) failed to ${error.verb}: [${error.logicalId}]. `;
  return message(error);
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
