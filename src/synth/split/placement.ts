import { createHash } from 'node:crypto';
import { LIMITS } from './limits';

export type SplitMode = 'auto' | 'per-function' | 'per-type';
export const ROOT = 'root';

/** Where every resource lives: `root` or the logical id of a nested stack in the root template. */
export interface Placement {
  mode: string;
  resources: Record<string, string>;
}

/** Nested stacks of the automatic mode: a function goes to one of them by a hash of its name. */
export const AUTO_STACKS = 8;
/** Room left in a nested stack for the functions already in it to grow. */
const FILL_LIMIT = LIMITS.resources - 50;

const hashIndex = (key: string, size: number) => createHash('sha256').update(key).digest().readUInt32BE(0) % size;
const typeName = (type: string) => type.replace(/^AWS::/, '').replace(/[^A-Za-z0-9]/g, '');

/**
 * Places each resource: where the previous placement (same mode) put it, if anywhere —
 * so a later package never moves a resource on its own; else a grouped resource goes with
 * its function (auto: a hash-chosen stack with room; per-function: the function's own stack;
 * per-type: one stack per resource type), and the rest stays in the root stack.
 */
export function placeResources(
  resources: Record<string, Record<string, unknown>>,
  groups: Map<string, string>,
  mode: SplitMode,
  previous: Placement | undefined,
): Map<string, string> {
  const kept = previous?.mode === mode ? previous.resources : {};
  const placement = new Map<string, string>();
  const counts = new Map<string, number>();
  const put = (id: string, stack: string) => {
    placement.set(id, stack);
    if (stack !== ROOT) counts.set(stack, (counts.get(stack) ?? 0) + 1);
  };
  for (const id of Object.keys(resources)) if (kept[id] !== undefined) put(id, kept[id]);

  const newMembers = new Map<string, string[]>();
  for (const id of Object.keys(resources)) {
    if (placement.has(id)) continue;
    const group = groups.get(id);
    if (group === undefined) put(id, ROOT);
    else newMembers.set(group, [...(newMembers.get(group) ?? []), id]);
  }

  const withRoom = (candidates: (attempt: number) => string, size: number) => {
    for (let attempt = 0; ; attempt++) {
      const stack = candidates(attempt);
      if ((counts.get(stack) ?? 0) + size <= FILL_LIMIT || attempt > 10_000) return stack;
    }
  };
  for (const group of [...newMembers.keys()].sort()) {
    const members = newMembers.get(group)!;
    if (mode === 'per-type') {
      for (const id of members) {
        const name = typeName(String(resources[id].Type));
        put(id, withRoom(attempt => `${name}NestedStack${attempt === 0 ? '' : attempt + 1}`, 1));
      }
      continue;
    }
    const anchor = placement.get(`${group}LambdaFunction`);
    let stack: string;
    if (anchor !== undefined && anchor !== ROOT) stack = anchor;
    else if (mode === 'per-function') stack = `${group}NestedStack`;
    else {
      const start = hashIndex(group, AUTO_STACKS);
      stack = withRoom(attempt => `NestedStack${((start + attempt) % Math.max(AUTO_STACKS, attempt + 1)) + 1}`, members.length);
    }
    for (const id of members) put(id, stack);
  }
  return placement;
}
