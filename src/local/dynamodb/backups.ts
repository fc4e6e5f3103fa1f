/**
 * On-demand backups and point-in-time recovery settings: CreateBackup copies a table's definition and
 * items as they are at that moment into `<dataDir>/dynamodb/backups/<id>.json` (listed in
 * `backups.json`); RestoreTableFromBackup makes a new table of them. Update/DescribeContinuousBackups
 * record PITR on the table's definition; DescribeLimits answers DynamoDB's default account quotas.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import { readJson, writeJsonAtomic } from '../state/files';
import { describeTable } from './table-operations';
import type { IndexDefinition, TableDefinition, TableStore } from './tables';
import type { Item } from './values';
import { validation } from './values';

export interface BackupDetails {
  BackupArn: string;
  BackupName: string;
  BackupSizeBytes: number;
  BackupStatus: 'AVAILABLE' | 'DELETED';
  BackupType: 'USER';
  BackupCreationDateTime: number;
  ItemCount: number;
  /** The table as it was, for SourceTableDetails and the restore. */
  source: TableDefinition;
}

const tableNotFound = (name: unknown) => new AwsError('TableNotFoundException', `Table not found: ${String(name)}`);
const backupNotFound = (arn: unknown) => new AwsError('BackupNotFoundException', `Backup not found: ${String(arn)}`);

/** DynamoDB's default account quotas (Service, account, and table quotas in Amazon DynamoDB). */
const LIMITS = { AccountMaxReadCapacityUnits: 80000, AccountMaxWriteCapacityUnits: 80000, TableMaxReadCapacityUnits: 40000, TableMaxWriteCapacityUnits: 40000 };

export class TableBackups {
  private readonly folder: string;
  private readonly indexFile: string;
  private readonly backups: BackupDetails[];

  constructor(dynamoDbFolder: string) {
    this.folder = join(dynamoDbFolder, 'backups');
    this.indexFile = join(dynamoDbFolder, 'backups.json');
    this.backups = readJson<BackupDetails[]>(this.indexFile, []);
  }

  private fileOf(backup: BackupDetails): string {
    return join(this.folder, `${backup.BackupArn.split('/backup/')[1]}.json`);
  }

  create(store: TableStore, tableName: string, backupName: string): BackupDetails {
    const table = store.get(tableName);
    if (!table) throw tableNotFound(tableName);
    const created = Date.now();
    const backup: BackupDetails = {
      BackupArn: `${table.definition.TableArn}/backup/${String(created).padStart(17, '0')}-${randomBytes(4).toString('hex')}`,
      BackupName: backupName,
      BackupSizeBytes: table.bytes,
      BackupStatus: 'AVAILABLE',
      BackupType: 'USER',
      BackupCreationDateTime: created / 1000,
      ItemCount: table.count,
      source: table.definition,
    };
    // The items first: a backup listed is a backup that can be restored.
    writeJsonAtomic(this.fileOf(backup), table.all());
    this.backups.push(backup);
    writeJsonAtomic(this.indexFile, this.backups);
    return backup;
  }

  get(arn: unknown): BackupDetails {
    const backup = this.backups.find((candidate) => candidate.BackupArn === arn);
    if (!backup) throw backupNotFound(arn);
    return backup;
  }

  list(): BackupDetails[] {
    return [...this.backups];
  }

  delete(arn: unknown): BackupDetails {
    const backup = this.get(arn);
    this.backups.splice(this.backups.indexOf(backup), 1);
    writeJsonAtomic(this.indexFile, this.backups);
    rmSync(this.fileOf(backup), { force: true });
    return { ...backup, BackupStatus: 'DELETED' };
  }

  items(backup: BackupDetails): Item[] {
    return readJson<Item[]>(this.fileOf(backup), []);
  }
}

const opened = new WeakMap<TableStore, TableBackups>();

/** The backups kept beside a table store's tables, read once. */
function backupsOf(store: TableStore): TableBackups {
  let backups = opened.get(store);
  if (!backups) opened.set(store, (backups = new TableBackups(store.folder)));
  return backups;
}

const summary = (backup: BackupDetails) => ({
  TableName: backup.source.TableName,
  TableId: backup.source.TableId,
  TableArn: backup.source.TableArn,
  BackupArn: backup.BackupArn,
  BackupName: backup.BackupName,
  BackupCreationDateTime: backup.BackupCreationDateTime,
  BackupStatus: backup.BackupStatus,
  BackupType: backup.BackupType,
  BackupSizeBytes: backup.BackupSizeBytes,
});

