import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The DynamoDB bench's lean client (scripts/bench/dynamodb-client.js) signs every request itself:
 * `fw local start --require-credentials` must accept those signatures, or the bench would be timing
 * refusals. A wrong secret is refused, so the check cannot pass by not checking.
 */
const ROOT = join(__dirname, '..', '..', '..');

interface Lean {
  call(operation: string, input: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  destroy(): void;
}
const { leanClient } = require(join(ROOT, 'scripts', 'bench', 'dynamodb-client.js')) as { leanClient: (url: string, credentials: { accessKeyId: string; secretAccessKey: string }) => Lean };

const lean = suite<{ dir: string; child: ChildProcess; url: string }>('DynamoDB bench lean client against fw local start --require-credentials');

lean.before(async (context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'fw-lean-client-'));
  context.child = spawn(process.execPath, [join(ROOT, 'bin', 'fw.js'), 'local', 'start', '--port', '0', '--data', context.dir, '--require-credentials', 'BENCHKEY:bench-secret'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let output = '';
  context.url = await new Promise<string>((resolve, reject) => {
    context.child.stdout!.on('data', (chunk) => {
      output += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve(url);
    });
    context.child.stderr!.on('data', (chunk) => (output += chunk));
    context.child.once('exit', (code) => reject(new Error(`fw local start exited ${code}: ${output}`)));
  });
});

lean.after(async ({ child, dir }) => {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  rmSync(dir, { recursive: true, force: true });
});

lean('its signed CreateTable, PutItem and GetItem are accepted, and GetItem returns the item put', async ({ url }) => {
  const client = leanClient(url, { accessKeyId: 'BENCHKEY', secretAccessKey: 'bench-secret' });
  try {
    const created = await client.call('CreateTable', {
      TableName: 'bench',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    });
    assert.is(created.status, 200, JSON.stringify(created.body));
    const item = { id: { S: 'item-1' }, n: { N: '1' }, payload: { S: 'x'.repeat(100) } };
    // Several requests on the one keep-alive connection, each signed anew.
    for (let i = 0; i < 3; i++) assert.equal(await client.call('PutItem', { TableName: 'bench', Item: item }), { status: 200, body: {} });
    assert.equal(await client.call('GetItem', { TableName: 'bench', Key: { id: { S: 'item-1' } } }), { status: 200, body: { Item: item } });
  } finally {
    client.destroy();
  }
});

const MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

lean('the same requests signed with a wrong secret are refused', async ({ url }) => {
  const client = leanClient(url, { accessKeyId: 'BENCHKEY', secretAccessKey: 'not-the-secret' });
  try {
    assert.equal(await client.call('GetItem', { TableName: 'bench', Key: { id: { S: 'item-1' } } }), {
      status: 403,
      body: {
        __type: 'InvalidSignatureException',
        message: MISMATCH,
        Message: MISMATCH,
      },
    });
  } finally {
    client.destroy();
  }
});

lean.run();
