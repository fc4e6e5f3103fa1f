import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ConditionalCheckFailedException,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  TransactionCanceledException,
  UpdateItemCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { CreateStackCommand, DeleteStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { failure, settle, startTestCloud, type TestCloud } from './helpers';

interface Context {
  t: TestCloud;
  client: DynamoDBClient;
  doc: DynamoDBDocumentClient;
}

const dynamo = suite<Context>('DynamoDB API over HTTP');

async function createTable(client: DynamoDBClient, TableName: string, range?: string) {
  await client.send(
    new CreateTableCommand({
      TableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        ...(range ? [{ AttributeName: range, AttributeType: 'N' as const }] : []),
        { AttributeName: 'status', AttributeType: 'S' },
      ],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, ...(range ? [{ AttributeName: range, KeyType: 'RANGE' as const }] : [])],
      GlobalSecondaryIndexes: [{ IndexName: 'byStatus', KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } }],
      LocalSecondaryIndexes: range
        ? [{ IndexName: 'byStatusInPartition', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'status', KeyType: 'RANGE' }], Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['note'] } }]
        : undefined,
    }),
  );
}

dynamo.before.each(async (context) => {
  context.t = await startTestCloud();
  context.client = new DynamoDBClient({ ...context.t.config, maxAttempts: 1 });
  context.doc = DynamoDBDocumentClient.from(context.client);
  await createTable(context.client, 'things');
  await createTable(context.client, 'events', 'at');
});

dynamo.after.each(async ({ t, client }) => {
  client.destroy();
  await t.stop();
});

dynamo('CreateTable, DescribeTable, ListTables, UpdateTable and DeleteTable manage tables with AWS errors', async ({ client }) => {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: 'events' }));
  assert.equal(
    { name: Table!.TableName, status: Table!.TableStatus, keys: Table!.KeySchema, arn: Table!.TableArn, billing: Table!.BillingModeSummary, gsi: Table!.GlobalSecondaryIndexes!.map((index) => index.IndexName) },
    {
      name: 'events',
      status: 'ACTIVE',
      keys: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'at', KeyType: 'RANGE' },
      ],
      arn: 'arn:aws:dynamodb:us-east-1:000000000000:table/events',
      billing: { BillingMode: 'PAY_PER_REQUEST' },
      gsi: ['byStatus'],
    },
  );
  assert.equal((await client.send(new ListTablesCommand({}))).TableNames, ['events', 'things']);
  const paged = await client.send(new ListTablesCommand({ Limit: 1 }));
  assert.equal([paged.TableNames, paged.LastEvaluatedTableName], [['events'], 'events']);

  const short = await failure(createTable(client, 't'));
  assert.is(short!.message, "1 validation error detected: Value 't' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3");
  const again = await failure(createTable(client, 'things'));
  assert.instance(again, ResourceInUseException);
  assert.is(again!.message, 'Table already exists: things');

  const updated = await client.send(new UpdateTableCommand({ TableName: 'things', GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'byStatus' } }] }));
  assert.is(updated.TableDescription!.GlobalSecondaryIndexes, undefined);

  await client.send(new DeleteTableCommand({ TableName: 'things' }));
  const gone = await failure(client.send(new DescribeTableCommand({ TableName: 'things' })));
  assert.instance(gone, ResourceNotFoundException);
  assert.is(gone!.message, 'Requested resource not found: Table: things not found');
  const missing = await failure(client.send(new GetItemCommand({ TableName: 'things', Key: { pk: { S: 'a' } } })));
  assert.instance(missing, ResourceNotFoundException);
  assert.is(missing!.message, 'Requested resource not found');
});

