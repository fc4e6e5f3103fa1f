/**
 * The DynamoDB API (JSON 1.0, target prefix DynamoDB_20120810): tables, items,
 * expressions, queries, scans, batches and transactions over the table store, and
 * PartiQL statements (partiql.ts) written out as those.
 */
import { AwsError } from '../protocol/errors';
import { backupOperation } from './backups';
import { batchExecuteStatement, executeStatement, executeTransaction } from './partiql';
import { batchGet, getItem, query, scan, transactGet } from './reads';
import { tableOperation } from './table-operations';
import type { TableStore } from './tables';
import { batchWrite, commit, planWrite, transactWrite } from './writes';

export const ITEM_WRITES = { PutItem: 'Put', UpdateItem: 'Update', DeleteItem: 'Delete' } as const;

export function dynamoDbOperation(store: TableStore, operation: string, input: Record<string, unknown>, region: string, accountId: string): Record<string, unknown> {
  if (operation in ITEM_WRITES) {
    const plan = planWrite(store, ITEM_WRITES[operation as keyof typeof ITEM_WRITES], input);
    commit(store, [plan]);
    return plan.returned ? { Attributes: plan.returned } : {};
  }
  switch (operation) {
    case 'GetItem':
      return getItem(store, input);
    case 'Query':
      return query(store, input);
    case 'Scan':
      return scan(store, input);
    case 'BatchGetItem':
      return batchGet(store, input);
    case 'BatchWriteItem':
      return batchWrite(store, input);
    case 'TransactGetItems':
      return transactGet(store, input);
    case 'TransactWriteItems':
      return transactWrite(store, input);
    case 'ExecuteStatement':
      return executeStatement(store, input);
    case 'BatchExecuteStatement':
      return batchExecuteStatement(store, input);
    case 'ExecuteTransaction':
      return executeTransaction(store, input);
    case 'DescribeEndpoints':
      return { Endpoints: [] };
    default: {
      const result = tableOperation(store, operation, input, region, accountId) ?? backupOperation(store, operation, input, region, accountId);
      if (result) return result;
      throw new AwsError('UnknownOperationException', `not emulated: DynamoDB ${operation}`);
    }
  }
}