function description(backup: BackupDetails): Record<string, unknown> {
  const { source } = backup;
  const { BackupArn, BackupName, BackupSizeBytes, BackupStatus, BackupType, BackupCreationDateTime } = backup;
  return {
    BackupDetails: { BackupArn, BackupName, BackupSizeBytes, BackupStatus, BackupType, BackupCreationDateTime },
    SourceTableDetails: {
      TableName: source.TableName,
      TableId: source.TableId,
      TableArn: source.TableArn,
      TableSizeBytes: backup.BackupSizeBytes,
      KeySchema: source.KeySchema,
      TableCreationDateTime: source.CreationDateTime,
      ProvisionedThroughput: { ReadCapacityUnits: Number(source.ProvisionedThroughput?.ReadCapacityUnits ?? 0), WriteCapacityUnits: Number(source.ProvisionedThroughput?.WriteCapacityUnits ?? 0) },
      ItemCount: backup.ItemCount,
      BillingMode: source.BillingMode,
    },
    SourceTableFeatureDetails: {
      GlobalSecondaryIndexes: source.GlobalSecondaryIndexes?.map(({ IndexName, KeySchema, Projection, ProvisionedThroughput }) => ({ IndexName, KeySchema, Projection, ProvisionedThroughput })),
      LocalSecondaryIndexes: source.LocalSecondaryIndexes?.map(({ IndexName, KeySchema, Projection }) => ({ IndexName, KeySchema, Projection })),
      StreamDescription: source.StreamSpecification,
      TimeToLiveDescription: source.TimeToLiveSpecification ? { TimeToLiveStatus: 'ENABLED', AttributeName: source.TimeToLiveSpecification.AttributeName } : { TimeToLiveStatus: 'DISABLED' },
    },
  };
}

function continuousBackups(definition: TableDefinition): Record<string, unknown> {
  const pitr = definition.PointInTimeRecovery;
  const now = Date.now() / 1000;
  return {
    ContinuousBackupsStatus: 'ENABLED',
    PointInTimeRecoveryDescription: pitr
      ? { PointInTimeRecoveryStatus: 'ENABLED', RecoveryPeriodInDays: pitr.RecoveryPeriodInDays, EarliestRestorableDateTime: Math.max(pitr.EnabledAt, now - pitr.RecoveryPeriodInDays * 86_400), LatestRestorableDateTime: now }
      : { PointInTimeRecoveryStatus: 'DISABLED' },
  };
}