dynamo('PutItem, GetItem and DeleteItem keep items, with conditions and ReturnValues', async ({ client, doc }) => {
  await doc.send(new PutCommand({ TableName: 'things', Item: { pk: 'a', n: 1, tags: new Set(['x']), nested: { list: [1, 'two', null, true] } } }));
  assert.equal((await doc.send(new GetCommand({ TableName: 'things', Key: { pk: 'a' } }))).Item, { pk: 'a', n: 1, tags: new Set(['x']), nested: { list: [1, 'two', null, true] } });
  assert.equal((await doc.send(new GetCommand({ TableName: 'things', Key: { pk: 'zzz' } }))).Item, undefined);

  const refused = await failure(doc.send(new PutCommand({ TableName: 'things', Item: { pk: 'a' }, ConditionExpression: 'attribute_not_exists(pk)' })));
  assert.instance(refused, ConditionalCheckFailedException);
  assert.is(refused!.message, 'The conditional request failed');
  const withOld = (await failure(
    client.send(new PutItemCommand({ TableName: 'things', Item: { pk: { S: 'a' } }, ConditionExpression: 'n > :n', ExpressionAttributeValues: { ':n': { N: '5' } }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })),
  )) as ConditionalCheckFailedException;
  assert.equal(withOld.Item!.n, { N: '1' });

  const replaced = await doc.send(new PutCommand({ TableName: 'things', Item: { pk: 'a', n: 2 }, ConditionExpression: 'n = :one', ExpressionAttributeValues: { ':one': 1 }, ReturnValues: 'ALL_OLD' }));
  assert.equal(replaced.Attributes, { pk: 'a', n: 1, tags: new Set(['x']), nested: { list: [1, 'two', null, true] } });

  const projected = await doc.send(new GetCommand({ TableName: 'things', Key: { pk: 'a' }, ProjectionExpression: '#n', ExpressionAttributeNames: { '#n': 'n' } }));
  assert.equal(projected.Item, { n: 2 });

  const deleted = await doc.send(new DeleteCommand({ TableName: 'things', Key: { pk: 'a' }, ReturnValues: 'ALL_OLD' }));
  assert.equal(deleted.Attributes, { pk: 'a', n: 2 });
  assert.equal((await doc.send(new GetCommand({ TableName: 'things', Key: { pk: 'a' } }))).Item, undefined);
});

dynamo('items and keys are checked against the key schema with DynamoDB messages', async ({ client, doc }) => {
  const errors = await Promise.all([
    failure(doc.send(new PutCommand({ TableName: 'things', Item: { id: 'x' } }))),
    failure(client.send(new PutItemCommand({ TableName: 'things', Item: { pk: { N: '1' } } }))),
    failure(doc.send(new PutCommand({ TableName: 'things', Item: { pk: '' } }))),
    failure(doc.send(new GetCommand({ TableName: 'things', Key: { pk: 'a', other: 1 } }))),
    failure(doc.send(new UpdateCommand({ TableName: 'things', Key: { pk: 'a' }, UpdateExpression: 'SET pk = :v', ExpressionAttributeValues: { ':v': 'b' } }))),
    failure(doc.send(new PutCommand({ TableName: 'things', Item: { pk: 'a' }, ConditionExpression: 'a = :unused', ExpressionAttributeValues: { ':unused': 1, ':extra': 2 } }))),
    failure(doc.send(new PutCommand({ TableName: 'things', Item: { pk: 'a' }, ConditionExpression: '#missing = :v', ExpressionAttributeValues: { ':v': 1 } }))),
    failure(doc.send(new PutCommand({ TableName: 'things', Item: { pk: 'a' }, ConditionExpression: 'a = = :v', ExpressionAttributeValues: { ':v': 1 } }))),
    failure(doc.send(new PutCommand({ TableName: 'events', Item: { pk: 'a', at: 1, status: 7 } }))),
  ]);
  assert.equal(
    errors.map((error) => `${error!.name}: ${error!.message}`),
    [
      'ValidationException: One or more parameter values were invalid: Missing the key pk in the item',
      'ValidationException: One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N',
      'ValidationException: One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk',
      'ValidationException: The provided key element does not match the schema',
      'ValidationException: One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key',
      'ValidationException: Value provided in ExpressionAttributeValues unused in expressions: keys: {:extra}',
      'ValidationException: Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #missing',
      'ValidationException: Invalid ConditionExpression: Syntax error; token: "=", near: "= = :v"',
      'ValidationException: One or more parameter values were invalid: Type mismatch for Index Key status Expected: S Actual: N IndexName: byStatus',
    ],
  );
});

