import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateEventBusCommand, DeleteEventBusCommand, DescribeEventBusCommand, EventBridgeClient, PutPermissionCommand, RemovePermissionCommand, TestEventPatternCommand } from '@aws-sdk/client-eventbridge';
import { failure, startTestCloud, type TestCloud } from './helpers';

const events = suite<{ t: TestCloud; client: EventBridgeClient }>('local EventBridge TestEventPattern and event bus permissions');
events.before(async (context) => {
  context.t = await startTestCloud();
  context.client = new EventBridgeClient({ ...context.t.config, maxAttempts: 1 });
});
events.after(async (context) => {
  context.client.destroy();
  await context.t.stop();
});

const EVENT = {
  id: 'e1',
  'detail-type': 'Order Placed',
  source: 'shop.orders',
  account: '000000000000',
  time: '2026-01-01T00:00:00Z',
  region: 'us-east-1',
  resources: [],
  detail: { total: 120, currency: 'EUR' },
};

events('TestEventPattern answers whether the rule matcher accepts the event', async ({ client }) => {
  const test = async (pattern: unknown) => (await client.send(new TestEventPatternCommand({ EventPattern: JSON.stringify(pattern), Event: JSON.stringify(EVENT) }))).Result;
  assert.equal(
    [
      await test({ source: ['shop.orders'] }),
      await test({ source: ['shop.payments'] }),
      await test({ 'detail-type': [{ prefix: 'Order' }], detail: { total: [{ numeric: ['>', 100] }] } }),
      await test({ detail: { currency: [{ 'anything-but': ['EUR'] }] } }),
    ],
    [true, false, true, false],
  );
});

events('TestEventPattern refuses a pattern that is not one, and an event missing a required field', async ({ client }) => {
  const notJson = await failure(client.send(new TestEventPatternCommand({ EventPattern: '{source', Event: JSON.stringify(EVENT) })));
  assert.equal([notJson!.name, notJson!.message], ['InvalidEventPatternException', 'Event pattern is not valid. Reason: Filter is not an object']);
  const leaf = await failure(client.send(new TestEventPatternCommand({ EventPattern: '{"source": "shop.orders"}', Event: JSON.stringify(EVENT) })));
  assert.equal([leaf!.name, leaf!.message], ['InvalidEventPatternException', 'Event pattern is not valid. Reason: "source" must be an object or an array']);
  const { resources: _resources, ...withoutResources } = EVENT;
  const missing = await failure(client.send(new TestEventPatternCommand({ EventPattern: '{"source": ["shop.orders"]}', Event: JSON.stringify(withoutResources) })));
  assert.equal([missing!.name, missing!.message], ['ValidationException', 'Parameter Event is not valid.']);
});

events('PutPermission writes statements into the bus policy DescribeEventBus shows; RemovePermission takes them out', async ({ client }) => {
  const { EventBusArn } = await client.send(new CreateEventBusCommand({ Name: 'orders' }));
  await client.send(new PutPermissionCommand({ EventBusName: 'orders', Action: 'events:PutEvents', Principal: '111122223333', StatementId: 'partner' }));
  await client.send(
    new PutPermissionCommand({ EventBusName: 'orders', Action: 'events:PutEvents', Principal: '*', StatementId: 'org', Condition: { Type: 'StringEquals', Key: 'aws:PrincipalOrgID', Value: 'o-abc123' } }),
  );
  const described = await client.send(new DescribeEventBusCommand({ Name: 'orders' }));
  assert.equal(JSON.parse(described.Policy!), {
    Version: '2012-10-17',
    Statement: [
      { Sid: 'partner', Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::111122223333:root' }, Action: 'events:PutEvents', Resource: EventBusArn },
      { Sid: 'org', Effect: 'Allow', Principal: '*', Action: 'events:PutEvents', Resource: EventBusArn, Condition: { StringEquals: { 'aws:PrincipalOrgID': 'o-abc123' } } },
    ],
  });
  await client.send(new RemovePermissionCommand({ EventBusName: 'orders', StatementId: 'partner' }));
  assert.equal(JSON.parse((await client.send(new DescribeEventBusCommand({ Name: 'orders' }))).Policy!).Statement.map((statement: { Sid: string }) => statement.Sid), ['org']);
  const unknown = await failure(client.send(new RemovePermissionCommand({ EventBusName: 'orders', StatementId: 'partner' })));
  assert.equal([unknown!.name, unknown!.message], ['ResourceNotFoundException', 'Statement with the provided id does not exist.']);
  await client.send(new RemovePermissionCommand({ EventBusName: 'orders', RemoveAllPermissions: true }));
  assert.is((await client.send(new DescribeEventBusCommand({ Name: 'orders' }))).Policy, undefined);
});

events('the default bus takes a permission too; an unknown bus is refused', async ({ client }) => {
  await client.send(new PutPermissionCommand({ Action: 'events:PutEvents', Principal: '444455556666', StatementId: 'other-account' }));
  const policy = JSON.parse((await client.send(new DescribeEventBusCommand({}))).Policy!);
  assert.equal(policy.Statement[0].Resource, 'arn:aws:events:us-east-1:000000000000:event-bus/default');
  const missing = await failure(client.send(new PutPermissionCommand({ EventBusName: 'nope', Action: 'events:PutEvents', Principal: '444455556666', StatementId: 'x' })));
  assert.equal([missing!.name, missing!.message], ['ResourceNotFoundException', 'Event bus nope does not exist.']);
});

events('a bus policy is kept across a restart and goes with its bus', async () => {
  let t = await startTestCloud();
  let client = new EventBridgeClient({ ...t.config, maxAttempts: 1 });
  try {
    await client.send(new CreateEventBusCommand({ Name: 'kept' }));
    await client.send(new PutPermissionCommand({ EventBusName: 'kept', Action: 'events:PutEvents', Principal: '111122223333', StatementId: 'partner' }));
    client.destroy();
    await t.stop({ keepData: true });
    t = await startTestCloud(t.dataDir);
    client = new EventBridgeClient({ ...t.config, maxAttempts: 1 });
    assert.is(JSON.parse((await client.send(new DescribeEventBusCommand({ Name: 'kept' }))).Policy!).Statement[0].Sid, 'partner');
    await client.send(new DeleteEventBusCommand({ Name: 'kept' }));
    await client.send(new CreateEventBusCommand({ Name: 'kept' }));
    assert.is((await client.send(new DescribeEventBusCommand({ Name: 'kept' }))).Policy, undefined);
  } finally {
    client.destroy();
    await t.stop();
  }
});

events.run();
