/**
 * DynamoDB tables and their items, in memory, persisted under <dataDir>/dynamodb/:
 * `tables.json` holds the definitions (written whole, atomically) and `items.log`
 * one JSON line per write (a transaction is one line, so it is all there or not at
 * all). On load the log is replayed, a torn last line is dropped, and the log is
 * rewritten compacted; it is compacted again when it grows to several times the items.
 * Tables with TTL enabled are swept every few seconds for expired items (see TTL_SWEEP_MS).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import { readJson, writeFileAtomic, writeJsonAtomic } from '../state/files';
import { readJsonLines } from '../state/json-lines';
import { unlessDiskFull } from '../state/storage-failure';
import { AppendLog } from './item-log';
import { canonicalNumber, compareScalars, itemSize, validation, type AttributeValue, type Item } from './values';

export interface KeyElement {
  AttributeName: string;
  KeyType: 'HASH' | 'RANGE';
}

export interface AttributeDefinition {
  AttributeName: string;
  AttributeType: 'S' | 'N' | 'B';
}

export interface IndexDefinition {
  IndexName: string;
  KeySchema: KeyElement[];
  Projection: { ProjectionType?: 'ALL' | 'KEYS_ONLY' | 'INCLUDE'; NonKeyAttributes?: string[] };
  ProvisionedThroughput?: Record<string, unknown>;
}

export interface TableDefinition {
  TableName: string;
  TableId: string;
  TableArn: string;
  KeySchema: KeyElement[];
  AttributeDefinitions: AttributeDefinition[];
  BillingMode: string;
  ProvisionedThroughput?: Record<string, unknown>;
  GlobalSecondaryIndexes?: IndexDefinition[];
  LocalSecondaryIndexes?: IndexDefinition[];
  StreamSpecification?: { StreamEnabled?: boolean; StreamViewType?: string };
  LatestStreamArn?: string;
  /** Present while TTL is enabled: items whose AttributeName holds an epoch-seconds Number in the past are deleted. */
  TimeToLiveSpecification?: { AttributeName: string; Enabled: true };
  /** Present while point-in-time recovery is enabled (UpdateContinuousBackups, or a stack's PointInTimeRecoverySpecification). */
  PointInTimeRecovery?: { RecoveryPeriodInDays: number; EnabledAt: number };
  CreationDateTime: number;
}

/** The key attributes of a table or an index: partition key, then sort key if any. */
export interface KeyNames {
  hash: string;
  range?: string;
}

export const keyNames = (schema: KeyElement[]): KeyNames => ({
  hash: schema.find((element) => element.KeyType === 'HASH')!.AttributeName,
  range: schema.find((element) => element.KeyType === 'RANGE')?.AttributeName,
});

function scalarKey(value: AttributeValue): string {
  if (value.N !== undefined) return `N${canonicalNumber(value.N)}`;
  if (value.S !== undefined) return `S${value.S}`;
  return `B${value.B}`;
}

/** Orders items by the given attributes in turn; an item lacking one sorts first. */
export function orderBy(names: string[]): (a: Item, b: Item) => number {
  return (a, b) => {
    for (const name of names) {
      const left = a[name];
      const right = b[name];
      if (left === undefined || right === undefined) {
        if (left !== right) return left === undefined ? -1 : 1;
        continue;
      }
      const order = compareScalars(left, right) ?? 0;
      if (order !== 0) return order;
    }
    return 0;
  };
}

type LogOperation = [tableId: string, kind: 'put', item: Item] | [tableId: string, kind: 'delete', key: Item];

/** One item written (next) or deleted (no next), with what it replaced. */
export interface ItemChange {
  table: Table;
  key: Item;
  old?: Item;
  next?: Item;
  /** Deleted by TTL (stream records name DynamoDB itself as the deleter). */
  expired?: boolean;
}

/** The key attributes of an item. */
export const keyItem = (table: Table, item: Item): Item =>
  Object.fromEntries([table.keys.hash, table.keys.range].filter((name): name is string => name !== undefined).map((name) => [name, item[name]]));

export class Table {
  /** Partition key → items of that partition, sorted by sort key. */
  private readonly partitions = new Map<string, Item[]>();
  readonly keys: KeyNames;
  private readonly rangeOrder: (a: Item, b: Item) => number;
  count = 0;
  bytes = 0;

  constructor(readonly definition: TableDefinition) {
    this.keys = keyNames(definition.KeySchema);
    this.rangeOrder = orderBy(this.keys.range ? [this.keys.range] : []);
  }