dynamo('UpdateItem applies SET, REMOVE, ADD and DELETE with every ReturnValues option', async ({ doc }) => {
  await doc.send(new PutCommand({ TableName: 'things', Item: { pk: 'u', count: 10, price: '1', entries: [1], gone: true, tags: new Set(['a', 'b']), colors: new Set(['red', 'blue']), nested: { deep: 1 } } }));
  const updated = await doc.send(
    new UpdateCommand({
      TableName: 'things',
      Key: { pk: 'u' },
      UpdateExpression:
        'SET #c = #c + :one, created = if_not_exists(created, :now), kept = if_not_exists(#c, :zero), entries = list_append(entries, :more), nested.deep = :two, price = :dec - :tenth REMOVE gone ADD visits :one, tags :c DELETE colors :red',
      ExpressionAttributeNames: { '#c': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':now': 'today', ':zero': 0, ':more': [2, 3], ':two': 2, ':dec': 0.3, ':tenth': 0.1, ':c': new Set(['c']), ':red': new Set(['red']) },
      ReturnValues: 'ALL_NEW',
    }),
  );
  assert.equal(updated.Attributes, {
    pk: 'u',
    count: 11,
    price: 0.2,
    entries: [1, 2, 3],
    tags: new Set(['a', 'b', 'c']),
    colors: new Set(['blue']),
    nested: { deep: 2 },
    created: 'today',
    kept: 10,
    visits: 1,
  });
  const updatedNew = await doc.send(new UpdateCommand({ TableName: 'things', Key: { pk: 'u' }, UpdateExpression: 'SET #c = :v', ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':v': 1 }, ReturnValues: 'UPDATED_NEW' }));
  assert.equal(updatedNew.Attributes, { count: 1 });
  const updatedOld = await doc.send(new UpdateCommand({ TableName: 'things', Key: { pk: 'u' }, UpdateExpression: 'REMOVE entries[0], created', ReturnValues: 'UPDATED_OLD' }));
  assert.equal(updatedOld.Attributes, { entries: [1], created: 'today' });
  const allOld = await doc.send(new UpdateCommand({ TableName: 'things', Key: { pk: 'new' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 }, ReturnValues: 'ALL_OLD' }));
  assert.equal(allOld.Attributes, undefined);
  assert.equal((await doc.send(new GetCommand({ TableName: 'things', Key: { pk: 'new' } }))).Item, { pk: 'new', n: 1 });

  const badType = await failure(doc.send(new UpdateCommand({ TableName: 'things', Key: { pk: 'u' }, UpdateExpression: 'SET tags = tags + :one', ExpressionAttributeValues: { ':one': 1 } })));
  assert.is(badType!.message, 'An operand in the update expression has an incorrect data type');
  const conditional = await failure(
    doc.send(new UpdateCommand({ TableName: 'things', Key: { pk: 'u' }, UpdateExpression: 'SET x = :one', ConditionExpression: 'attribute_exists(nope)', ExpressionAttributeValues: { ':one': 1 } })),
  );
  assert.instance(conditional, ConditionalCheckFailedException);
});

dynamo('numbers keep their exact text and compare numerically', async ({ client }) => {
  await client.send(new PutItemCommand({ TableName: 'things', Item: { pk: { S: 'n' }, big: { N: '123456789012345678901234567890.5' }, small: { N: '9' } } }));
  const { Item } = await client.send(new GetItemCommand({ TableName: 'things', Key: { pk: { S: 'n' } } }));
  assert.equal(Item, { pk: { S: 'n' }, big: { N: '123456789012345678901234567890.5' }, small: { N: '9' } });
  await client.send(
    new UpdateItemCommand({
      TableName: 'things',
      Key: { pk: { S: 'n' } },
      UpdateExpression: 'SET big = big + :x',
      ConditionExpression: 'small < :ten AND big > :ten',
      ExpressionAttributeValues: { ':x': { N: '0.5' }, ':ten': { N: '10' } },
    }),
  );
  const after = await client.send(new GetItemCommand({ TableName: 'things', Key: { pk: { S: 'n' } }, ProjectionExpression: 'big' }));
  assert.equal(after.Item, { big: { N: '123456789012345678901234567891' } });
});

