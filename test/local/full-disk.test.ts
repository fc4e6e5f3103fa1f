import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local/index';
import { credentials, failure } from './helpers';

/**
 * A full disk, honestly: a 4 MiB tmpfs mounted as the data folder and filled up (the machines this
 * project runs on are root). Where mounting is refused, the same ENOSPC is raised by the file system
 * calls the local cloud writes with, from the moment the disk is declared full: said on the output
 * (FW_NO_TMPFS=1 takes that path as root too).
 */
interface Disk {
  dir: string;
  fill(): void;
  free(): void;
  release(): void;
}

function tmpfsDisk(): Disk | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'fw-full-disk-'));
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'ignore' }).status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill() {
      // Every free block taken, as a disk filled by something else would be.
      const { bavail, bsize } = statfsSync(dir);
      try {
        writeFileSync(filler, Buffer.alloc(bavail * bsize));
      } catch {
        // ENOSPC on the last blocks: full is what was wanted.
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    release() {
      spawnSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function injectedDisk(): Disk {
  const dir = mkdtempSync(join(tmpdir(), 'fw-full-disk-'));
  // The module object itself (what the local cloud's compiled calls read each time), not an import namespace.
  const mutable = require('node:fs') as Record<string, (...args: unknown[]) => unknown>;
  const originals = Object.fromEntries(['writeFileSync', 'appendFileSync', 'writeSync'].map((name) => [name, mutable[name]]));
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  return {
    dir,
    fill() {
      for (const name of Object.keys(originals)) {
        mutable[name] = () => {
          throw enospc();
        };
      }
    },
    free() {
      Object.assign(mutable, originals);
    },
    release() {
      Object.assign(mutable, originals);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const full = suite<{ disk: Disk; cloud?: RunningLocalCloud; lines: string[] }>('a full disk fails writes with AWS\'s error and does not stop the local cloud from starting');

full.before((context) => {
  const disk = process.env.FW_NO_TMPFS ? undefined : tmpfsDisk();
  if (!disk) console.log('  mounting a tmpfs was refused (not root): the full disk is simulated by ENOSPC from the file system calls');
  context.disk = disk ?? injectedDisk();
  context.lines = [];
});
full.after(async (context) => {
  await context.cloud?.stop();
  context.disk.release();
});

async function start(context: { disk: Disk; lines: string[] }): Promise<RunningLocalCloud> {
  // Not quiet: what the local cloud logs, from its start on, is part of what is checked.
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = String(chunk);
    // The local cloud writes its lines in batches, one write per turn of the event loop.
    if (text.startsWith('[fw local]')) {
      context.lines.push(...text.trimEnd().split('\n'));
      return true;
    }
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  const cloud = await startLocalCloud({ port: 0, dataDir: context.disk.dir });
  const stop = cloud.stop.bind(cloud);
  cloud.stop = async () => {
    await stop();
    process.stderr.write = write;
  };
  return cloud;
}

const clients = (cloud: RunningLocalCloud) => {
  const config = { endpoint: cloud.url, region: 'us-east-1', credentials, maxAttempts: 1 };
  return { dynamodb: new DynamoDBClient(config), s3: new S3Client({ ...config, forcePathStyle: true }), sqs: new SQSClient(config) };
};

full('writes on a full disk answer 503 ServiceUnavailable with one log line; a restart on it works and keeps everything acknowledged', async (context) => {
  let cloud = (context.cloud = await start(context));
  let { dynamodb, s3, sqs } = clients(cloud);
  await dynamodb.send(new CreateTableCommand({ TableName: 'kept', AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], BillingMode: 'PAY_PER_REQUEST' }));
  // Enough writes that the item log is longer than its compaction, which a start rewrites.
  for (let i = 0; i < 30; i++) await dynamodb.send(new PutItemCommand({ TableName: 'kept', Item: { id: { S: 'a' }, n: { N: String(i) } } }));
  await s3.send(new CreateBucketCommand({ Bucket: 'kept-bucket' }));
  await s3.send(new PutObjectCommand({ Bucket: 'kept-bucket', Key: 'a.txt', Body: 'before' }));
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'kept-queue' }));
  await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'before' }));

  context.disk.fill();
  const refused = [
    await failure(dynamodb.send(new PutItemCommand({ TableName: 'kept', Item: { id: { S: 'b' }, blob: { S: 'x'.repeat(64 * 1024) } } }))),
    await failure(s3.send(new PutObjectCommand({ Bucket: 'kept-bucket', Key: 'b.txt', Body: Buffer.alloc(256 * 1024, 'b') }))),
    await failure(sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'y'.repeat(200 * 1024) }))),
  ];
  assert.equal(
    refused.map((error) => [error?.name, error?.$metadata?.httpStatusCode, /^The local cloud could not save this write: no space left on device \(/.test(error?.message ?? '')]),
    [
      ['ServiceUnavailable', 503, true],
      ['ServiceUnavailable', 503, true],
      ['ServiceUnavailable', 503, true],
    ],
  );
  assert.equal(
    context.lines.map((line) => line.replace(/\(.*\)$/, '(…)')),
    [
      '[fw local] dynamodb POST /: The local cloud could not save this write: no space left on device (…)',
      '[fw local] s3 PUT /kept-bucket/b.txt: The local cloud could not save this write: no space left on device (…)',
      '[fw local] sqs POST /: The local cloud could not save this write: no space left on device (…)',
    ],
  );
  // What was refused was not half-made: reads answer what was there before.
  assert.is((await dynamodb.send(new GetItemCommand({ TableName: 'kept', Key: { id: { S: 'b' } } }))).Item, undefined);
  assert.is((await failure(s3.send(new GetObjectCommand({ Bucket: 'kept-bucket', Key: 'b.txt' }))))!.name, 'NoSuchKey');

  await cloud.stop();
  context.lines.length = 0;
  cloud = context.cloud = await start(context);
  // The start skips only what saves space, and says so.
  assert.equal(
    context.lines.map((line) => line.replace(/\(.*\)$/, '(…)')),
    ['[fw local] DynamoDB log compaction skipped: no space left on device (…)', '[fw local] SQS journal compaction skipped: no space left on device (…)'],
  );
  ({ dynamodb, s3, sqs } = clients(cloud));
  assert.equal((await dynamodb.send(new GetItemCommand({ TableName: 'kept', Key: { id: { S: 'a' } } }))).Item, { id: { S: 'a' }, n: { N: '29' } });
  assert.is(await (await s3.send(new GetObjectCommand({ Bucket: 'kept-bucket', Key: 'a.txt' }))).Body!.transformToString(), 'before');
  const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
  assert.equal((received.Messages ?? []).map((message) => message.Body), ['before']);

  context.disk.free();
  await dynamodb.send(new PutItemCommand({ TableName: 'kept', Item: { id: { S: 'b' } } }));
  assert.equal((await dynamodb.send(new GetItemCommand({ TableName: 'kept', Key: { id: { S: 'b' } } }))).Item, { id: { S: 'b' } });
});

full.run();
