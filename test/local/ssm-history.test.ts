import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DeleteParametersCommand, GetParameterCommand, GetParameterHistoryCommand, PutParameterCommand, SSMClient, type ParameterHistory } from '@aws-sdk/client-ssm';
import { failure, startTestCloud, type TestCloud } from './helpers';

const history = suite<{ t: TestCloud; ssm: SSMClient }>('local SSM parameter history and DeleteParameters');
history.before(async (context) => {
  context.t = await startTestCloud();
  context.ssm = new SSMClient({ ...context.t.config, maxAttempts: 1 });
});
history.after(async (context) => {
  context.ssm.destroy();
  await context.t.stop();
});

const summary = (parameters: ParameterHistory[] = []) => parameters.map((p) => [p.Version, p.Type, p.Value]);

history('GetParameterHistory returns every version with its value and type, page by page, and survives a restart', async (context) => {
  const { ssm } = context;
  const before = Date.now() / 1000 - 1;
  await ssm.send(new PutParameterCommand({ Name: '/app/mode', Value: 'one', Type: 'String' }));
  await ssm.send(new PutParameterCommand({ Name: '/app/mode', Value: 'two', Overwrite: true }));
  await ssm.send(new PutParameterCommand({ Name: '/app/mode', Value: 'secret', Type: 'SecureString', Overwrite: true }));
  const all = await ssm.send(new GetParameterHistoryCommand({ Name: '/app/mode', WithDecryption: true }));
  assert.equal(summary(all.Parameters), [
    [1, 'String', 'one'],
    [2, 'String', 'two'],
    [3, 'SecureString', 'secret'],
  ]);
  assert.is(all.NextToken, undefined);
  for (const p of all.Parameters!) {
    assert.is(p.Name, '/app/mode');
    assert.ok(p.LastModifiedDate!.getTime() / 1000 >= before);
  }
  const hidden = await ssm.send(new GetParameterHistoryCommand({ Name: '/app/mode' }));
  assert.is.not(hidden.Parameters![2].Value, 'secret');

  const first = await ssm.send(new GetParameterHistoryCommand({ Name: '/app/mode', MaxResults: 2 }));
  assert.equal(summary(first.Parameters).map(([version]) => version), [1, 2]);
  assert.type(first.NextToken, 'string');
  const second = await ssm.send(new GetParameterHistoryCommand({ Name: '/app/mode', MaxResults: 2, NextToken: first.NextToken, WithDecryption: true }));
  assert.equal(summary(second.Parameters), [[3, 'SecureString', 'secret']]);
  assert.is(second.NextToken, undefined);

  await context.t.stop({ keepData: true });
  ssm.destroy();
  context.t = await startTestCloud(context.t.dataDir);
  context.ssm = new SSMClient({ ...context.t.config, maxAttempts: 1 });
  const again = await context.ssm.send(new GetParameterHistoryCommand({ Name: '/app/mode', WithDecryption: true }));
  assert.equal(summary(again.Parameters), summary(all.Parameters));
});

history('GetParameterHistory refuses unknown parameters, bad tokens and page sizes', async ({ ssm }) => {
  await ssm.send(new PutParameterCommand({ Name: 'plain', Value: 'v', Type: 'String' }));
  const missing = await failure(ssm.send(new GetParameterHistoryCommand({ Name: 'nowhere' })));
  assert.is(missing?.name, 'ParameterNotFound');
  const token = await failure(ssm.send(new GetParameterHistoryCommand({ Name: 'plain', NextToken: 'garbage' })));
  assert.equal([token?.name, token?.message], ['InvalidNextToken', 'The specified token is not valid.']);
  const size = await failure(ssm.send(new GetParameterHistoryCommand({ Name: 'plain', MaxResults: 51 })));
  assert.equal([size?.name, size?.message], ['ValidationException', "1 validation error detected: Value '51' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 50"]);
});

history('DeleteParameters deletes the names that exist (and their history) and lists the others', async ({ ssm }) => {
  await ssm.send(new PutParameterCommand({ Name: '/d/a', Value: '1', Type: 'String' }));
  await ssm.send(new PutParameterCommand({ Name: '/d/a', Value: '2', Overwrite: true }));
  await ssm.send(new PutParameterCommand({ Name: '/d/b', Value: '1', Type: 'String' }));
  const result = await ssm.send(new DeleteParametersCommand({ Names: ['/d/a', '/d/missing', '/d/b'] }));
  assert.equal([result.DeletedParameters, result.InvalidParameters], [['/d/a', '/d/b'], ['/d/missing']]);
  assert.is((await failure(ssm.send(new GetParameterCommand({ Name: '/d/a' }))))?.name, 'ParameterNotFound');

  await ssm.send(new PutParameterCommand({ Name: '/d/a', Value: 'fresh', Type: 'String' }));
  const fresh = await ssm.send(new GetParameterHistoryCommand({ Name: '/d/a' }));
  assert.equal(summary(fresh.Parameters), [[1, 'String', 'fresh']]);

  const names = Array.from({ length: 11 }, (_, i) => `n${i}`);
  const tooMany = await failure(ssm.send(new DeleteParametersCommand({ Names: names })));
  assert.equal([tooMany?.name, tooMany?.message], ['ValidationException', `1 validation error detected: Value '[${names.join(', ')}]' at 'names' failed to satisfy constraint: Member must have length less than or equal to 10`]);
});

history.run();
