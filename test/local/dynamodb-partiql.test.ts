import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BatchExecuteStatementCommand,
  CreateTableCommand,
  DynamoDBClient,
  ExecuteStatementCommand,
  ExecuteTransactionCommand,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ExecuteStatementCommand as DocumentStatement } from '@aws-sdk/lib-dynamodb';
import { failure, startTestCloud, type TestCloud } from './helpers';

type Context = { t: TestCloud; client: DynamoDBClient };
const partiql = suite<Context>('DynamoDB PartiQL: ExecuteStatement, BatchExecuteStatement and ExecuteTransaction');

partiql.before(async (context) => {
  context.t = await startTestCloud();
  context.client = new DynamoDBClient({ ...context.t.config, maxAttempts: 1 });
  await context.client.send(
    new CreateTableCommand({
      TableName: 'Music',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'Artist', AttributeType: 'S' },
        { AttributeName: 'SongTitle', AttributeType: 'S' },
        { AttributeName: 'Year', AttributeType: 'N' },
      ],
      KeySchema: [
        { AttributeName: 'Artist', KeyType: 'HASH' },
        { AttributeName: 'SongTitle', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [{ IndexName: 'ByYear', KeySchema: [{ AttributeName: 'Year', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } }],
    }),
  );
});
partiql.after(async ({ t, client }) => {
  client.destroy();
  await t.stop();
});

const run = (client: DynamoDBClient, Statement: string, Parameters?: Record<string, unknown>[]) => client.send(new ExecuteStatementCommand({ Statement, Parameters: Parameters as never }));

async function refusal(promise: Promise<unknown>): Promise<[string | undefined, string | undefined]> {
  const error = await failure(promise);
  return [error?.name, error?.message];
}

partiql('INSERT with literals and parameters writes the item GetItem reads; a second INSERT of the key is a DuplicateItemException', async ({ client }) => {
  const inserted = await run(client, `INSERT INTO "Music" VALUE {'Artist': 'Acme Band', 'SongTitle': 'PartiQL Rocks', 'Year': 2020, 'Tags': <<'rock', 'live'>>, 'Awards': {'Grammys': [2020, 2018]}, 'Live': TRUE, 'Notes': NULL, 'Price': ?}`, [{ N: '1.50' }]);
  assert.equal(inserted.Items, []);
  const { Item } = await client.send(new GetItemCommand({ TableName: 'Music', Key: { Artist: { S: 'Acme Band' }, SongTitle: { S: 'PartiQL Rocks' } } }));
  assert.equal(Item, {
    Artist: { S: 'Acme Band' },
    SongTitle: { S: 'PartiQL Rocks' },
    Year: { N: '2020' },
    Tags: { SS: ['rock', 'live'] },
    Awards: { M: { Grammys: { L: [{ N: '2020' }, { N: '2018' }] } } },
    Live: { BOOL: true },
    Notes: { NULL: true },
    Price: { N: '1.50' },
  });
  assert.equal(await refusal(run(client, `INSERT INTO Music VALUE {'Artist': 'Acme Band', 'SongTitle': 'PartiQL Rocks'}`)), ['DuplicateItemException', 'Duplicate primary key exists in table']);
});

partiql('SELECT: a partition read in sort key order (DESC too), projections, filters, IN over partitions, an index, pages with NextToken', async ({ client }) => {
  for (const [artist, title, year] of [
    ['Other Band', 'B side', 1999],
    ['Other Band', 'A side', 2001],
    ['Other Band', 'C side', 2005],
    ['Third', 'Only', 2001],
  ] as const) {
    await client.send(new PutItemCommand({ TableName: 'Music', Item: { Artist: { S: artist }, SongTitle: { S: title }, Year: { N: String(year) } } }));
  }
  const titles = (items: Record<string, { S?: string }>[] | undefined) => (items ?? []).map((item) => item.SongTitle?.S);
  assert.equal(titles((await run(client, `SELECT * FROM "Music" WHERE "Artist" = 'Other Band'`)).Items as never), ['A side', 'B side', 'C side']);
  assert.equal(titles((await run(client, `SELECT * FROM Music WHERE Artist = ? ORDER BY SongTitle DESC`, [{ S: 'Other Band' }])).Items as never), ['C side', 'B side', 'A side']);
  assert.equal((await run(client, `SELECT SongTitle, "Year" FROM "Music" WHERE 'Other Band' = Artist AND SongTitle BETWEEN 'A' AND 'B z' AND "Year" > 2000`)).Items, [{ SongTitle: { S: 'A side' }, Year: { N: '2001' } }]);
  assert.equal(titles((await run(client, `SELECT * FROM "Music" WHERE Artist IN ['Third', 'Acme Band'] AND begins_with(SongTitle, 'Only')`)).Items as never), ['Only']);
  assert.equal(titles((await run(client, `SELECT * FROM "Music" WHERE "Year" = 2001 OR Price IS NOT MISSING`)).Items as never).sort(), ['A side', 'Only', 'PartiQL Rocks']);
  assert.equal(titles((await run(client, `SELECT * FROM "Music" WHERE Awards.Grammys[1] = 2018 AND contains(Tags, 'live') AND NOT Live = FALSE`)).Items as never), ['PartiQL Rocks']);
  // A keys-only index: the table's keys and the index's.
  assert.equal((await run(client, `SELECT * FROM "Music"."ByYear" WHERE "Year" = 2005`)).Items, [{ Artist: { S: 'Other Band' }, SongTitle: { S: 'C side' }, Year: { N: '2005' } }]);
  const first = await client.send(new ExecuteStatementCommand({ Statement: `SELECT SongTitle FROM "Music" WHERE Artist = 'Other Band'`, Limit: 2 }));
  assert.equal(titles(first.Items as never), ['A side', 'B side']);
  assert.type(first.NextToken, 'string');
  const second = await client.send(new ExecuteStatementCommand({ Statement: `SELECT SongTitle FROM "Music" WHERE Artist = 'Other Band'`, Limit: 2, NextToken: first.NextToken }));
  assert.equal([titles(second.Items as never), second.NextToken], [['C side'], undefined]);
});

partiql('UPDATE sets, adds to sets, appends, counts and removes, returning what was asked; a missing item or a false condition fails', async ({ client }) => {
  const key = `WHERE Artist = 'Acme Band' AND SongTitle = 'PartiQL Rocks'`;
  const updated = await run(
    client,
    `UPDATE "Music" SET AwardsWon = 1 SET Tags = set_add(Tags, <<'studio'>>), Awards.Grammys = list_append(Awards.Grammys, [2024]) REMOVE Notes ${key} RETURNING ALL NEW *`,
  );
  const item = updated.Items![0];
  assert.equal([item.AwardsWon, item.Tags, item.Awards, item.Notes], [{ N: '1' }, { SS: ['rock', 'live', 'studio'] }, { M: { Grammys: { L: [{ N: '2020' }, { N: '2018' }, { N: '2024' }] } } }, undefined]);
  const counted = await run(client, `UPDATE "Music" SET AwardsWon = AwardsWon + ? SET Tags = set_delete(Tags, <<'live'>>) ${key} AND AwardsWon < 5 RETURNING MODIFIED OLD *`, [{ N: '2' }]);
  assert.equal(counted.Items, [{ AwardsWon: { N: '1' }, Tags: { SS: ['rock', 'live', 'studio'] } }]);
  assert.equal(await refusal(run(client, `UPDATE "Music" SET AwardsWon = 0 ${key} AND AwardsWon > 100`)), ['ConditionalCheckFailedException', 'The conditional request failed']);
  assert.equal(await refusal(run(client, `UPDATE "Music" SET AwardsWon = 0 WHERE Artist = 'Nobody' AND SongTitle = 'Nothing'`)), ['ConditionalCheckFailedException', 'The conditional request failed']);
  assert.equal(await refusal(run(client, `UPDATE "Music" SET AwardsWon = 0 WHERE Artist = 'Acme Band'`)), ['ValidationException', 'Where clause does not contain a mandatory equality on all key attributes']);
  assert.equal(await refusal(run(client, `UPDATE "Music" SET Artist = 'x' ${key}`)), ['ValidationException', 'One or more parameter values were invalid: Cannot update attribute Artist. This attribute is part of the key']);
});

partiql('DELETE returns the old item when asked, deletes nothing (and succeeds) when the item is not there, and checks its condition', async ({ client }) => {
  await run(client, `INSERT INTO "Music" VALUE {'Artist': 'Gone', 'SongTitle': 'Soon', 'Plays': 3}`);
  assert.equal(await refusal(run(client, `DELETE FROM "Music" WHERE Artist = 'Gone' AND SongTitle = 'Soon' AND Plays > 10`)), ['ConditionalCheckFailedException', 'The conditional request failed']);
  assert.equal((await run(client, `DELETE FROM "Music" WHERE Artist = 'Gone' AND SongTitle = 'Soon' RETURNING ALL OLD *`)).Items, [{ Artist: { S: 'Gone' }, SongTitle: { S: 'Soon' }, Plays: { N: '3' } }]);
  assert.equal((await run(client, `DELETE FROM "Music" WHERE Artist = 'Gone' AND SongTitle = 'Soon'`)).Items, []);
  assert.equal((await run(client, `SELECT * FROM "Music" WHERE Artist = 'Gone'`)).Items, []);
});

partiql('the DocumentClient marshals parameters and unmarshals items', async ({ t }) => {
  const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ ...t.config, maxAttempts: 1 }));
  await documents.send(new DocumentStatement({ Statement: `INSERT INTO "Music" VALUE {'Artist': ?, 'SongTitle': ?, 'Meta': ?}`, Parameters: ['Doc', 'Client', { plays: 7, tags: ['a'] }] }));
  const { Items } = await documents.send(new DocumentStatement({ Statement: `SELECT * FROM "Music" WHERE Artist = ?`, Parameters: ['Doc'] }));
  assert.equal(Items, [{ Artist: 'Doc', SongTitle: 'Client', Meta: { plays: 7, tags: ['a'] } }]);
  documents.destroy();
});