dynamo('condition and filter expressions: comparators, BETWEEN, IN, AND/OR/NOT and every function', async ({ doc }) => {
  await doc.send(new BatchWriteCommand({
    RequestItems: {
      things: [
        { PutRequest: { Item: { pk: 'a', n: 1, s: 'apple pie', l: ['x', 'y'], m: { k: 1 } } } },
        { PutRequest: { Item: { pk: 'b', n: 5, s: 'banana', tags: new Set(['red']) } } },
        { PutRequest: { Item: { pk: 'c', n: 10, s: 'cherry', status: 'open' } } },
      ],
    },
  }));
  const filtered = async (FilterExpression: string, ExpressionAttributeValues?: Record<string, unknown>, ExpressionAttributeNames?: Record<string, string>) => {
    const { Items } = await doc.send(new ScanCommand({ TableName: 'things', FilterExpression, ExpressionAttributeValues, ExpressionAttributeNames }));
    return Items!.map((item) => item.pk).sort();
  };
  assert.equal(await filtered('n BETWEEN :lo AND :hi', { ':lo': 2, ':hi': 10 }), ['b', 'c']);
  assert.equal(await filtered('pk IN (:a, :c)', { ':a': 'a', ':c': 'c' }), ['a', 'c']);
  assert.equal(await filtered('NOT n >= :five OR s = :cherry', { ':five': 5, ':cherry': 'cherry' }), ['a', 'c']);
  assert.equal(await filtered('n <> :one AND (n < :ten)', { ':one': 1, ':ten': 10 }), ['b']);
  assert.equal(await filtered('begins_with(s, :p)', { ':p': 'ban' }), ['b']);
  assert.equal(await filtered('contains(s, :pie) OR contains(tags, :red) OR contains(l, :y)', { ':pie': 'pie', ':red': 'red', ':y': 'y' }), ['a', 'b']);
  assert.equal(await filtered('attribute_exists(m.k) OR attribute_not_exists(tags) AND attribute_exists(#st)', undefined, { '#st': 'status' }), ['a', 'c']);
  assert.equal(await filtered('attribute_type(l, :list)', { ':list': 'L' }), ['a']);
  assert.equal(await filtered('size(s) > :five', { ':five': 5 }), ['a', 'b', 'c']);
  assert.equal(await filtered('size(l) = :two', { ':two': 2 }), ['a']);
});

