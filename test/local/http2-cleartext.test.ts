import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { connect as connectHttp2 } from 'node:http2';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { KinesisClient, ListStreamsCommand } from '@aws-sdk/client-kinesis';
import { startLocalCloud } from '../../src/local/index';
import { startTestCloud } from './helpers';

const http2 = suite('the local cloud answers HTTP/2 without TLS on its HTTP/1.1 port');

http2('an HTTP/2 client (prior knowledge) gets the same answers as an HTTP/1.1 one', async () => {
  const t = await startTestCloud();
  const session = connectHttp2(t.cloud.url);
  try {
    const answer = await new Promise<{ status: number; local: unknown; body: string }>((resolve, reject) => {
      const request = session.request({ ':method': 'GET', ':path': '/_fw/health' });
      let body = '';
      let status = 0;
      let local: unknown;
      request.on('response', (headers) => {
        status = Number(headers[':status']);
        local = headers['x-fw-local'];
      });
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => resolve({ status, local, body }));
      request.on('error', reject);
      request.end();
    });
    assert.equal(answer, { status: 200, local: '1', body: '{"status":"ok"}' });
  } finally {
    session.close();
    await t.stop();
  }
});

http2('a connection that never sends a byte does not hold up stopping the server', async () => {
  const t = await startTestCloud();
  const socket = connect(Number(new URL(t.cloud.url).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  const hung = new Promise((_, reject) => setTimeout(() => reject(new Error('stopping the server waited for the silent connection')), 5_000).unref());
  await Promise.race([t.stop().then(() => closed), hung]);
});

http2('an idle keep-alive connection is still open 6 s later, as AWS keeps one about a minute (an SDK client reuses it then)', async () => {
  const t = await startTestCloud();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
      const request = httpGet(`${t.cloud.url}/_fw/health`, { agent }, (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket }));
      });
      request.on('error', reject);
    });
  try {
    assert.equal(await get(), { status: 200, reused: false });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    assert.equal(await get(), { status: 200, reused: true });
  } finally {
    agent.destroy();
    await t.stop();
  }
});

http2('with --require-credentials, HTTP/2 signatures (which sign :authority) are verified', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fw-local-'));
  const cloud = await startLocalCloud({ port: 0, dataDir, quiet: true, credentials: { accessKeyId: 'AKIDH2', secretAccessKey: 'right' } });
  const list = async (secretAccessKey: string) => {
    const client = new KinesisClient({ endpoint: cloud.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIDH2', secretAccessKey }, maxAttempts: 1 });
    try {
      return (await client.send(new ListStreamsCommand({}))).StreamNames;
    } catch (error) {
      return (error as Error).name;
    } finally {
      client.destroy();
    }
  };
  try {
    assert.equal(await list('right'), []);
    assert.is(await list('wrong'), 'InvalidSignatureException');
  } finally {
    await cloud.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

http2.run();
