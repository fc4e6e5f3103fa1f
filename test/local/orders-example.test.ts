import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { runFw } from '../helpers/cli';
import { credentials, outputsOf } from './helpers';

interface Context {
  cloud: RunningLocalCloud;
  work: string;
  base: string;
  table: string;
  doc: DynamoDBDocumentClient;
  lambda: LambdaClient;
}

const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };

const orders = suite<Context>('examples/orders runs end to end in the local cloud');

orders.before(async (context) => {
  context.work = mkdtempSync(join(tmpdir(), 'fw-orders-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: join(context.work, 'cloud'), quiet: true });
  const dir = join(context.work, 'orders');
  cpSync(join(__dirname, '..', '..', '..', 'examples', 'orders'), dir, { recursive: true });
  const deployed = await runFw(['deploy', '--endpoint-url', context.cloud.url], dir, ENV);
  assert.is(deployed.code, 0, deployed.stderr);
  context.base = /GET - (\S+)\/health/.exec(deployed.stdout)![1];
  const config = { endpoint: context.cloud.url, region: 'us-east-1', credentials, maxAttempts: 1 };
  const cfn = new CloudFormationClient(config);
  context.table = outputsOf((await cfn.send(new DescribeStacksCommand({ StackName: 'orders-dev' }))).Stacks![0]).OrdersTableName;
  cfn.destroy();
  context.doc = DynamoDBDocumentClient.from(new DynamoDBClient(config));
  context.lambda = new LambdaClient(config);
});

orders.after(async (context) => {
  context.doc.destroy();
  context.lambda.destroy();
  await context.cloud.stop();
  rmSync(context.work, { recursive: true, force: true });
});

async function stored(context: Context, id: string, status: string): Promise<Record<string, unknown> | undefined> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { Item } = await context.doc.send(new GetCommand({ TableName: context.table, Key: { id } }));
    if (Item?.status === status || Date.now() > deadline) return Item;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

orders('an order is created, stored, processed by the queue worker, read back and counted', async (context) => {
  const created = await fetch(`${context.base}/orders`, { method: 'POST', body: JSON.stringify({ items: [{ sku: 'pencil', quantity: 2 }, { sku: 'eraser', quantity: 1 }] }) });
  assert.is(created.status, 201);
  const order = (await created.json()) as Record<string, unknown>;
  const expected = { id: order.id, status: 'received', createdAt: order.createdAt, items: [{ sku: 'pencil', quantity: 2, unitCents: 120 }, { sku: 'eraser', quantity: 1, unitCents: 90 }], totalCents: 330 };
  assert.equal(order, expected);

  // The queue message invokes processOrder through the event source mapping, which marks the order processed.
  const processed = await stored(context, String(order.id), 'processed');
  assert.equal(processed, { ...expected, status: 'processed', processedAt: processed!.processedAt });
  assert.match(String(processed!.processedAt), /^\d{4}-\d\d-\d\dT/);

  const read = await fetch(`${context.base}/orders/${String(order.id)}`);
  assert.is(read.status, 200);
  assert.equal(await read.json(), processed);
  const missing = await fetch(`${context.base}/orders/nope`);
  assert.equal([missing.status, await missing.json()], [404, { message: 'No order with id "nope"' }]);

  const second = await fetch(`${context.base}/orders`, { method: 'POST', body: JSON.stringify({ items: [{ sku: 'notebook', quantity: 1 }] }) });
  assert.is(second.status, 201);
  const secondId = String(((await second.json()) as { id: string }).id);
  await stored(context, secondId, 'processed');
  // The nightly report scans the whole table.
  const report = await context.lambda.send(new InvokeCommand({ FunctionName: 'orders-dev-nightlyReport', Payload: Buffer.from('{"time":"2026-01-01T02:00:00Z"}') }));
  assert.equal(JSON.parse(Buffer.from(report.Payload!).toString()), { at: '2026-01-01T02:00:00Z', orders: 2, byStatus: { processed: 2 }, totalCents: 780 });
});

orders('a bad order is refused with the reason', async ({ base }) => {
  const refused = await fetch(`${base}/orders`, { method: 'POST', body: JSON.stringify({ items: [{ sku: 'stapler', quantity: 1 }] }) });
  assert.equal([refused.status, await refused.json()], [400, { message: 'Unknown sku "stapler": expected one of notebook, pencil, eraser' }]);
});

orders.run();