dynamo('Query reads a partition by key conditions, in both directions, with Limit pages and COUNT', async ({ doc }) => {
  await doc.send(new BatchWriteCommand({
    RequestItems: { events: [1, 2, 3, 4, 5, 10, 20].map((at) => ({ PutRequest: { Item: { pk: 'p', at, status: at % 2 ? 'odd' : 'even' } } })).concat([{ PutRequest: { Item: { pk: 'q', at: 1, status: 'odd' } } }]) },
  }));
  const ats = (items: Record<string, unknown>[] | undefined) => items!.map((item) => item.at);
  const all = await doc.send(new QueryCommand({ TableName: 'events', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'p' } }));
  assert.equal([ats(all.Items), all.Count, all.LastEvaluatedKey], [[1, 2, 3, 4, 5, 10, 20], 7, undefined]);
  const between = await doc.send(new QueryCommand({ TableName: 'events', KeyConditionExpression: 'pk = :p AND #at BETWEEN :a AND :b', ExpressionAttributeNames: { '#at': 'at' }, ExpressionAttributeValues: { ':p': 'p', ':a': 3, ':b': 10 }, ScanIndexForward: false }));
  assert.equal(ats(between.Items), [10, 5, 4, 3]);
  const filtered = await doc.send(new QueryCommand({ TableName: 'events', KeyConditionExpression: 'pk = :p AND #at > :a', FilterExpression: '#s = :odd', ExpressionAttributeNames: { '#s': 'status', '#at': 'at' }, ExpressionAttributeValues: { ':p': 'p', ':a': 1, ':odd': 'odd' } }));
  assert.equal([ats(filtered.Items), filtered.Count, filtered.ScannedCount], [[3, 5], 2, 6]);

  const pages: unknown[][] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new QueryCommand({ TableName: 'events', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'p' }, Limit: 3, ExclusiveStartKey }));
    pages.push(ats(page.Items));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  assert.equal(pages, [[1, 2, 3], [4, 5, 10], [20]]);

  const counted = await doc.send(new QueryCommand({ TableName: 'events', KeyConditionExpression: 'pk = :p AND #at <= :a', ExpressionAttributeNames: { '#at': 'at' }, ExpressionAttributeValues: { ':p': 'p', ':a': 4 }, Select: 'COUNT' }));
  assert.equal([counted.Items, counted.Count], [undefined, 4]);

  const byIndex = await doc.send(new QueryCommand({ TableName: 'events', IndexName: 'byStatus', KeyConditionExpression: '#s = :even', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':even': 'even' } }));
  assert.equal(byIndex.Items, [{ pk: 'p', at: 2, status: 'even' }, { pk: 'p', at: 4, status: 'even' }, { pk: 'p', at: 10, status: 'even' }, { pk: 'p', at: 20, status: 'even' }]);

  const local = await doc.send(
    new QueryCommand({ TableName: 'events', IndexName: 'byStatusInPartition', KeyConditionExpression: 'pk = :p AND begins_with(#s, :o)', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':p': 'p', ':o': 'o' }, ScanIndexForward: false, Limit: 2 }),
  );
  assert.equal([local.Items, local.LastEvaluatedKey], [[{ pk: 'p', at: 5, status: 'odd' }, { pk: 'p', at: 3, status: 'odd' }], { pk: 'p', at: 3, status: 'odd' }]);

  const noKey = await failure(doc.send(new QueryCommand({ TableName: 'events', KeyConditionExpression: '#at = :a', ExpressionAttributeNames: { '#at': 'at' }, ExpressionAttributeValues: { ':a': 1 } })));
  assert.is(noKey!.message, 'Query condition missed key schema element: pk');
  const keyFilter = await failure(doc.send(new QueryCommand({ TableName: 'events', KeyConditionExpression: 'pk = :p', FilterExpression: '#at > :a', ExpressionAttributeNames: { '#at': 'at' }, ExpressionAttributeValues: { ':p': 'p', ':a': 1 } })));
  assert.is(keyFilter!.message, 'Filter Expression can only contain non-primary key attributes: Primary key attribute: at');
});

dynamo('Query pages at 1 MB like DynamoDB', async ({ doc }) => {
  const blob = 'x'.repeat(300 * 1024);
  for (let at = 0; at < 5; at++) await doc.send(new PutCommand({ TableName: 'events', Item: { pk: 'big', at, blob } }));
  const first = await doc.send(new QueryCommand({ TableName: 'events', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'big' }, ProjectionExpression: '#at', ExpressionAttributeNames: { '#at': 'at' } }));
  assert.equal([first.Items, first.LastEvaluatedKey], [[{ at: 0 }, { at: 1 }, { at: 2 }, { at: 3 }], { pk: 'big', at: 3 }]);
});