  /** Where an item with this key is, or would go. */
  private locate(key: Item): { partition: Item[] | undefined; index: number; found: boolean } {
    const partition = this.partitions.get(scalarKey(key[this.keys.hash]));
    if (!partition) return { partition, index: 0, found: false };
    let low = 0;
    let high = partition.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.rangeOrder(partition[middle], key) < 0) low = middle + 1;
      else high = middle;
    }
    return { partition, index: low, found: low < partition.length && this.rangeOrder(partition[low], key) === 0 };
  }

  get(key: Item): Item | undefined {
    const { partition, index, found } = this.locate(key);
    return found ? partition![index] : undefined;
  }

  /** Stores the item, returning the one it replaced. */
  put(item: Item): Item | undefined {
    const { partition, index, found } = this.locate(item);
    if (!partition) {
      this.partitions.set(scalarKey(item[this.keys.hash]), [item]);
    } else if (found) {
      const old = partition[index];
      partition[index] = item;
      this.bytes += itemSize(item) - itemSize(old);
      return old;
    } else partition.splice(index, 0, item);
    this.count += 1;
    this.bytes += itemSize(item);
    return undefined;
  }

  delete(key: Item): Item | undefined {
    const { partition, index, found } = this.locate(key);
    if (!found) return undefined;
    const [old] = partition!.splice(index, 1);
    if (partition!.length === 0) this.partitions.delete(scalarKey(key[this.keys.hash]));
    this.count -= 1;
    this.bytes -= itemSize(old);
    return old;
  }

  /** The items of one partition, in sort key order. */
  partition(hashValue: AttributeValue): readonly Item[] {
    return this.partitions.get(scalarKey(hashValue)) ?? [];
  }

  /** Every item, ordered by partition key then sort key (the local stand-in for DynamoDB's hash order). */
  all(): Item[] {
    const hashOrder = orderBy([this.keys.hash]);
    return [...this.partitions.values()].sort((a, b) => hashOrder(a[0], b[0])).flat();
  }

  index(name: string): { definition: IndexDefinition; keys: KeyNames; global: boolean } | undefined {
    for (const [list, global] of [[this.definition.GlobalSecondaryIndexes, true], [this.definition.LocalSecondaryIndexes, false]] as const) {
      const definition = list?.find((index) => index.IndexName === name);
      if (definition) return { definition, keys: keyNames(definition.KeySchema), global };
    }
    return undefined;
  }
}

/**
 * How often expired items are deleted: every 5 s (AWS takes up to a few days; a local tool should not),
 * or every FW_LOCAL_DYNAMODB_TTL_SWEEP_MS milliseconds when that variable is set when the local cloud starts.
 */
export const ttlSweepMs = (): number => Number(process.env.FW_LOCAL_DYNAMODB_TTL_SWEEP_MS) || 5000;

/** AWS leaves items whose expiry is more than five years in the past (a value in milliseconds, say) alone. */
const TTL_OLDEST_SECONDS = 5 * 365 * 24 * 60 * 60;
/** Expired items deleted per log line, so one sweep of a large table is not one huge line. */
const TTL_DELETES_PER_WRITE = 100;

/** Whether an item's TTL attribute is a Number of epoch seconds that has passed (and is not over five years old). */
export function hasExpired(item: Item, attributeName: string, nowSeconds: number): boolean {
  const value = item[attributeName]?.N;
  if (value === undefined) return false;
  const expiry = Number(value);
  return expiry <= nowSeconds && expiry >= nowSeconds - TTL_OLDEST_SECONDS;
}

export class TableStore {
  private readonly tables = new Map<string, Table>();
  private readonly byId = new Map<string, Table>();
  /** `<dataDir>/dynamodb`, where the tables (and their backups, backups.ts) are kept. */
  readonly folder: string;
  private logLines = 0;
  private readonly log: AppendLog;
  /** Told about every item written or deleted (stream records hang here). */
  onItemChanges: (changes: ItemChange[]) => void = () => {};

  constructor(
    dataDir: string,
    private readonly warn: (line: string) => void = () => {},
  ) {
    this.folder = join(dataDir, 'dynamodb');
    this.log = new AppendLog(this.logFile);
    for (const definition of readJson<TableDefinition[]>(join(this.folder, 'tables.json'), [])) this.add(definition);
    this.replay();
    this.sweepTimer = setInterval(() => this.expireItems(Date.now() / 1000), ttlSweepMs());
    this.sweepTimer.unref();
  }

  private readonly sweepTimer: NodeJS.Timeout;

  /** Deletes the expired items of every table with TTL enabled, as DynamoDB's TTL process does. */
  expireItems(nowSeconds: number): void {
    for (const table of this.tables.values()) {
      const attributeName = table.definition.TimeToLiveSpecification?.AttributeName;
      if (!attributeName) continue;
      const expired = table.all().filter((item) => hasExpired(item, attributeName, nowSeconds));
      for (let start = 0; start < expired.length; start += TTL_DELETES_PER_WRITE) {
        const operations = expired.slice(start, start + TTL_DELETES_PER_WRITE).map((item): LogOperation => [table.definition.TableId, 'delete', keyItem(table, item)]);
        unlessDiskFull(`TTL deletion in ${table.definition.TableName}`, () => this.write(operations, { expired: true }), this.warn);
      }
    }
  }

  private get logFile(): string {
    return join(this.folder, 'items.log');
  }

