import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = join(__dirname, '..', '..', '..');
// scripts/docs.js writes the reference pages from the built code; this checks the committed ones equal them.
const { generatedPages } = require(join(ROOT, 'scripts', 'docs.js')) as { generatedPages(): Record<string, string> };

const generated = suite('docs/reference: the pages generated from the code are current');

const started = Date.now();
const pages = generatedPages();
const took = Date.now() - started;

generated('the generator writes the five reference pages, quickly', () => {
  assert.equal(Object.keys(pages), [
    'docs/reference/cli.md', 'docs/reference/configuration.md', 'docs/reference/events.md', 'docs/reference/compatibility.md', 'docs/reference/local-cloud-coverage.md',
  ]);
  assert.ok(took < 5000, `${took} ms`);
});

for (const [file, content] of Object.entries(pages)) {
  generated(`${file} is what the code says`, () => {
    const committed = readFileSync(join(ROOT, file), 'utf8');
    if (committed !== content) assert.unreachable(`${file} is stale: run \`npm run build && npm run docs\` and commit it`);
  });
}

generated('the generator is deterministic', () => {
  assert.equal(generatedPages(), pages);
});

generated('the command reference has a section per command with its options and examples', () => {
  const cli = pages['docs/reference/cli.md'];
  assert.ok(cli.includes('\n### fw deploy function\n\nUpdate one deployed function\'s code and configuration directly, without a stack update\n'), cli.slice(0, 500));
  assert.ok(cli.includes('| `--function,-f <function>` (required) |'));
  assert.ok(cli.includes('```sh cli-reference\nfw deploy --local\n```'));
});

generated('the coverage reference lists the types the local cloud acts on and the operations it answers', () => {
  const coverage = pages['docs/reference/local-cloud-coverage.md'];
  assert.ok(coverage.includes('\n| `AWS::Lambda::Function` | 5 |\n'));
  assert.match(coverage, /\n\| SQS \| AddPermission, CancelMessageMoveTask, ChangeMessageVisibility, ChangeMessageVisibilityBatch, CreateQueue, .*SendMessage, SendMessageBatch, SetQueueAttributes, StartMessageMoveTask, TagQueue, UntagQueue \|\n/);
  assert.match(coverage, /\n\| DynamoDB \| .*DeleteItem, .*PutItem, .*UpdateItem, UpdateTable, UpdateTimeToLive \|\n/);
});

generated.run();
