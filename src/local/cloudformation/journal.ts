import { appendFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { makePrivateDir, writePrivateFile } from '../state/files';
import { guardWrite } from '../state/storage-failure';
import { join } from 'node:path';
import type { ResourceRecord, StackRecord, StackSnapshot, Step } from './model';

export type OperationAction = 'CREATE' | 'UPDATE' | 'DELETE';

/** One line of an operation's journal, in the order things happened. */
export type JournalEntry =
  | { kind: 'begin'; stackId: string; action: OperationAction; previous?: StackSnapshot }
  /** A provider is about to make this resource: if the process dies now, its name (when the template sets one) may be taken. */
  | { kind: 'pending'; logicalId: string; type: string; properties: Record<string, unknown>; at: string }
  /** A change made, with the resource's record after it. */
  | { kind: 'step'; step: Step; record: ResourceRecord }
  /** The update went through; what is left is deleting what it replaced or removed. */
  | { kind: 'applied'; snapshot: StackSnapshot; removals: ResourceRecord[] };

/** What a journal tells about one interrupted operation. */
export interface InterruptedOperation {
  stackId: string;
  action: OperationAction;
  previous?: StackSnapshot;
  steps: { step: Step; record: ResourceRecord }[];
  /** Resources a provider was making when the process died. */
  pending: { logicalId: string; type: string; properties: Record<string, unknown>; at: string }[];
  applied?: { snapshot: StackSnapshot; removals: ResourceRecord[] };
}

/**
 * An append-only file per running stack operation, written before and after each
 * change to a resource. The stack state file is saved only between operations, so
 * after a crash or a kill -9 this is what tells the next start what to undo or finish.
 */
export class OperationJournal {
  private readonly folder: string;

  constructor(dataDir: string) {
    this.folder = join(dataDir, 'state', 'operations');
  }

  private file(stackId: string): string {
    return join(this.folder, `${stackId.split('/').pop()}.jsonl`);
  }

  begin(stack: StackRecord, action: OperationAction, previous?: StackSnapshot): void {
    makePrivateDir(this.folder);
    const entry: JournalEntry = { kind: 'begin', stackId: stack.stackId, action, previous };
    writePrivateFile(this.file(stack.stackId), `${JSON.stringify(entry)}\n`);
  }

  append(stack: StackRecord, entry: JournalEntry): void {
    const file = this.file(stack.stackId);
    guardWrite(file, () => appendFileSync(file, `${JSON.stringify(entry)}\n`));
  }

  /** The operation ended and the stack state holds its outcome. */
  end(stack: StackRecord): void {
    rmSync(this.file(stack.stackId), { force: true });
  }

  /** Operations a previous process left unfinished. A line cut off by the crash is ignored. */
  interrupted(): InterruptedOperation[] {
    let files: string[];
    try {
      files = readdirSync(this.folder).filter((name) => name.endsWith('.jsonl'));
    } catch {
      return [];
    }
    const operations: InterruptedOperation[] = [];
    for (const name of files) {
      const entries: JournalEntry[] = [];
      for (const line of readFileSync(join(this.folder, name), 'utf8').split('\n')) {
        try {
          if (line) entries.push(JSON.parse(line) as JournalEntry);
        } catch {
          break;
        }
      }
      const begin = entries[0];
      if (begin?.kind !== 'begin') {
        rmSync(join(this.folder, name), { force: true });
        continue;
      }
      const operation: InterruptedOperation = { stackId: begin.stackId, action: begin.action, previous: begin.previous, steps: [], pending: [] };
      for (const entry of entries.slice(1)) {
        if (entry.kind === 'pending') operation.pending.push(entry);
        if (entry.kind === 'step') {
          operation.steps.push(entry);
          operation.pending = operation.pending.filter((pending) => pending.logicalId !== entry.step.logicalId);
        }
        if (entry.kind === 'applied') operation.applied = entry;
      }
      operations.push(operation);
    }
    return operations;
  }
}

export function snapshotOf(stack: StackRecord): StackSnapshot {
  return {
    templateBody: stack.templateBody,
    parameters: stack.parameters,
    tags: stack.tags,
    outputs: stack.outputs,
    imports: stack.imports,
    description: stack.description,
    capabilities: stack.capabilities,
    resources: { ...stack.resources },
  };
}
