import { join } from 'node:path';
import { AwsError } from '../aws/errors';
import { readJson, writeJsonAtomic } from '../state/files';
import type { StackRecord } from './model';

const STABLE_AFTER_RESTART: Record<string, string> = {
  CREATE_IN_PROGRESS: 'CREATE_FAILED',
  ROLLBACK_IN_PROGRESS: 'ROLLBACK_FAILED',
  DELETE_IN_PROGRESS: 'DELETE_FAILED',
  UPDATE_IN_PROGRESS: 'UPDATE_ROLLBACK_FAILED',
  UPDATE_COMPLETE_CLEANUP_IN_PROGRESS: 'UPDATE_COMPLETE',
  UPDATE_ROLLBACK_IN_PROGRESS: 'UPDATE_ROLLBACK_FAILED',
  UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS: 'UPDATE_ROLLBACK_COMPLETE',
};

/** Every stack ever made here, deleted ones included (they stay describable by id, as in AWS). */
export class StackStore {
  private readonly file: string;
  readonly stacks: StackRecord[];

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'cloudformation.json');
    this.stacks = readJson<StackRecord[]>(this.file, []);
    // An operation cut off by a stop of the server cannot resume: it ends failed, never stuck in progress.
    for (const stack of this.stacks) {
      const settled = STABLE_AFTER_RESTART[stack.status];
      if (settled) {
        stack.status = settled;
        stack.statusReason = 'The local cloud stopped while this operation ran';
      }
    }
  }

  save(): void {
    writeJsonAtomic(this.file, this.stacks);
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
