import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import type { ResourceRecord, StackRecord } from '../cloudformation/model';
import { readJson, writeJsonAtomic } from './files';

interface ApiResource {
  region: string;
  record: ResourceRecord;
}

/**
 * Resources made by API calls (CreateTopic, Subscribe, CreateFunction, CreateEventSourceMapping,
 * PutRule, …) rather than by a stack, persisted in `<dataDir>/state/api-resources.json`. They are
 * kept as the records a stack would hold, so everything that acts on stack-made resources (a
 * topic's deliveries, a rule's targets, a mapping's polling) acts on them alike.
 */
export class ApiResourceStore {
  private readonly file: string;
  private readonly resources: ApiResource[];
  /** One stand-in stack per region: what `LocalCloud.resources()` pairs each record with. */
  private readonly stacks = new Map<string, StackRecord>();

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'api-resources.json');
    this.resources = readJson<ApiResource[]>(this.file, []);
  }

  private save(): void {
    writeJsonAtomic(this.file, this.resources);
  }

  private stackOf(region: string): StackRecord {
    let stack = this.stacks.get(region);
    if (!stack) {
      const now = new Date(0).toISOString();
      stack = { stackId: `api:${region}`, stackName: '(made by API calls)', region, status: 'CREATE_COMPLETE', creationTime: now, templateBody: '{}', parameters: {}, capabilities: [] } as unknown as StackRecord;
      this.stacks.set(region, stack);
    }
    return stack;
  }

  list(type?: string): { stack: StackRecord; record: ResourceRecord }[] {
    return this.resources.filter((entry) => !type || entry.record.type === type).map((entry) => ({ stack: this.stackOf(entry.region), record: entry.record }));
  }

  find(type: string, physicalId: string): ResourceRecord | undefined {
    return this.resources.find((entry) => entry.record.type === type && entry.record.physicalId === physicalId)?.record;
  }

  get(type: string, physicalId: string, notFound: () => AwsError): ResourceRecord {
    const record = this.find(type, physicalId);
    if (!record) throw notFound();
    return record;
  }

  add(region: string, type: string, physicalId: string, properties: Record<string, unknown>, attributes: Record<string, unknown> = {}, ref?: string): ResourceRecord {
    const record: ResourceRecord = { logicalId: physicalId, type, physicalId, status: 'CREATE_COMPLETE', timestamp: new Date().toISOString(), properties, attributes, emulated: true, ...(ref ? { ref } : {}) };
    this.resources.push({ region, record });
    this.save();
    return record;
  }

  /** Saves a record changed in place (new properties or attributes). */
  changed(record: ResourceRecord): void {
    record.timestamp = new Date().toISOString();
    this.save();
  }

  remove(type: string, physicalId: string): ResourceRecord | undefined {
    const index = this.resources.findIndex((entry) => entry.record.type === type && entry.record.physicalId === physicalId);
    if (index < 0) return undefined;
    const [removed] = this.resources.splice(index, 1);
    this.save();
    return removed.record;
  }
}