dynamo('Scan pages through every item and splits into parallel segments', async ({ doc }) => {
  await doc.send(new BatchWriteCommand({ RequestItems: { things: Array.from({ length: 25 }, (_, i) => ({ PutRequest: { Item: { pk: `item-${String(i).padStart(2, '0')}`, i } } })) } }));
  const seen: string[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  let pages = 0;
  do {
    const page = await doc.send(new ScanCommand({ TableName: 'things', Limit: 10, ExclusiveStartKey }));
    seen.push(...page.Items!.map((item) => item.pk as string));
    ExclusiveStartKey = page.LastEvaluatedKey;
    pages += 1;
  } while (ExclusiveStartKey);
  assert.equal([seen.length, new Set(seen).size, pages], [25, 25, 3]);
  const segments = await Promise.all([0, 1, 2].map((Segment) => doc.send(new ScanCommand({ TableName: 'things', Segment, TotalSegments: 3 }))));
  assert.equal(segments.flatMap((page) => page.Items!.map((item) => item.pk as string)).sort(), [...seen].sort());
  const counted = await doc.send(new ScanCommand({ TableName: 'things', Select: 'COUNT', FilterExpression: 'i < :five', ExpressionAttributeValues: { ':five': 5 } }));
  assert.equal([counted.Count, counted.ScannedCount], [5, 25]);
});

dynamo('BatchGetItem and BatchWriteItem read and write several tables at once', async ({ doc }) => {
  await doc.send(new BatchWriteCommand({ RequestItems: { things: [{ PutRequest: { Item: { pk: 'a' } } }, { PutRequest: { Item: { pk: 'b' } } }], events: [{ PutRequest: { Item: { pk: 'e', at: 1 } } }] } }));
  await doc.send(new BatchWriteCommand({ RequestItems: { things: [{ DeleteRequest: { Key: { pk: 'b' } } }] } }));
  const read = await doc.send(new BatchGetCommand({ RequestItems: { things: { Keys: [{ pk: 'a' }, { pk: 'b' }] }, events: { Keys: [{ pk: 'e', at: 1 }] } } }));
  assert.equal([read.Responses, read.UnprocessedKeys], [{ things: [{ pk: 'a' }], events: [{ pk: 'e', at: 1 }] }, {}]);
  const duplicate = await failure(doc.send(new BatchWriteCommand({ RequestItems: { things: [{ PutRequest: { Item: { pk: 'a' } } }, { DeleteRequest: { Key: { pk: 'a' } } }] } })));
  assert.is(duplicate!.message, 'Provided list of item keys contains duplicates');
});

dynamo('TransactWriteItems writes all or nothing and names the failed condition', async ({ doc }) => {
  await doc.send(new PutCommand({ TableName: 'things', Item: { pk: 'acct', balance: 10 } }));
  await doc.send(new PutCommand({ TableName: 'things', Item: { pk: 'bank', open: true } }));
  const transfer = (amount: number) =>
    doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName: 'things', Key: { pk: 'acct' }, UpdateExpression: 'SET balance = balance - :a', ConditionExpression: 'balance >= :a', ExpressionAttributeValues: { ':a': amount } } },
          { Put: { TableName: 'events', Item: { pk: 'acct', at: amount } } },
          { ConditionCheck: { TableName: 'things', Key: { pk: 'bank' }, ConditionExpression: '#o = :yes', ExpressionAttributeNames: { '#o': 'open' }, ExpressionAttributeValues: { ':yes': true } } },
        ],
      }),
    );
  await transfer(4);
  const refused = (await failure(transfer(7))) as TransactionCanceledException;
  assert.instance(refused, TransactionCanceledException);
  assert.is(refused.message, 'Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None, None]');
  assert.equal(refused.CancellationReasons, [{ Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' }, { Code: 'None' }, { Code: 'None' }]);
  const read = await doc.send(new TransactGetCommand({ TransactItems: [{ Get: { TableName: 'things', Key: { pk: 'acct' } } }, { Get: { TableName: 'events', Key: { pk: 'acct', at: 7 } } }, { Get: { TableName: 'events', Key: { pk: 'acct', at: 4 } } }] }));
  assert.equal(read.Responses, [{ Item: { pk: 'acct', balance: 6 } }, {}, { Item: { pk: 'acct', at: 4 } }]);
  const twice = await failure(doc.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 'things', Item: { pk: 'x' } } }, { Delete: { TableName: 'things', Key: { pk: 'x' } } }] })));
  assert.is(twice!.message, 'Transaction request cannot include multiple operations on one item');
});

