// DynamoDB PutItem and GetItem through the AWS SDK v3, against `fw local start` and, when python3
// has it, moto's server, side by side: latency (p50, p99) and throughput for 10,000 items, from one
// client in sequence and from 16 concurrent clients. Goals (issue 15): at least 5x moto's
// throughput, p50 under 2 ms (from one client: with 16 requests in flight, a request's latency is
// mostly its wait behind the others). A "floor" server that answers `{}` at once shows what the
// SDK client itself costs on this machine.
'use strict';

const path = require('path');
const { startFloor, startFwLocal, startMoto } = require('./servers');

const REPO = path.resolve(__dirname, '..', '..');
// The SDK's notice that Node 20 support ends says nothing about these figures.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const ITEMS = Number(process.env.FW_BENCH_DYNAMODB_ITEMS || 10_000);
const CONCURRENT_CLIENTS = 16;
const TABLE = 'bench';

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

function sdk() {
  return require(require.resolve('@aws-sdk/client-dynamodb', { paths: [REPO] }));
}

function client(url) {
  const { DynamoDBClient } = sdk();
  return new DynamoDBClient({ endpoint: url, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
}

const item = (i) => ({ id: { S: `item-${i}` }, n: { N: String(i) }, payload: { S: 'x'.repeat(100) } });

/** Runs `operation(i)` for every i below ITEMS, spread over `clients` clients; latencies in ms. */
async function phase(clients, operation) {
  const latencies = [];
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    clients.map(async (dynamo) => {
      for (let i = next++; i < ITEMS; i = next++) {
        const start = process.hrtime.bigint();
        await operation(dynamo, i);
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), perSecond: ITEMS / seconds };
}

async function measureServer(server) {
  const { CreateTableCommand, GetItemCommand, PutItemCommand } = sdk();
  const one = client(server.url);
  const many = Array.from({ length: CONCURRENT_CLIENTS }, () => client(server.url));
  try {
    await one.send(
      new CreateTableCommand({
        TableName: TABLE,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      }),
    );
    const put = (dynamo, i) => dynamo.send(new PutItemCommand({ TableName: TABLE, Item: item(i) }));
    const get = async (dynamo, i) => {
      const { Item } = await dynamo.send(new GetItemCommand({ TableName: TABLE, Key: { id: { S: `item-${i}` } } }));
      if (server.name !== 'floor' && Item?.n?.N !== String(i)) throw new Error(`${server.name}: GetItem item-${i} returned ${JSON.stringify(Item)}`);
    };
    // Warm-up: connections, JIT.
    for (let i = 0; i < 200; i++) await put(one, i);
    return {
      putSequential: await phase([one], put),
      getSequential: await phase([one], get),
      putConcurrent: await phase(many, put),
      getConcurrent: await phase(many, get),
    };
  } finally {
    one.destroy();
    for (const dynamo of many) dynamo.destroy();
  }
}

async function dynamodbBench() {
  const results = [];
  for (const start of [startFloor, startFwLocal, startMoto]) {
    const server = await start();
    if (!server) continue;
    process.stderr.write(` ${server.name}…`);
    try {
      results.push({ name: server.name, ...(await measureServer(server)) });
    } finally {
      await server.stop();
    }
  }
  return { items: ITEMS, clients: CONCURRENT_CLIENTS, results };
}

const PHASES = [
  ['putSequential', 'PutItem, 1 client'],
  ['getSequential', 'GetItem, 1 client'],
  ['putConcurrent', `PutItem, ${CONCURRENT_CLIENTS} clients`],
  ['getConcurrent', `GetItem, ${CONCURRENT_CLIENTS} clients`],
];

/** Table rows and PASS/FAIL lines for bench.js. */
function dynamodbReport({ items, results }) {
  const fw = results.find((result) => result.name === 'fw local');
  const moto = results.find((result) => result.name === 'moto');
  const floor = results.find((result) => result.name === 'floor');
  const ms = (value) => `${value.toFixed(2)} ms`;
  const rate = (value) => `${Math.round(value)}/s`;
  const rows = [['DynamoDB (' + items + ' items)', 'fw p50', 'fw p99', 'fw ops', ...(moto ? ['moto p50', 'moto p99', 'moto ops', 'fw/moto'] : []), 'floor p50', 'floor ops']];
  const verdicts = [];
  for (const [key, label] of PHASES) {
    const row = [label, ms(fw[key].p50), ms(fw[key].p99), rate(fw[key].perSecond)];
    if (moto) {
      const ratio = fw[key].perSecond / moto[key].perSecond;
      row.push(ms(moto[key].p50), ms(moto[key].p99), rate(moto[key].perSecond), `${ratio.toFixed(1)}x`);
      verdicts.push(`${ratio >= 5 ? 'PASS' : 'FAIL'}  DynamoDB ${label}: ${ratio.toFixed(1)}x moto's throughput (target at least 5x)`);
    }
    if (key.endsWith('Sequential')) verdicts.push(`${fw[key].p50 < 2 ? 'PASS' : 'FAIL'}  DynamoDB ${label}: p50 ${ms(fw[key].p50)} (target under 2 ms)`);
    row.push(ms(floor[key].p50), rate(floor[key].perSecond));
    rows.push(row);
  }
  if (!moto) verdicts.push('SKIP  DynamoDB vs moto: python3 has no moto (pip install "moto[server]")');
  return { rows, verdicts };
}

module.exports = { dynamodbBench, dynamodbReport };
