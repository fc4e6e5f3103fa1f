import { join } from 'node:path';
import { readJson, writeJsonAtomic } from './files';

/** Tag key → value. */
export type TagMap = Record<string, string>;

/** What a resource's tags come from: its stack (or the API call that made it) and its properties. */
export interface TaggedResource {
  stack: { stackId: string; stackName: string; tags?: { Key: string; Value: string }[] };
  record: { logicalId: string; properties: Record<string, unknown> };
}

/** Tags as templates and APIs write them: a list of `{ Key, Value }` or a map. */
export function tagMap(tags: unknown): TagMap {
  if (Array.isArray(tags)) return Object.fromEntries(tags.filter((tag) => tag && typeof tag.Key === 'string').map((tag: { Key: string; Value?: unknown }) => [tag.Key, String(tag.Value ?? '')]));
  if (tags && typeof tags === 'object') return Object.fromEntries(Object.entries(tags).map(([key, value]) => [key, String(value)]));
  return {};
}

/** A map as the `{ Key, Value }` list most APIs answer with. */
export const tagList = (tags: TagMap) => Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));

/**
 * The tags a stack gives a resource, as CloudFormation does ("Resource tag", AWS CloudFormation
 * User Guide): `aws:cloudformation:stack-name`, `-stack-id` and `-logical-id`, the stack's own Tags,
 * then the resource's `Tags` property. A resource an API call made has only what that call gave.
 */
export function declaredTags({ stack, record }: TaggedResource, property = 'Tags'): TagMap {
  const own = tagMap(record.properties[property]);
  if (stack.stackId.startsWith('api:')) return own;
  return {
    'aws:cloudformation:stack-name': stack.stackName,
    'aws:cloudformation:stack-id': stack.stackId,
    'aws:cloudformation:logical-id': record.logicalId,
    ...tagMap(stack.tags),
    ...own,
  };
}

interface TagChanges {
  set: TagMap;
  removed: string[];
}

/**
 * Tags set and removed by the services' tagging APIs (TagResource, UntagResource, TagQueue, …), by
 * resource ARN, over what the resource was made with: `state/resource-tags.json`, so they survive a
 * restart like the rest of the state. A stack update that changes a resource's Tags still shows,
 * except for the keys an API call set or removed since.
 */
export class ResourceTags {
  private readonly file: string;
  private readonly changes: Record<string, TagChanges>;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'resource-tags.json');
    this.changes = readJson<Record<string, TagChanges>>(this.file, {});
  }

  /** A resource's tags: what it was made with, under the API's changes. */
  of(arn: string, declared: TagMap = {}): TagMap {
    const changes = this.changes[arn];
    if (!changes) return declared;
    const tags = { ...declared, ...changes.set };
    for (const key of changes.removed) delete tags[key];
    return tags;
  }

  tag(arn: string, tags: TagMap): void {
    const changes = (this.changes[arn] ??= { set: {}, removed: [] });
    Object.assign(changes.set, tags);
    changes.removed = changes.removed.filter((key) => !(key in tags));
    writeJsonAtomic(this.file, this.changes);
  }

  untag(arn: string, keys: string[]): void {
    const changes = (this.changes[arn] ??= { set: {}, removed: [] });
    for (const key of keys) delete changes.set[key];
    changes.removed = [...new Set([...changes.removed, ...keys])];
    writeJsonAtomic(this.file, this.changes);
  }

  /** A stack's resource is gone: forgets the tags set on its ARN (a log group's without its `:*`) or its physical id (an SNS topic's ARN). */
  forgetResource(record: { physicalId: string; attributes: Record<string, unknown> }): void {
    if (typeof record.attributes.Arn === 'string') this.forget(record.attributes.Arn.replace(/:\*$/, ''));
    this.forget(record.physicalId);
  }

  /** The resource is gone: a new one of the same ARN starts with its own tags. */
  forget(arn: string): void {
    if (!this.changes[arn]) return;
    delete this.changes[arn];
    writeJsonAtomic(this.file, this.changes);
  }
}
