import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppendLog } from '../../src/local/dynamodb/item-log';
import { TableStore } from '../../src/local/dynamodb/tables';

const log = suite<{ dir: string }>('DynamoDB items.log held open');

log.before.each((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'fw-item-log-'));
});
log.after.each(({ dir }) => rmSync(dir, { recursive: true, force: true }));

log('appends are in the file as soon as append returns, in order, the file private to the user', ({ dir }) => {
  const file = join(dir, 'dynamodb', 'items.log');
  const appender = new AppendLog(file);
  appender.append('one\n');
  assert.is(readFileSync(file, 'utf8'), 'one\n');
  appender.append('two\n');
  assert.is(readFileSync(file, 'utf8'), 'one\ntwo\n');
  assert.is(statSync(file).mode & 0o777, 0o600);
  appender.close();
});

log('after reopen() the appends go to the file that replaced the old one', ({ dir }) => {
  const file = join(dir, 'items.log');
  const appender = new AppendLog(file);
  appender.append('old\n');
  writeFileSync(join(dir, 'compacted'), 'compacted\n');
  renameSync(join(dir, 'compacted'), file);
  appender.reopen();
  appender.append('new\n');
  assert.is(readFileSync(file, 'utf8'), 'compacted\nnew\n');
  appender.close();
});

log('a log removed with its folder while open is made anew by the next append', ({ dir }) => {
  const file = join(dir, 'dynamodb', 'items.log');
  const appender = new AppendLog(file);
  appender.append('lost\n');
  rmSync(join(dir, 'dynamodb'), { recursive: true });
  appender.append('kept\n');
  assert.is(readFileSync(file, 'utf8'), 'kept\n');
  appender.close();
});

log('a table store writes every item to the log before write() returns, and compaction keeps appending to the new file', ({ dir }) => {
  const store = new TableStore(dir);
  const table = store.create({ TableName: 't', KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], BillingMode: 'PAY_PER_REQUEST' }, 'us-east-1', '000000000000');
  const id = table.definition.TableId;
  // 1,200 overwrites of one item: past 1,000 lines and 4x the items, the log is compacted to one line.
  for (let i = 0; i < 1200; i++) store.write([[id, 'put', { id: { S: 'a' }, n: { N: String(i) } }]]);
  const lines = readFileSync(join(dir, 'dynamodb', 'items.log'), 'utf8').trim().split('\n');
  assert.ok(lines.length < 1200, `compacted: ${lines.length} lines`);
  assert.equal(JSON.parse(lines[lines.length - 1]), [[id, 'put', { id: { S: 'a' }, n: { N: '1199' } }]]);
  store.close();
  const reloaded = new TableStore(dir);
  assert.equal(reloaded.get('t')!.get({ id: { S: 'a' } }), { id: { S: 'a' }, n: { N: '1199' } });
  reloaded.close();
});

log.run();
