import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  AddTagsToResourceCommand,
  DeleteParameterCommand,
  GetParameterCommand,
  GetParameterHistoryCommand,
  GetParametersCommand,
  LabelParameterVersionCommand,
  ListTagsForResourceCommand,
  PutParameterCommand,
  RemoveTagsFromResourceCommand,
  SSMClient,
  UnlabelParameterVersionCommand,
} from '@aws-sdk/client-ssm';
import { failure, startTestCloud, type TestCloud } from './helpers';

const labels = suite<{ t: TestCloud; ssm: SSMClient }>('local SSM parameter labels and tags');
labels.before(async (context) => {
  context.t = await startTestCloud();
  context.ssm = new SSMClient({ ...context.t.config, maxAttempts: 1 });
});
labels.after(async (context) => {
  context.ssm.destroy();
  await context.t.stop();
});

labels('LabelParameterVersion labels a version, moves a label, and GetParameter reads name:label and name:version after a restart', async (context) => {
  const { ssm } = context;
  await ssm.send(new PutParameterCommand({ Name: '/app/flag', Value: 'one', Type: 'String' }));
  await ssm.send(new PutParameterCommand({ Name: '/app/flag', Value: 'two', Overwrite: true }));
  await ssm.send(new PutParameterCommand({ Name: '/app/flag', Value: 'three', Overwrite: true }));

  const latest = await ssm.send(new LabelParameterVersionCommand({ Name: '/app/flag', Labels: ['current', '1bad', 'awsy', 'has space'] }));
  assert.equal([latest.ParameterVersion, latest.InvalidLabels], [3, ['1bad', 'awsy', 'has space']]);
  await ssm.send(new LabelParameterVersionCommand({ Name: '/app/flag', ParameterVersion: 1, Labels: ['stable', 'Prod_1.x-y'] }));
  await ssm.send(new LabelParameterVersionCommand({ Name: '/app/flag', ParameterVersion: 2, Labels: ['stable'] }));

  const history = await ssm.send(new GetParameterHistoryCommand({ Name: '/app/flag' }));
  assert.equal(history.Parameters!.map((p) => [p.Version, p.Labels]), [[1, ['Prod_1.x-y']], [2, ['stable']], [3, ['current']]]);

  const byLabel = await ssm.send(new GetParameterCommand({ Name: '/app/flag:stable' }));
  assert.equal([byLabel.Parameter!.Name, byLabel.Parameter!.Value, byLabel.Parameter!.Version, byLabel.Parameter!.Selector], ['/app/flag', 'two', 2, ':stable']);
  const byVersion = await ssm.send(new GetParameterCommand({ Name: '/app/flag:1' }));
  assert.equal([byVersion.Parameter!.Value, byVersion.Parameter!.Selector], ['one', ':1']);
  const plain = await ssm.send(new GetParameterCommand({ Name: '/app/flag' }));
  assert.equal([plain.Parameter!.Value, plain.Parameter!.Selector], ['three', undefined]);

  const several = await ssm.send(new GetParametersCommand({ Names: ['/app/flag:current', '/app/flag:gone', '/app/flag:9'] }));
  assert.equal(several.Parameters!.map((p) => [p.Value, p.Selector]), [['three', ':current']]);
  assert.equal(several.InvalidParameters, ['/app/flag:gone', '/app/flag:9']);
  assert.is((await failure(ssm.send(new GetParameterCommand({ Name: '/app/flag:gone' }))))?.name, 'ParameterNotFound');

  await context.t.stop({ keepData: true });
  ssm.destroy();
  context.t = await startTestCloud(context.t.dataDir);
  context.ssm = new SSMClient({ ...context.t.config, maxAttempts: 1 });
  const again = await context.ssm.send(new GetParameterCommand({ Name: '/app/flag:stable' }));
  assert.is(again.Parameter!.Value, 'two');
});

labels('UnlabelParameterVersion removes the labels the version has and lists the others as invalid', async ({ ssm }) => {
  await ssm.send(new PutParameterCommand({ Name: 'unlabel-me', Value: 'a', Type: 'String' }));
  await ssm.send(new LabelParameterVersionCommand({ Name: 'unlabel-me', Labels: ['blue', 'green'] }));
  const result = await ssm.send(new UnlabelParameterVersionCommand({ Name: 'unlabel-me', ParameterVersion: 1, Labels: ['blue', 'red'] }));
  assert.equal([result.RemovedLabels, result.InvalidLabels], [['blue'], ['red']]);
  const history = await ssm.send(new GetParameterHistoryCommand({ Name: 'unlabel-me' }));
  assert.equal(history.Parameters![0].Labels, ['green']);
});

