/** GetItem, BatchGetItem, TransactGetItems, Query and Scan (with indexes, filters and 1 MB pages). */
import { conditionAttributes, evaluate, type Condition, type Path } from './expressions';
import { checkKey, projected, refuseLegacy, RequestExpressions, tableOf } from './requests';
import { orderBy, type KeyNames, type Table, type TableStore } from './tables';
import { compareScalars, itemSize, validation, type AttributeValue, type Item } from './values';

const PAGE_BYTES = 1024 * 1024;

export function getItem(store: TableStore, input: Record<string, unknown>): Record<string, unknown> {
  refuseLegacy(input);
  const table = tableOf(store, input.TableName);
  const key = checkKey(table, input.Key);
  const expressions = new RequestExpressions(input);
  const paths = expressions.projection(input.ProjectionExpression);
  expressions.done();
  const item = table.get(key);
  return item ? { Item: projected(item, paths) } : {};
}

export function batchGet(store: TableStore, input: Record<string, unknown>): Record<string, unknown> {
  const requests = Object.entries((input.RequestItems as Record<string, Record<string, unknown>>) ?? {});
  const total = requests.reduce((sum, [, request]) => sum + ((request.Keys as unknown[]) ?? []).length, 0);
  if (total === 0 || total > 100) throw validation('Too many items requested for the BatchGetItem call');
  const responses: Record<string, Item[]> = {};
  for (const [TableName, request] of requests) {
    responses[TableName] = (request.Keys as Item[]).flatMap((Key) => {
      const found = getItem(store, { ...request, Keys: undefined, TableName, Key }).Item as Item | undefined;
      return found ? [found] : [];
    });
  }
  return { Responses: responses, UnprocessedKeys: {} };
}

export function transactGet(store: TableStore, input: Record<string, unknown>): Record<string, unknown> {
  const items = input.TransactItems as { Get?: Record<string, unknown> }[] | undefined;
  if (!Array.isArray(items) || items.length === 0 || items.length > 100) {
    throw validation(`1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100 and greater than or equal to 1`);
  }
  return { Responses: items.map((entry) => getItem(store, entry.Get ?? {})) };
}

interface Source {
  /** The items in the order this read returns them. */
  items: readonly Item[];
  /** The key attributes LastEvaluatedKey carries. */
  keyNames: string[];
  order: (a: Item, b: Item) => number;
  project: (item: Item) => Item;
}

/** The items an index holds (those with its key attributes), projected as it declares. */
function indexSource(table: Table, indexName: unknown, consistent: unknown): { keys: KeyNames; items: Item[]; project: (item: Item) => Item } {
  if (indexName === undefined) return { keys: table.keys, items: [], project: (item) => item };
  const index = table.index(String(indexName));
  if (!index) throw validation(`The table does not have the specified index: ${String(indexName)}`);
  if (index.global && consistent === true) throw validation('Consistent reads are not supported on global secondary indexes');
  const tableKeys = [table.keys.hash, table.keys.range].filter((name): name is string => name !== undefined);
  const indexKeys = [index.keys.hash, index.keys.range].filter((name): name is string => name !== undefined);
  const items = table.all().filter((item) => indexKeys.every((name) => item[name] !== undefined));
  const { ProjectionType = 'ALL', NonKeyAttributes = [] } = index.definition.Projection ?? {};
  const kept = new Set([...tableKeys, ...indexKeys, ...(ProjectionType === 'INCLUDE' ? NonKeyAttributes : [])]);
  const project = ProjectionType === 'ALL' ? (item: Item) => item : (item: Item) => Object.fromEntries(Object.entries(item).filter(([name]) => kept.has(name)));
  return { keys: index.keys, items, project };
}

function readPage(source: Source, input: Record<string, unknown>, filter: Condition | undefined, paths: Path[] | undefined): Record<string, unknown> {
  const limit = input.Limit === undefined ? Infinity : Number(input.Limit);
  if (!(limit >= 1)) throw validation(`1 validation error detected: Value '${String(input.Limit)}' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1`);
  const start = input.ExclusiveStartKey as Item | undefined;
  if (start && source.keyNames.some((name) => start[name] === undefined)) throw validation('The provided starting key is invalid: The provided key element does not match the schema');
  let position = start ? source.items.findIndex((item) => source.order(item, start) > 0) : 0;
  if (position < 0) position = source.items.length;
  const countOnly = input.Select === 'COUNT';
  const found: Item[] = [];
  let scanned = 0;
  let bytes = 0;
  let last: Item | undefined;
  while (position < source.items.length && scanned < limit && bytes < PAGE_BYTES) {
    const item = source.items[position++];
    scanned += 1;
    bytes += itemSize(item);
    last = item;
    const visible = source.project(item);
    if (filter && !evaluate(filter, visible)) continue;
    found.push(projected(visible, paths));
  }
  const stopped = position < source.items.length || scanned === limit;
  return {
    ...(countOnly ? {} : { Items: found }),
    Count: found.length,
    ScannedCount: scanned,
    ...(stopped && last ? { LastEvaluatedKey: Object.fromEntries(source.keyNames.map((name) => [name, last![name]])) } : {}),
  };
}

