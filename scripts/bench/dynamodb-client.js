// The DynamoDB bench's client side, two ways: the AWS SDK v3 client (`sdk`) and a lean client
// (`lean`) that sends the same JSON 1.0 requests over node:http keep-alive connections, each signed
// with Signature Version 4 (a fresh Authorization header per request; the derived signing key is
// reused for the day, region and service, as SigV4 allows). The lean client shows what the servers
// cost when the client costs little. Every answer is checked: a status other than 200 ends the run,
// and GetItem must return the item PutItem stored (except from the do-nothing "floor" server).
//
// Run by dynamodb.js as a child process (child_process.fork): it is told { url, mode, connections,
// worker, workers, items, check } once, then a phase name per message ('create', 'warmup',
// 'put', 'get'); it answers each phase with its latencies (ms) and its start and end times
// (process.hrtime.bigint(), one monotonic clock for every process on the machine).
'use strict';

const crypto = require('crypto');
const http = require('http');
const path = require('path');

const REPO = path.resolve(__dirname, '..', '..');
const REGION = 'us-east-1';
const TABLE = 'bench';

const sha256Hex = (data) => crypto.createHash('sha256').update(data).digest('hex');
const hmac = (key, data) => crypto.createHmac('sha256', key).update(data).digest();

/**
 * The headers of one signed DynamoDB request: SigV4 over host, content-type, x-amz-date and
 * x-amz-target, with the body's SHA-256 as the payload hash. `keys` caches the derived signing
 * key per date (what an SDK may also do: the key depends only on secret, date, region, service).
 */
function signedHeaders({ host, target, body, credentials, region = REGION, now = new Date(), keys = new Map() }) {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const date = amzDate.slice(0, 8);
  const scope = `${date}/${region}/dynamodb/aws4_request`;
  const contentType = 'application/x-amz-json-1.0';
  const canonicalHeaders = `content-type:${contentType}\nhost:${host}\nx-amz-date:${amzDate}\nx-amz-target:${target}\n`;
  const names = 'content-type;host;x-amz-date;x-amz-target';
  const canonicalRequest = `POST\n/\n\n${canonicalHeaders}\n${names}\n${sha256Hex(body)}`;
  const stringToSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${sha256Hex(canonicalRequest)}`;
  const cacheKey = `${credentials.secretAccessKey}\n${scope}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, date), region), 'dynamodb'), 'aws4_request');
    keys.clear();
    keys.set(cacheKey, key);
  }
  const signature = crypto.createHmac('sha256', key).update(stringToSign).digest('hex');
  return {
    host,
    'content-type': contentType,
    'content-length': String(body.length),
    'x-amz-date': amzDate,
    'x-amz-target': target,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${names}, Signature=${signature}`,
  };
}

/** One lean client: one keep-alive connection, requests signed one by one. */
function leanClient(url, credentials = { accessKeyId: 'local', secretAccessKey: 'local' }) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const keys = new Map();
  /** Sends one operation; resolves to { status, body } (body parsed as JSON). */
  const call = (operation, input) =>
    new Promise((resolve, reject) => {
      const body = Buffer.from(JSON.stringify(input));
      const headers = signedHeaders({ host: target.host, target: `DynamoDB_20120810.${operation}`, body, credentials, keys });
      const request = http.request({ agent, hostname: target.hostname, port: target.port, method: 'POST', path: '/', headers }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed;
          try {
            parsed = text === '' ? {} : JSON.parse(text);
          } catch {
            parsed = { unparsable: text };
          }
          resolve({ status: response.statusCode, body: parsed });
        });
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(body);
    });
  return { call, destroy: () => agent.destroy() };
}

const item = (i) => ({ id: { S: `item-${i}` }, n: { N: String(i) }, payload: { S: 'x'.repeat(100) } });

const createTableInput = {
  TableName: TABLE,
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
};

/** put(i), get(i), create() for one connection of the given mode; each throws on a wrong answer. */
function operations(mode, url, check) {
  if (mode === 'lean') {
    const client = leanClient(url);
    const ok = async (operation, input) => {
      const { status, body } = await client.call(operation, input);
      if (status !== 200) throw new Error(`${operation} answered ${status}: ${JSON.stringify(body)}`);
      return body;
    };
    return {
      create: () => ok('CreateTable', createTableInput),
      put: (i) => ok('PutItem', { TableName: TABLE, Item: item(i) }),
      get: async (i) => {
        const body = await ok('GetItem', { TableName: TABLE, Key: { id: { S: `item-${i}` } } });
        if (check && body.Item?.n?.N !== String(i)) throw new Error(`GetItem item-${i} returned ${JSON.stringify(body)}`);
      },
      destroy: () => client.destroy(),
    };
  }
  const { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } = require(require.resolve('@aws-sdk/client-dynamodb', { paths: [REPO] }));
  const client = new DynamoDBClient({ endpoint: url, region: REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  return {
    create: () => client.send(new CreateTableCommand(createTableInput)),
    put: (i) => client.send(new PutItemCommand({ TableName: TABLE, Item: item(i) })),
    get: async (i) => {
      const { Item } = await client.send(new GetItemCommand({ TableName: TABLE, Key: { id: { S: `item-${i}` } } }));
      if (check && Item?.n?.N !== String(i)) throw new Error(`GetItem item-${i} returned ${JSON.stringify(Item)}`);
    },
    destroy: () => client.destroy(),
  };
}

/** Runs one phase over this worker's share of the items (i ≡ worker mod workers), `connections` at a time. */
async function runPhase(connections, phase, { items, worker, workers }) {
  const latencies = [];
  let next = worker;
  const started = process.hrtime.bigint();
  await Promise.all(
    connections.map(async (connection) => {
      for (let i = next; i < items; i = next) {
        next += workers;
        const start = process.hrtime.bigint();
        await connection[phase](i);
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }),
  );
  return { latencies, started: String(started), ended: String(process.hrtime.bigint()) };
}

function worker() {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  let setup;
  let connections;
  process.on('message', async (message) => {
    try {
      if (message.setup) {
        setup = message.setup;
        connections = Array.from({ length: setup.connections }, () => operations(setup.mode, setup.url, setup.check));
        process.send({ ready: true });
        return;
      }
      if (message.phase === 'create') {
        await connections[0].create();
        process.send({ done: true });
      } else if (message.phase === 'warmup') {
        // Connections opened, code paths compiled: 200 puts per connection, not measured.
        await Promise.all(connections.map(async (connection, index) => { for (let i = 0; i < 200; i++) await connection.put(setup.items + index * 200 + i); }));
        process.send({ done: true });
      } else if (message.phase === 'exit') {
        for (const connection of connections) connection.destroy();
        process.exit(0);
      } else {
        process.send({ result: await runPhase(connections, message.phase, setup) });
      }
    } catch (error) {
      process.send({ error: `${setup?.mode} client: ${error.message}` });
    }
  });
}

if (require.main === module) worker();

module.exports = { signedHeaders, leanClient };