dynamo('items persist across a restart of the local cloud, and a torn last write is dropped', async (context) => {
  await context.doc.send(new PutCommand({ TableName: 'things', Item: { pk: 'kept', n: 1 } }));
  await context.doc.send(new UpdateCommand({ TableName: 'things', Key: { pk: 'kept' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } }));
  await context.doc.send(new PutCommand({ TableName: 'things', Item: { pk: 'dropped' } }));
  await context.doc.send(new DeleteCommand({ TableName: 'things', Key: { pk: 'dropped' } }));
  context.client.destroy();
  await context.t.stop({ keepData: true });
  // A write cut off by a crash leaves half a line: it is dropped, the rest is kept.
  appendFileSync(join(context.t.dataDir, 'dynamodb', 'items.log'), '[["torn", "put", {"pk":');
  context.t = await startTestCloud(context.t.dataDir);
  context.client = new DynamoDBClient({ ...context.t.config, maxAttempts: 1 });
  context.doc = DynamoDBDocumentClient.from(context.client);
  const { Items } = await context.doc.send(new ScanCommand({ TableName: 'things' }));
  assert.equal(Items, [{ pk: 'kept', n: 2 }]);
  assert.is((await context.client.send(new DescribeTableCommand({ TableName: 'things' }))).Table!.ItemCount, 1);
});

dynamo('a stack creates its table with indexes, an update adds an index, and deleting the stack deletes the table', async ({ t, doc, client }) => {
  const template = {
    Resources: {
      Orders: {
        Type: 'AWS::DynamoDB::Table',
        Properties: {
          TableName: 'stack-orders',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [
            { AttributeName: 'id', AttributeType: 'S' },
            { AttributeName: 'customer', AttributeType: 'S' },
          ],
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
          GlobalSecondaryIndexes: [{ IndexName: 'byCustomer', KeySchema: [{ AttributeName: 'customer', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } }],
        },
      },
    },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'tables', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(t.cfn, 'tables')).StackStatus, 'CREATE_COMPLETE');
  await doc.send(new PutCommand({ TableName: 'stack-orders', Item: { id: '1', customer: 'ada' } }));
  const found = await doc.send(new QueryCommand({ TableName: 'stack-orders', IndexName: 'byCustomer', KeyConditionExpression: 'customer = :c', ExpressionAttributeValues: { ':c': 'ada' } }));
  assert.equal(found.Items, [{ id: '1', customer: 'ada' }]);

  const properties = template.Resources.Orders.Properties;
  properties.AttributeDefinitions.push({ AttributeName: 'day', AttributeType: 'S' });
  properties.GlobalSecondaryIndexes.push({ IndexName: 'byDay', KeySchema: [{ AttributeName: 'day', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } });
  await t.cfn.send(new UpdateStackCommand({ StackName: 'tables', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(t.cfn, 'tables')).StackStatus, 'UPDATE_COMPLETE');
  await doc.send(new PutCommand({ TableName: 'stack-orders', Item: { id: '2', customer: 'bob', day: 'monday' } }));
  const byDay = await doc.send(new QueryCommand({ TableName: 'stack-orders', IndexName: 'byDay', KeyConditionExpression: '#d = :d', ExpressionAttributeNames: { '#d': 'day' }, ExpressionAttributeValues: { ':d': 'monday' } }));
  assert.equal(byDay.Items, [{ id: '2', customer: 'bob', day: 'monday' }]);

  await t.cfn.send(new DeleteStackCommand({ StackName: 'tables' }));
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal((await client.send(new ListTablesCommand({}))).TableNames, ['events', 'things']);
});

dynamo('a stack table from a data folder that kept no items is restored, empty', async (context) => {
  const template = { Resources: { Old: { Type: 'AWS::DynamoDB::Table', Properties: { TableName: 'old-table', AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }] } } } };
  await context.t.cfn.send(new CreateStackCommand({ StackName: 'old', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(context.t.cfn, 'old')).StackStatus, 'CREATE_COMPLETE');
  context.client.destroy();
  await context.t.stop({ keepData: true });
  rmSync(join(context.t.dataDir, 'dynamodb'), { recursive: true });
  context.t = await startTestCloud(context.t.dataDir);
  context.client = new DynamoDBClient({ ...context.t.config, maxAttempts: 1 });
  const { Table } = await context.client.send(new DescribeTableCommand({ TableName: 'old-table' }));
  assert.equal([Table!.TableName, Table!.ItemCount, Table!.KeySchema], ['old-table', 0, [{ AttributeName: 'id', KeyType: 'HASH' }]]);
});

dynamo.run();