function listBackups(store: TableStore, input: Record<string, unknown>): Record<string, unknown> {
  const limit = input.Limit === undefined ? 100 : Number(input.Limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw validation(`1 validation error detected: Value '${String(input.Limit)}' at 'limit' failed to satisfy constraint: Member must have value ${limit < 1 ? 'greater than or equal to 1' : 'less than or equal to 100'}`);
  const lower = input.TimeRangeLowerBound === undefined ? -Infinity : Number(input.TimeRangeLowerBound);
  const upper = input.TimeRangeUpperBound === undefined ? Infinity : Number(input.TimeRangeUpperBound);
  const type = String(input.BackupType ?? 'ALL');
  let found = backupsOf(store)
    .list()
    .filter((backup) => (input.TableName === undefined || backup.source.TableName === input.TableName) && backup.BackupCreationDateTime >= lower && backup.BackupCreationDateTime < upper && (type === 'ALL' || type === backup.BackupType));
  if (input.ExclusiveStartBackupArn !== undefined) found = found.slice(found.findIndex((backup) => backup.BackupArn === input.ExclusiveStartBackupArn) + 1);
  const page = found.slice(0, limit);
  return { BackupSummaries: page.map(summary), ...(found.length > limit ? { LastEvaluatedBackupArn: page[page.length - 1].BackupArn } : {}) };
}

function restore(store: TableStore, input: Record<string, unknown>, region: string, accountId: string): Record<string, unknown> {
  const backup = backupsOf(store).get(input.BackupArn);
  const target = String(input.TargetTableName ?? '');
  if (store.get(target)) throw new AwsError('TableAlreadyExistsException', `Table already exists: ${target}`);
  const { TableName: _name, TableId: _id, TableArn: _arn, CreationDateTime: _created, LatestStreamArn: _stream, PointInTimeRecovery: _pitr, ...kept } = backup.source;
  const globals = (input.GlobalSecondaryIndexOverride as IndexDefinition[] | undefined) ?? kept.GlobalSecondaryIndexes;
  const locals = (input.LocalSecondaryIndexOverride as IndexDefinition[] | undefined) ?? kept.LocalSecondaryIndexes;
  const table = store.create(
    {
      ...kept,
      TableName: target,
      BillingMode: typeof input.BillingModeOverride === 'string' ? input.BillingModeOverride : kept.BillingMode,
      ProvisionedThroughput: (input.ProvisionedThroughputOverride as Record<string, unknown> | undefined) ?? kept.ProvisionedThroughput,
      GlobalSecondaryIndexes: globals?.length ? globals : undefined,
      LocalSecondaryIndexes: locals?.length ? locals : undefined,
      // AWS restores neither streams nor TTL settings: they are set again on the new table.
      StreamSpecification: undefined,
      TimeToLiveSpecification: undefined,
    },
    region,
    accountId,
  );
  const items = backupsOf(store).items(backup);
  for (let start = 0; start < items.length; start += 100) store.write(items.slice(start, start + 100).map((item) => [table.definition.TableId, 'put', item]));
  return {
    TableDescription: {
      ...describeTable(table),
      RestoreSummary: { SourceBackupArn: backup.BackupArn, SourceTableArn: backup.source.TableArn, RestoreDateTime: Date.now() / 1000, RestoreInProgress: false },
    },
  };
}

export function backupOperation(store: TableStore, operation: string, input: Record<string, unknown>, region: string, accountId: string): Record<string, unknown> | undefined {
  switch (operation) {
    case 'DescribeLimits':
      return { ...LIMITS };
    case 'DescribeContinuousBackups': {
      const table = store.get(String(input.TableName));
      if (!table) throw tableNotFound(input.TableName);
      return { ContinuousBackupsDescription: continuousBackups(table.definition) };
    }
    case 'UpdateContinuousBackups': {
      const table = store.get(String(input.TableName));
      if (!table) throw tableNotFound(input.TableName);
      const specification = input.PointInTimeRecoverySpecification as { PointInTimeRecoveryEnabled?: unknown; RecoveryPeriodInDays?: unknown } | undefined;
      if (typeof specification?.PointInTimeRecoveryEnabled !== 'boolean') throw validation("1 validation error detected: Value null at 'pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled' failed to satisfy constraint: Member must not be null");
      const days = specification.RecoveryPeriodInDays === undefined ? 35 : Number(specification.RecoveryPeriodInDays);
      if (!Number.isInteger(days) || days < 1 || days > 35) throw validation(`1 validation error detected: Value '${String(specification.RecoveryPeriodInDays)}' at 'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy constraint: Member must have value ${days < 1 ? 'greater than or equal to 1' : 'less than or equal to 35'}`);
      const current = table.definition.PointInTimeRecovery;
      const updated = store.update(table.definition.TableName, {
        PointInTimeRecovery: specification.PointInTimeRecoveryEnabled ? { RecoveryPeriodInDays: days, EnabledAt: current?.EnabledAt ?? Date.now() / 1000 } : undefined,
      });
      return { ContinuousBackupsDescription: continuousBackups(updated.definition) };
    }
    case 'CreateBackup': {
      const name = String(input.BackupName ?? '');
      if (!/^[a-zA-Z0-9_.-]{3,255}$/.test(name)) throw validation(`1 validation error detected: Value '${name}' at 'backupName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+ and have length between 3 and 255`);
      const { source: _source, ItemCount: _count, ...details } = backupsOf(store).create(store, String(input.TableName), name);
      return { BackupDetails: details };
    }
    case 'DescribeBackup':
      return { BackupDescription: description(backupsOf(store).get(input.BackupArn)) };
    case 'ListBackups':
      return listBackups(store, input);
    case 'DeleteBackup':
      return { BackupDescription: description(backupsOf(store).delete(input.BackupArn)) };
    case 'RestoreTableFromBackup':
      return restore(store, input, region, accountId);
    default:
      return undefined;
  }
}