function keyNameList(...keys: KeyNames[]): string[] {
  return [...new Set(keys.flatMap((key) => [key.hash, key.range]).filter((name): name is string => name !== undefined))];
}

/** The partition value and sort key test of a KeyConditionExpression. */
function keyCondition(condition: Condition, keys: KeyNames): { hash: AttributeValue; range?: Condition } {
  const parts: Condition[] = [];
  const flatten = (node: Condition): void => {
    if (node.kind === 'and') {
      flatten(node.left);
      flatten(node.right);
    } else parts.push(node);
  };
  flatten(condition);
  const onPath = (node: Condition): string | undefined => {
    if (node.kind === 'compare' && node.left.kind === 'path' && node.left.path.length === 1) return String(node.left.path[0]);
    if (node.kind === 'between' && node.operand.kind === 'path' && node.operand.path.length === 1) return String(node.operand.path[0]);
    if (node.kind === 'function' && node.name === 'begins_with' && node.path.length === 1) return String(node.path[0]);
    return undefined;
  };
  const hashPart = parts.find((part) => onPath(part) === keys.hash && part.kind === 'compare' && part.comparator === '=');
  if (!hashPart || hashPart.kind !== 'compare' || hashPart.right.kind !== 'value') throw validation(`Query condition missed key schema element: ${keys.hash}`);
  const rest = parts.filter((part) => part !== hashPart);
  if (rest.length > 1 || (rest.length === 1 && (onPath(rest[0]) !== keys.range || (rest[0].kind === 'compare' && rest[0].comparator === '<>')))) {
    throw validation(rest.length === 1 && keys.range && onPath(rest[0]) !== keys.range ? `Query condition missed key schema element: ${keys.range}` : 'Query key condition not supported');
  }
  return { hash: hashPart.right.value, range: rest[0] };
}

export function query(store: TableStore, input: Record<string, unknown>): Record<string, unknown> {
  refuseLegacy(input);
  const table = tableOf(store, input.TableName);
  const index = indexSource(table, input.IndexName, input.ConsistentRead);
  const expressions = new RequestExpressions(input);
  if (typeof input.KeyConditionExpression !== 'string') throw validation('Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.');
  const { hash, range } = keyCondition(expressions.condition(input.KeyConditionExpression, 'KeyConditionExpression')!, index.keys);
  const filter = expressions.condition(input.FilterExpression, 'FilterExpression');
  const keyInFilter = filter && conditionAttributes(filter).find((name) => name === index.keys.hash || name === index.keys.range);
  if (keyInFilter) throw validation(`Filter Expression can only contain non-primary key attributes: Primary key attribute: ${keyInFilter}`);
  const paths = expressions.projection(input.ProjectionExpression);
  expressions.done();
  // Within a partition: by sort key, and in an index, ties broken by the table's key.
  const sortNames = [index.keys.range, table.keys.hash, table.keys.range].filter((name): name is string => name !== undefined && name !== index.keys.hash);
  const rangeOrder = orderBy([...new Set(sortNames)]);
  const candidates = input.IndexName === undefined ? [...table.partition(hash)] : index.items.filter((item) => compareScalars(item[index.keys.hash], hash) === 0).sort(rangeOrder);
  const matching = range ? candidates.filter((item) => evaluate(range, item)) : candidates;
  const forward = input.ScanIndexForward !== false;
  return readPage(
    { items: forward ? matching : matching.reverse(), keyNames: keyNameList(table.keys, index.keys), order: forward ? rangeOrder : (a, b) => rangeOrder(b, a), project: index.project },
    input,
    filter,
    paths,
  );
}

/** A stable segment for each partition value, so parallel scans split the items between them. */
function segmentOf(value: AttributeValue, total: number): number {
  let hash = 0;
  for (const character of JSON.stringify(value)) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return hash % total;
}

export function scan(store: TableStore, input: Record<string, unknown>): Record<string, unknown> {
  refuseLegacy(input);
  const table = tableOf(store, input.TableName);
  const index = indexSource(table, input.IndexName, input.ConsistentRead);
  const expressions = new RequestExpressions(input);
  const filter = expressions.condition(input.FilterExpression, 'FilterExpression');
  const paths = expressions.projection(input.ProjectionExpression);
  expressions.done();
  const keyNames = keyNameList(index.keys, table.keys);
  const order = orderBy(keyNames);
  let items = input.IndexName === undefined ? table.all() : index.items.sort(order);
  if (input.TotalSegments !== undefined) {
    const total = Number(input.TotalSegments);
    const segment = Number(input.Segment);
    if (!(segment >= 0 && segment < total)) throw validation(`The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: ${segment} is not less than TotalSegments: ${total}`);
    items = items.filter((item) => segmentOf(item[index.keys.hash], total) === segment);
  }
  return readPage({ items, keyNames, order, project: index.project }, input, filter, paths);
}