labels('label calls refuse missing parameters and versions, more than 10 labels per version, and an empty list', async ({ ssm }) => {
  await ssm.send(new PutParameterCommand({ Name: 'limits', Value: 'a', Type: 'String' }));
  const missing = await failure(ssm.send(new LabelParameterVersionCommand({ Name: 'nowhere', Labels: ['x'] })));
  assert.is(missing?.name, 'ParameterNotFound');
  const version = await failure(ssm.send(new LabelParameterVersionCommand({ Name: 'limits', ParameterVersion: 4, Labels: ['x'] })));
  assert.equal([version?.name, version?.message], ['ParameterVersionNotFound', 'Systems Manager could not find version 4 of limits. Verify the version and try again.']);
  const unlabelVersion = await failure(ssm.send(new UnlabelParameterVersionCommand({ Name: 'limits', ParameterVersion: 2, Labels: ['x'] })));
  assert.is(unlabelVersion?.name, 'ParameterVersionNotFound');
  await ssm.send(new LabelParameterVersionCommand({ Name: 'limits', Labels: Array.from({ length: 10 }, (_, i) => `l${i}`) }));
  const eleventh = await failure(ssm.send(new LabelParameterVersionCommand({ Name: 'limits', Labels: ['l10'] })));
  assert.is(eleventh?.name, 'ParameterVersionLabelLimitExceeded');
  const empty = await failure(ssm.send(new LabelParameterVersionCommand({ Name: 'limits', Labels: [] })));
  assert.equal([empty?.name, empty?.message], ['ValidationException', "1 validation error detected: Value '[]' at 'labels' failed to satisfy constraint: Member must have length greater than or equal to 1"]);
});

labels('AddTagsToResource, ListTagsForResource and RemoveTagsFromResource tag a parameter; PutParameter Tags too; deleting forgets them', async ({ ssm }) => {
  await ssm.send(new PutParameterCommand({ Name: '/tagged/p', Value: 'v', Type: 'String', Tags: [{ Key: 'team', Value: 'core' }] }));
  await ssm.send(new AddTagsToResourceCommand({ ResourceType: 'Parameter', ResourceId: '/tagged/p', Tags: [{ Key: 'env', Value: 'dev' }, { Key: 'team', Value: 'platform' }] }));
  const listed = await ssm.send(new ListTagsForResourceCommand({ ResourceType: 'Parameter', ResourceId: '/tagged/p' }));
  assert.equal(listed.TagList, [{ Key: 'team', Value: 'platform' }, { Key: 'env', Value: 'dev' }]);
  await ssm.send(new RemoveTagsFromResourceCommand({ ResourceType: 'Parameter', ResourceId: '/tagged/p', TagKeys: ['team'] }));
  assert.equal((await ssm.send(new ListTagsForResourceCommand({ ResourceType: 'Parameter', ResourceId: '/tagged/p' }))).TagList, [{ Key: 'env', Value: 'dev' }]);

  const overwrite = await failure(ssm.send(new PutParameterCommand({ Name: '/tagged/p', Value: 'w', Overwrite: true, Tags: [{ Key: 'a', Value: 'b' }] })));
  assert.is(overwrite?.name, 'ValidationException');
  const unknown = await failure(ssm.send(new ListTagsForResourceCommand({ ResourceType: 'Parameter', ResourceId: '/tagged/none' })));
  assert.is(unknown?.name, 'InvalidResourceId');
  const tooMany = await failure(ssm.send(new AddTagsToResourceCommand({ ResourceType: 'Parameter', ResourceId: '/tagged/p', Tags: Array.from({ length: 50 }, (_, i) => ({ Key: `k${i}`, Value: 'v' })) })));
  assert.is(tooMany?.name, 'TooManyTagsError');

  await ssm.send(new DeleteParameterCommand({ Name: '/tagged/p' }));
  await ssm.send(new PutParameterCommand({ Name: '/tagged/p', Value: 'again', Type: 'String' }));
  assert.equal((await ssm.send(new ListTagsForResourceCommand({ ResourceType: 'Parameter', ResourceId: '/tagged/p' }))).TagList, []);
});

labels.run();
