import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LogStore } from '../../src/local/logs/store';

const store = suite<{ dataDir: string }>('the CloudWatch Logs store: a snapshot and a journal of the lines appended since');

store.before.each((context) => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-log-store-'));
});

store.after.each((context) => {
  rmSync(context.dataDir, { recursive: true, force: true });
});

const messages = (logs: LogStore, group: string) => logs.events(group).map((event) => `${event.logStreamName} ${event.message} #${event.sequence}`);

store('lines appended after the snapshot go to the journal alone, and a restart reads both', ({ dataDir }) => {
  const logs = new LogStore(dataDir);
  logs.append('/aws/lambda/hello', 'a', ['START', 'END']);
  logs.flush();
  const snapshot = readFileSync(join(dataDir, 'state', 'logs.json'), 'utf8');
  logs.append('/aws/lambda/hello', 'a', ['REPORT']);
  logs.append('/aws/lambda/hello', 'b', ['START']);
  logs.flush();
  assert.is(readFileSync(join(dataDir, 'state', 'logs.json'), 'utf8'), snapshot, 'the snapshot was not rewritten');
  assert.equal(readFileSync(join(dataDir, 'state', 'logs.jsonl'), 'utf8').trim().split('\n').length, 2);
  const reread = new LogStore(dataDir);
  assert.equal(messages(reread, '/aws/lambda/hello'), messages(logs, '/aws/lambda/hello'));
  assert.equal(messages(reread, '/aws/lambda/hello'), ['a START #0', 'a END #1', 'a REPORT #2', 'b START #3']);
  // Sequences go on after those read: event ids stay unique.
  reread.append('/aws/lambda/hello', 'a', ['again']);
  assert.equal(messages(reread, '/aws/lambda/hello').at(-1), 'a again #4');
});

store('a stream made empty (a function environment starting) is a journal line, kept by a restart', ({ dataDir }) => {
  const logs = new LogStore(dataDir);
  logs.append('/aws/lambda/hello', 'first', ['START']);
  logs.flush();
  const snapshot = readFileSync(join(dataDir, 'state', 'logs.json'), 'utf8');
  logs.append('/aws/lambda/hello', 'second', []);
  logs.flush();
  assert.is(readFileSync(join(dataDir, 'state', 'logs.json'), 'utf8'), snapshot, 'the snapshot was not rewritten');
  const reread = new LogStore(dataDir);
  assert.equal(reread.streams('/aws/lambda/hello').map((stream) => stream.name), ['first', 'second']);
  assert.equal(messages(reread, '/aws/lambda/hello'), ['first START #0']);
});

store('a deleted group stays deleted: the next snapshot replaces the journal that held its lines', ({ dataDir }) => {
  const logs = new LogStore(dataDir);
  logs.append('gone', 's', ['one']);
  logs.append('kept', 's', ['two']);
  logs.flush();
  logs.append('gone', 's', ['three']);
  logs.flush();
  logs.deleteGroup('gone');
  logs.flush();
  assert.is(existsSync(join(dataDir, 'state', 'logs.jsonl')), false);
  const reread = new LogStore(dataDir);
  assert.equal([reread.groupNames(), messages(reread, 'kept')], [['kept'], ['s two #1']]);
});

store('a snapshot cut short before it replaced the old one leaves the old snapshot and its journal', ({ dataDir }) => {
  const logs = new LogStore(dataDir);
  logs.append('app', 's', ['one']);
  logs.flush();
  logs.append('app', 's', ['two']);
  logs.flush();
  // What a crash leaves between the journal set aside and the new snapshot put in place.
  writeFileSync(join(dataDir, 'state', 'logs.json.next'), '{}');
  renameSync(join(dataDir, 'state', 'logs.jsonl'), join(dataDir, 'state', 'logs.jsonl.replayed'));
  const reread = new LogStore(dataDir);
  assert.equal(messages(reread, 'app'), ['s one #0', 's two #1']);
  assert.equal([existsSync(join(dataDir, 'state', 'logs.json.next')), existsSync(join(dataDir, 'state', 'logs.jsonl.replayed'))], [false, false]);
});

store('a journal set aside after its snapshot was replaced is not read again', ({ dataDir }) => {
  const logs = new LogStore(dataDir);
  logs.append('app', 's', ['one']);
  logs.flush();
  logs.append('app', 's', ['two']);
  logs.flush();
  logs.deleteGroup('app');
  logs.append('other', 's', ['three']);
  logs.flush();
  // A crash after the new snapshot was put in place, before the old journal was removed.
  writeFileSync(join(dataDir, 'state', 'logs.jsonl.replayed'), `${JSON.stringify([1, 'app', 's', Date.now(), 'two'])}\n`);
  const reread = new LogStore(dataDir);
  assert.equal(reread.groupNames(), ['other']);
});

store('a torn last line of the journal (a crash mid-write) is skipped, the lines before it kept', ({ dataDir }) => {
  const logs = new LogStore(dataDir);
  logs.append('app', 's', ['one']);
  logs.flush();
  logs.append('app', 's', ['two']);
  logs.flush();
  writeFileSync(join(dataDir, 'state', 'logs.jsonl'), `${readFileSync(join(dataDir, 'state', 'logs.jsonl'), 'utf8')}[2,"app","s",17`);
  assert.equal(messages(new LogStore(dataDir), 'app'), ['s one #0', 's two #1']);
});

store('a stream keeps its newest 10,000 events, dropping the oldest a thousand at a time', ({ dataDir }) => {
  const logs = new LogStore(dataDir);
  for (let line = 0; line < 11_000; line++) logs.append('/aws/lambda/busy', 'a', [`line ${line}`]);
  assert.is(logs.events('/aws/lambda/busy').length, 11_000);
  logs.append('/aws/lambda/busy', 'a', ['line 11000']);
  const kept = logs.events('/aws/lambda/busy').map((event) => event.message);
  assert.equal([kept.length, kept[0], kept.at(-1)], [10_000, 'line 1001', 'line 11000']);
  logs.flush();
});

store('a group keeps its newest 50,000 events across its streams (an environment each), the oldest dropped first, the same after a restart', ({ dataDir }) => {
  const logs = new LogStore(dataDir);
  // A burst: 55 environments' streams, 1,000 lines each, the streams written one after the other.
  for (let stream = 0; stream < 55; stream++) for (let line = 0; line < 1_000; line++) logs.append('/aws/lambda/burst', `s${stream}`, [`${stream}.${line}`]);
  logs.append('/aws/lambda/quiet', 'q', ['kept']);
  assert.is(logs.events('/aws/lambda/burst').length, 55_000, 'dropped a tenth at a time');
  logs.append('/aws/lambda/burst', 's55', ['55.0']);
  const kept = logs.events('/aws/lambda/burst').map((event) => event.message);
  assert.equal([kept.length, kept[0], kept.at(-1)], [50_000, '5.1', '55.0']);
  assert.equal(logs.streams('/aws/lambda/burst').length, 56, 'the emptied streams stay, as streams do once their events expire');
  assert.equal(logs.events('/aws/lambda/quiet').map((event) => event.message), ['kept']);
  logs.flush();
  const reread = new LogStore(dataDir).events('/aws/lambda/burst').map((event) => event.message);
  assert.equal([reread.length, reread[0], reread.at(-1)], [50_000, '5.1', '55.0']);
});

store.run();
