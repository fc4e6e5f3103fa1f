import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OperationJournal } from '../../src/local/cloudformation/journal';
import type { ResourceRecord, StackRecord } from '../../src/local/cloudformation/model';

const journal = suite<{ dataDir: string }>('the journal of a stack operation');

journal.before.each((context) => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-journal-'));
});

journal.after.each((context) => {
  rmSync(context.dataDir, { recursive: true, force: true });
});

const stack = { stackId: 'arn:aws:cloudformation:us-east-1:000000000000:stack/app/0f9c3c8e' } as StackRecord;
const record = (logicalId: string, physicalId: string): ResourceRecord => ({
  logicalId,
  type: 'AWS::S3::Bucket',
  physicalId,
  status: 'CREATE_COMPLETE',
  timestamp: '2026-01-01T00:00:00.000Z',
  properties: { BucketName: physicalId },
  attributes: {},
  emulated: true,
});

journal('reads back what an operation did, up to a line the crash cut off', ({ dataDir }) => {
  const written = new OperationJournal(dataDir);
  written.begin(stack, 'CREATE');
  written.append(stack, { kind: 'pending', logicalId: 'Files', type: 'AWS::S3::Bucket', properties: { BucketName: 'files' }, at: '2026-01-01T00:00:00.000Z' });
  written.append(stack, { kind: 'step', step: { kind: 'created', logicalId: 'Files' }, record: record('Files', 'files') });
  written.append(stack, { kind: 'pending', logicalId: 'Logs', type: 'AWS::S3::Bucket', properties: { BucketName: 'logs' }, at: '2026-01-01T00:00:01.000Z' });
  appendFileSync(join(dataDir, 'state', 'operations', '0f9c3c8e.jsonl'), '{"kind":"step","step":{"kind":"crea');

  assert.equal(new OperationJournal(dataDir).interrupted(), [
    {
      stackId: stack.stackId,
      action: 'CREATE',
      previous: undefined,
      steps: [{ kind: 'step', step: { kind: 'created', logicalId: 'Files' }, record: record('Files', 'files') }],
      pending: [{ kind: 'pending', logicalId: 'Logs', type: 'AWS::S3::Bucket', properties: { BucketName: 'logs' }, at: '2026-01-01T00:00:01.000Z' }],
    },
  ]);
});

journal('an operation that ended leaves no journal', ({ dataDir }) => {
  const written = new OperationJournal(dataDir);
  written.begin(stack, 'DELETE');
  written.end(stack);
  assert.equal(readdirSync(join(dataDir, 'state', 'operations')), []);
  assert.equal(written.interrupted(), []);
});

journal.run();