partiql('malformed statements, parameter counts and unknown tables are refused as DynamoDB refuses them', async ({ client }) => {
  assert.equal(await refusal(run(client, `SELEC * FROM "Music"`)), ['ValidationException', "Statement wasn't well formed, can't be processed: Unexpected keyword or identifier 'SELEC', expected SELECT, INSERT, UPDATE, DELETE or EXISTS"]);
  assert.equal(await refusal(run(client, `SELECT * FROM "Music" WHERE Artist = ?`)), ['ValidationException', "Number of parameters in request and statement don't match."]);
  assert.equal(await refusal(run(client, `SELECT * FROM "Music" WHERE Artist = 'x'`, [{ S: 'extra' }])), ['ValidationException', "Number of parameters in request and statement don't match."]);
  assert.equal(await refusal(run(client, `SELECT * FROM "Nope"`)), ['ResourceNotFoundException', 'Requested resource not found']);
  assert.equal(await refusal(run(client, `SELECT * FROM "Music" WHERE Artist = 'it''s`)), ['ValidationException', "Statement wasn't well formed, can't be processed: Unterminated string literal"]);
});

partiql('BatchExecuteStatement answers each statement on its own: items, DuplicateItem and ConditionalCheckFailed errors', async ({ client }) => {
  const writes = await client.send(
    new BatchExecuteStatementCommand({
      Statements: [
        { Statement: `INSERT INTO "Music" VALUE {'Artist': 'Batch', 'SongTitle': 'One'}` },
        { Statement: `INSERT INTO "Music" VALUE {'Artist': 'Acme Band', 'SongTitle': 'PartiQL Rocks'}` },
        { Statement: `UPDATE "Music" SET Plays = 1 WHERE Artist = 'Batch' AND SongTitle = 'Two'` },
      ],
    }),
  );
  assert.equal(writes.Responses, [
    { TableName: 'Music' },
    { TableName: 'Music', Error: { Code: 'DuplicateItem', Message: 'Duplicate primary key exists in table' } },
    { TableName: 'Music', Error: { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' } },
  ]);
  const reads = await client.send(
    new BatchExecuteStatementCommand({
      Statements: [{ Statement: `SELECT SongTitle FROM "Music" WHERE Artist = 'Batch' AND SongTitle = 'One'` }, { Statement: `SELECT * FROM "Music" WHERE Artist = ? AND SongTitle = ?`, Parameters: [{ S: 'Batch' }, { S: 'None' }] }],
    }),
  );
  assert.equal(reads.Responses, [{ TableName: 'Music', Item: { SongTitle: { S: 'One' } } }, { TableName: 'Music' }]);
});

partiql('ExecuteTransaction writes all or nothing, with EXISTS checks and cancellation reasons', async ({ client }) => {
  const cancelled = await failure(
    client.send(
      new ExecuteTransactionCommand({
        TransactStatements: [
          { Statement: `INSERT INTO "Music" VALUE {'Artist': 'Tx', 'SongTitle': 'One'}` },
          { Statement: `EXISTS(SELECT * FROM "Music" WHERE Artist = 'Batch' AND SongTitle = 'One' AND Plays > 0)` },
        ],
      }),
    ),
  );
  assert.equal([cancelled?.name, cancelled?.message], ['TransactionCanceledException', 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]']);
  assert.equal((cancelled as unknown as { CancellationReasons: unknown }).CancellationReasons, [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' }]);
  assert.equal((await run(client, `SELECT * FROM "Music" WHERE Artist = 'Tx'`)).Items, []);
  await client.send(
    new ExecuteTransactionCommand({
      TransactStatements: [
        { Statement: `INSERT INTO "Music" VALUE {'Artist': 'Tx', 'SongTitle': 'One'}` },
        { Statement: `EXISTS(SELECT * FROM "Music" WHERE Artist = 'Batch' AND SongTitle = 'One')` },
        { Statement: `UPDATE "Music" SET Plays = 5 WHERE Artist = 'Acme Band' AND SongTitle = 'PartiQL Rocks'` },
      ],
    }),
  );
  const read = await client.send(new ExecuteTransactionCommand({ TransactStatements: [{ Statement: `SELECT Plays FROM "Music" WHERE Artist = 'Acme Band' AND SongTitle = 'PartiQL Rocks'` }, { Statement: `SELECT * FROM "Music" WHERE Artist = 'Tx' AND SongTitle = 'One'` }] }));
  assert.equal(read.Responses, [{ Item: { Plays: { N: '5' } } }, { Item: { Artist: { S: 'Tx' }, SongTitle: { S: 'One' } } }]);
  // Two statements on one item are refused before anything is written.
  const twice = await failure(
    client.send(
      new ExecuteTransactionCommand({
        TransactStatements: [{ Statement: `INSERT INTO "Music" VALUE {'Artist': 'Tx', 'SongTitle': 'Two'}` }, { Statement: `EXISTS(SELECT * FROM "Music" WHERE Artist = 'Tx' AND SongTitle = 'One')` }, { Statement: `UPDATE "Music" SET Plays = 1 WHERE Artist = 'Tx' AND SongTitle = 'One'` }],
      }),
    ),
  );
  assert.equal([twice?.name, twice?.message], ['ValidationException', 'Transaction request cannot include multiple operations on one item']);
  assert.equal((await run(client, `SELECT SongTitle FROM "Music" WHERE Artist = 'Tx'`)).Items, [{ SongTitle: { S: 'One' } }]);
});

partiql.run();
