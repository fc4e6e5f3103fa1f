/**
 * What every DynamoDB item operation shares: finding the table, checking keys and
 * items against its schema, reading a request's expressions, and the errors
 * DynamoDB answers with.
 */
import { AwsError } from '../protocol/errors';
import { evaluate, parseCondition, parseProjection, Placeholders, project, type Condition, type Path } from './expressions';
import { checkKeyValue, type Table, type TableStore } from './tables';
import { checkValue, itemSize, validation, type AttributeValue, type Item } from './values';

/** An AWS error whose JSON body carries more members than the message (CancellationReasons, Item). */
export class DynamoDbError extends AwsError {
  constructor(
    code: string,
    message: string,
    readonly fields: Record<string, unknown> = {},
  ) {
    super(code, message);
  }
}

export const CONDITION_FAILED = 'The conditional request failed';

export function conditionFailed(old: Item | undefined, returnOld: unknown): DynamoDbError {
  return new DynamoDbError('ConditionalCheckFailedException', CONDITION_FAILED, returnOld === 'ALL_OLD' && old ? { Item: old } : {});
}

const LEGACY = ['Expected', 'AttributesToGet', 'KeyConditions', 'QueryFilter', 'ScanFilter', 'AttributeUpdates', 'ConditionalOperator'];

/** Legacy (pre-expression) parameters are not emulated: refused by name rather than ignored. */
export function refuseLegacy(input: Record<string, unknown>): void {
  const used = LEGACY.find((name) => input[name] !== undefined);
  if (used) throw validation(`The local cloud does not emulate the legacy parameter ${used}; use the expression parameters (ConditionExpression, ProjectionExpression, KeyConditionExpression, FilterExpression, UpdateExpression)`);
}

export function tableOf(store: TableStore, name: unknown): Table {
  if (typeof name !== 'string' || name === '') throw validation("1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null");
  const table = store.get(name);
  if (!table) throw new AwsError('ResourceNotFoundException', 'Requested resource not found');
  return table;
}

/** A Key parameter: exactly the table's key attributes, of their defined types. */
export function checkKey(table: Table, key: unknown): Item {
  if (!key || typeof key !== 'object') throw validation('The provided key element does not match the schema');
  const names = [table.keys.hash, table.keys.range].filter((name): name is string => name !== undefined);
  if (Object.keys(key).length !== names.length) throw validation('The provided key element does not match the schema');
  for (const name of names) checkKeyValue(table.definition, name, (key as Item)[name], 'key');
  return key as Item;
}


const MAX_ITEM_BYTES = 400 * 1024;

/** A whole item as PutItem or an update leaves it: key present and typed, index keys typed, values valid, under 400 KB. */
export function checkItem(table: Table, item: unknown): Item {
  if (!item || typeof item !== 'object') throw validation('One or more parameter values were invalid: Item is missing');
  const record = item as Item;
  for (const name of [table.keys.hash, table.keys.range]) if (name) checkKeyValue(table.definition, name, record[name], 'item');
  Object.values(record).forEach(checkValue);
  for (const index of [...(table.definition.GlobalSecondaryIndexes ?? []), ...(table.definition.LocalSecondaryIndexes ?? [])]) {
    for (const { AttributeName } of index.KeySchema) {
      const value = record[AttributeName];
      const expected = table.definition.AttributeDefinitions.find((attribute) => attribute.AttributeName === AttributeName)?.AttributeType;
      const actual = value && Object.keys(value)[0];
      if (value !== undefined && actual !== expected) {
        throw validation(`One or more parameter values were invalid: Type mismatch for Index Key ${AttributeName} Expected: ${expected} Actual: ${actual} IndexName: ${index.IndexName}`);
      }
    }
  }
  if (itemSize(record) > MAX_ITEM_BYTES) throw validation('Item size has exceeded the maximum allowed size');
  return record;
}

/** The expressions of one request, parsed, with the check that every placeholder was used. */
export class RequestExpressions {
  readonly placeholders: Placeholders;

  constructor(input: Record<string, unknown>) {
    this.placeholders = new Placeholders(input.ExpressionAttributeNames as Record<string, string> | undefined, input.ExpressionAttributeValues as Record<string, AttributeValue> | undefined);
  }

  condition(text: unknown, expression = 'ConditionExpression'): Condition | undefined {
    return typeof text === 'string' ? parseCondition(text, expression, this.placeholders) : undefined;
  }

  projection(text: unknown): Path[] | undefined {
    return typeof text === 'string' ? parseProjection(text, this.placeholders) : undefined;
  }

  done(): void {
    this.placeholders.checkAllUsed();
  }
}

/** Whether a write's condition holds on the item it would change (absent: an empty item). */
export const conditionHolds = (condition: Condition | undefined, item: Item | undefined) => !condition || evaluate(condition, item ?? {});

export const projected = (item: Item, paths: Path[] | undefined) => (paths ? project(item, paths) : item);
