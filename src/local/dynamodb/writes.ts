/**
 * PutItem, UpdateItem, DeleteItem and condition checks, each first planned
 * (validated, condition evaluated, new item computed) and then written, so that
 * BatchWriteItem and TransactWriteItems write all of their items or none.
 */
import { applyUpdate, parseUpdate, project, updatedPaths, type UpdateActions } from './expressions';
import { checkItem, checkKey, conditionFailed, conditionHolds, DynamoDbError, refuseLegacy, RequestExpressions, tableOf } from './requests';
import { keyItem, type Table, type TableStore } from './tables';
import { validation, type Item } from './values';

export interface PlannedWrite {
  table: Table;
  key: Item;
  old?: Item;
  /** The item after the write; undefined deletes it, and a condition check writes nothing. */
  next?: Item;
  check?: boolean;
  returned?: Item;
}

export type WriteKind = 'Put' | 'Update' | 'Delete' | 'ConditionCheck';

function returnedValues(option: unknown, kind: WriteKind, old: Item | undefined, next: Item | undefined, actions?: UpdateActions): Item | undefined {
  if (option === undefined || option === 'NONE') return undefined;
  const allowed = kind === 'Update' ? ['ALL_OLD', 'ALL_NEW', 'UPDATED_OLD', 'UPDATED_NEW'] : ['ALL_OLD'];
  if (!allowed.includes(String(option))) throw validation(`ReturnValues can only be ${['NONE', ...allowed].join(' or ')} for ${kind}Item`);
  if (option === 'ALL_OLD') return old;
  if (option === 'ALL_NEW') return next;
  const source = option === 'UPDATED_OLD' ? old : next;
  return source && actions ? project(source, updatedPaths(actions)) : undefined;
}

/** Plans one write; a failed condition throws ConditionalCheckFailedException before anything changes. */
export function planWrite(store: TableStore, kind: WriteKind, input: Record<string, unknown>): PlannedWrite {
  refuseLegacy(input);
  const table = tableOf(store, input.TableName);
  const expressions = new RequestExpressions(input);
  const condition = expressions.condition(input.ConditionExpression);
  let key: Item;
  let next: Item | undefined;
  let actions: UpdateActions | undefined;
  if (kind === 'Put') {
    next = checkItem(table, input.Item);
    key = keyItem(table, next);
  } else {
    key = checkKey(table, input.Key);
  }
  const old = table.get(key);
  if (kind === 'Update') {
    actions = typeof input.UpdateExpression === 'string' ? parseUpdate(input.UpdateExpression, expressions.placeholders) : { set: [], remove: [], add: [], delete: [] };
    const keyPath = updatedPaths(actions).find((path) => path[0] === table.keys.hash || path[0] === table.keys.range);
    if (keyPath) throw validation(`One or more parameter values were invalid: Cannot update attribute ${keyPath[0]}. This attribute is part of the key`);
  }
  expressions.done();
  if (!conditionHolds(condition, old)) throw conditionFailed(old, input.ReturnValuesOnConditionCheckFailure);
  if (kind === 'Update') next = checkItem(table, applyUpdate(old ?? key, actions!));
  const plan: PlannedWrite = { table, key, old, next, check: kind === 'ConditionCheck' };
  plan.returned = returnedValues(input.ReturnValues, kind, old, next, actions);
  return plan;
}

export function commit(store: TableStore, plans: PlannedWrite[]): void {
  store.write(
    // A condition check writes nothing, and neither does deleting an item that is not there (no stream record either).
    plans.filter((plan) => !plan.check && (plan.next || plan.old)).map((plan) => (plan.next ? [plan.table.definition.TableId, 'put', plan.next] : [plan.table.definition.TableId, 'delete', plan.key])),
  );
}

const itemId = (plan: PlannedWrite) => `${plan.table.definition.TableId}\u0000${JSON.stringify(plan.table.keys.range ? [plan.key[plan.table.keys.hash], plan.key[plan.table.keys.range]] : [plan.key[plan.table.keys.hash]])}`;

function refuseSameItemTwice(plans: PlannedWrite[], message: string): void {
  const seen = new Set<string>();
  for (const plan of plans) {
    const id = itemId(plan);
    if (seen.has(id)) throw validation(message);
    seen.add(id);
  }
}

export function transactWrite(store: TableStore, input: Record<string, unknown>): Record<string, unknown> {
  const items = input.TransactItems as Record<string, Record<string, unknown>>[] | undefined;
  if (!Array.isArray(items) || items.length === 0 || items.length > 100) {
    throw validation(`1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100 and greater than or equal to 1`);
  }
  const plans: (PlannedWrite | undefined)[] = [];
  const reasons: Record<string, unknown>[] = [];
  for (const entry of items) {
    const kind = (['Put', 'Update', 'Delete', 'ConditionCheck'] as const).find((name) => entry[name]);
    if (!kind) throw validation('TransactItems can only contain one of Check, Put, Update or Delete');
    try {
      plans.push(planWrite(store, kind, entry[kind]));
      reasons.push({ Code: 'None' });
    } catch (error) {
      if (!(error instanceof DynamoDbError) || error.code !== 'ConditionalCheckFailedException') throw error;
      plans.push(undefined);
      reasons.push({ Code: 'ConditionalCheckFailed', Message: error.message, ...error.fields });
    }
  }
  refuseSameItemTwice(
    plans.filter((plan): plan is PlannedWrite => plan !== undefined),
    'Transaction request cannot include multiple operations on one item',
  );
  if (plans.includes(undefined)) {
    throw new DynamoDbError('TransactionCanceledException', `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((reason) => reason.Code).join(', ')}]`, {
      CancellationReasons: reasons,
    });
  }
  commit(store, plans as PlannedWrite[]);
  return {};
}

export function batchWrite(store: TableStore, input: Record<string, unknown>): Record<string, unknown> {
  const requests = Object.entries((input.RequestItems as Record<string, Record<string, { Item?: Item; Key?: Item }>[]>) ?? {});
  const total = requests.reduce((sum, [, list]) => sum + list.length, 0);
  if (total === 0 || total > 25) {
    throw validation(`1 validation error detected: Value at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]`);
  }
  const plans = requests.flatMap(([TableName, list]) =>
    list.map((request) => {
      if (request.PutRequest) return planWrite(store, 'Put', { TableName, Item: request.PutRequest.Item });
      if (request.DeleteRequest) return planWrite(store, 'Delete', { TableName, Key: request.DeleteRequest.Key });
      throw validation('Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes');
    }),
  );
  refuseSameItemTwice(plans, 'Provided list of item keys contains duplicates');
  commit(store, plans);
  return { UnprocessedItems: {} };
}