  private add(definition: TableDefinition): Table {
    const table = new Table(definition);
    this.tables.set(definition.TableName, table);
    this.byId.set(definition.TableId, table);
    return table;
  }

  private replay(): void {
    if (!existsSync(this.logFile)) return;
    for (const operations of readJsonLines<LogOperation[]>(this.logFile)) this.apply(operations);
    this.compact();
  }

  private apply(operations: LogOperation[]): void {
    for (const [tableId, kind, item] of operations) {
      const table = this.byId.get(tableId);
      if (kind === 'put') table?.put(item);
      else table?.delete(item);
    }
  }

  /** Rewrites the log as one line per item. Only saves space: on a full disk the longer log is kept as it is. */
  private compact(): void {
    const lines = [...this.tables.values()].flatMap((table) => table.all().map((item) => JSON.stringify([[table.definition.TableId, 'put', item]])));
    unlessDiskFull('DynamoDB log compaction', () => {
      writeFileAtomic(this.logFile, lines.length ? `${lines.join('\n')}\n` : '');
      this.log.reopen();
      this.logLines = lines.length;
    }, this.warn);
  }

  /** Applies writes to memory and appends them to the log as one line, so they persist together. */
  write(operations: LogOperation[], { expired = false } = {}): void {
    if (operations.length === 0) return;
    const changes = operations.map(([tableId, kind, item]): ItemChange => {
      const table = this.byId.get(tableId)!;
      return { table, key: keyItem(table, item), old: table.get(item), next: kind === 'put' ? item : undefined, ...(expired ? { expired } : {}) };
    });
    // On the disk first: a write the disk refuses (full) is answered as failed and not seen by readers.
    this.log.append(`${JSON.stringify(operations)}\n`);
    this.apply(operations);
    this.logLines += 1;
    const items = [...this.tables.values()].reduce((sum, table) => sum + table.count, 0);
    if (this.logLines > 1000 && this.logLines > 4 * items) this.compact();
    this.onItemChanges(changes);
  }

  /** Closes the log (the local cloud stops); a later write would open it again. */
  close(): void {
    clearInterval(this.sweepTimer);
    this.log.close();
  }

  private saveDefinitions(): void {
    writeJsonAtomic(join(this.folder, 'tables.json'), [...this.tables.values()].map((table) => table.definition));
  }

  get(name: string): Table | undefined {
    return this.tables.get(name);
  }

  names(): string[] {
    return [...this.tables.keys()].sort();
  }

  create(input: Omit<TableDefinition, 'TableId' | 'CreationDateTime' | 'TableArn'>, region: string, accountId: string): Table {
    if (this.tables.has(input.TableName)) throw new AwsError('ResourceInUseException', `Table already exists: ${input.TableName}`);
    const TableArn = `arn:aws:dynamodb:${region}:${accountId}:table/${input.TableName}`;
    const definition: TableDefinition = { ...input, TableId: randomUUID(), TableArn, CreationDateTime: Date.now() / 1000 };
    if (input.StreamSpecification?.StreamEnabled) definition.LatestStreamArn = `${TableArn}/stream/${new Date().toISOString().replace(/Z$/, '')}`;
    const table = this.add(definition);
    this.saveDefinitions();
    return table;
  }

  /** A table with a changed definition (new indexes, throughput, streams) and the same items. */
  update(name: string, changes: Partial<TableDefinition>): Table {
    const table = this.tables.get(name);
    if (!table) throw new AwsError('ResourceNotFoundException', `Requested resource not found: Table: ${name} not found`);
    const replaced = this.add({ ...table.definition, ...changes });
    for (const item of table.all()) replaced.put(item);
    this.saveDefinitions();
    return replaced;
  }

  delete(name: string): TableDefinition | undefined {
    const table = this.tables.get(name);
    if (!table) return undefined;
    this.tables.delete(name);
    this.byId.delete(table.definition.TableId);
    this.saveDefinitions();
    this.compact();
    return table.definition;
  }
}

/** A key attribute's value checked against the table's definition. */
export function checkKeyValue(definition: TableDefinition, name: string, value: AttributeValue | undefined, where: 'item' | 'key'): void {
  const expected = definition.AttributeDefinitions.find((attribute) => attribute.AttributeName === name)?.AttributeType;
  if (value === undefined) {
    throw validation(where === 'item' ? `One or more parameter values were invalid: Missing the key ${name} in the item` : 'The provided key element does not match the schema');
  }
  const actual = (['S', 'N', 'B', 'SS', 'NS', 'BS', 'M', 'L', 'NULL', 'BOOL'] as const).find((type) => value[type] !== undefined);
  if (expected && actual !== expected) {
    throw validation(
      where === 'item' ? `One or more parameter values were invalid: Type mismatch for key ${name} expected: ${expected} actual: ${actual}` : 'The provided key element does not match the schema',
    );
  }
  if ((value.S ?? value.B) === '') {
    throw validation(`One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty ${value.S !== undefined ? 'string' : 'binary'} value. Key: ${name}`);
  }
}
