import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import { readJson, writeJsonAtomic } from '../state/files';
import type { StackRecord } from './model';

/** Every stack ever made here, deleted ones included (they stay describable by id, as in AWS). */
export class StackStore {
  private readonly file: string;
  readonly stacks: StackRecord[];

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'cloudformation.json');
    // A stack still in progress here was cut off by a stop of the server: StackEngine.recover() ends its operation.
    this.stacks = readJson<StackRecord[]>(this.file, []);
  }

  private pendingSave: NodeJS.Immediate | undefined;

  save(): void {
    if (this.pendingSave) clearImmediate(this.pendingSave);
    this.pendingSave = undefined;
    writeJsonAtomic(this.file, this.stacks);
  }

  /**
   * Saves once the requests read in this turn of the event loop are handled: twenty UpdateFunctionCode
   * calls sent together (a hotswap of functions sharing one zip) write the file once, not twenty times.
   * Stopping the server saves what is pending.
   */
  saveSoon(): void {
    this.pendingSave ??= setImmediate(() => this.save());
  }

  live(): StackRecord[] {
    return this.stacks.filter((stack) => stack.status !== 'DELETE_COMPLETE');
  }

  /** By name (live stacks only) or by stack id (deleted ones too). */
  find(nameOrId: string): StackRecord | undefined {
    if (nameOrId.startsWith('arn:')) return this.stacks.find((stack) => stack.stackId === nameOrId);
    return this.live().find((stack) => stack.stackName === nameOrId);
  }

  get(nameOrId: string): StackRecord {
    const stack = this.find(nameOrId);
    if (!stack) throw new AwsError('ValidationError', `Stack with id ${nameOrId} does not exist`);
    return stack;
  }

  add(stack: StackRecord): void {
    this.stacks.push(stack);
  }
}
