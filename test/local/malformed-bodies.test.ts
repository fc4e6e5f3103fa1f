import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ANY_LOCAL_CREDENTIALS } from '../../src/local/access/credentials';
import { signedLocalFetch } from '../../src/local/access/sign';
import { startTestCloud, type TestCloud } from './helpers';

/**
 * Every JSON-protocol service the local cloud answers, by the `X-Amz-Target` prefix that routes to
 * it, with the SDK v3 client whose operation list and input schemas the bodies below are made from.
 */
const SERVICES = [
  { target: 'DynamoDB_20120810', json: '1.0', sdk: '@aws-sdk/client-dynamodb' },
  { target: 'Logs_20140328', json: '1.1', sdk: '@aws-sdk/client-cloudwatch-logs' },
  { target: 'AmazonSSM', json: '1.1', sdk: '@aws-sdk/client-ssm' },
  { target: 'AmazonSQS', json: '1.0', sdk: '@aws-sdk/client-sqs' },
  { target: 'AWSEvents', json: '1.1', sdk: '@aws-sdk/client-eventbridge' },
  { target: 'Kinesis_20131202', json: '1.1', sdk: '@aws-sdk/client-kinesis' },
  { target: 'GraniteServiceVersion20100801', json: '1.0', sdk: '@aws-sdk/client-cloudwatch' },
  { target: 'AmazonEC2ContainerRegistry_V20150921', json: '1.1', sdk: '@aws-sdk/client-ecr' },
  { target: 'TrentService', json: '1.1', sdk: '@aws-sdk/client-kms' },
];

/** Whole bodies that are JSON but not an input object. */
const WHOLE_BODIES = ['null', '[]', '"x"', '1'];
/** Values put in each input member in turn: nulls, wrong types, an AttributeValue-like union with a null. */
const MEMBER_VALUES: unknown[] = [null, [], 'x', 1, { S: null }, { k: { S: null } }, [null]];

type OperationSchema = [9, string, string, unknown, () => unknown];

function operations(sdk: string): { name: string; members: string[] }[] {
  const exported = require(sdk) as Record<string, unknown>;
  return Object.entries(exported)
    .filter((entry): entry is [string, OperationSchema] => entry[0].endsWith('$') && Array.isArray(entry[1]) && entry[1][0] === 9)
    .map(([, schema]) => {
      let input = schema[4] as unknown;
      while (typeof input === 'function') input = (input as () => unknown)();
      return { name: schema[2], members: ((input as unknown[])[4] as string[] | undefined) ?? [] };
    });
}

const malformed = suite<{ t: TestCloud }>('malformed JSON bodies get a 4xx in AWS\'s error shape on every JSON-protocol operation');

malformed.before(async (context) => {
  context.t = await startTestCloud();
});
malformed.after(async (context) => {
  await context.t.stop();
});

malformed('null, lists, strings and null-holding members are refused with 400s, never a 500', async ({ t }) => {
  const failures: string[] = [];
  let served = 0;
  let sent = 0;
  const send = async (target: string, json: string, body: string) => {
    sent += 1;
    const response = await signedLocalFetch(t.cloud.url + '/', { method: 'POST', headers: { 'x-amz-target': target, 'content-type': `application/x-amz-json-${json}` }, body }, ANY_LOCAL_CREDENTIALS);
    const text = await response.text();
    let type: unknown;
    try {
      type = (JSON.parse(text) as { __type?: unknown }).__type;
    } catch {
      type = undefined;
    }
    return { status: response.status, type: typeof type === 'string' ? type : undefined, text };
  };
  /** Runs the checks 16 at a time (what a busy client sends), each pushing what it finds wrong to `failures`. */
  const inParallel = async (jobs: (() => Promise<void>)[]) => {
    const queue = [...jobs];
    await Promise.all(Array.from({ length: 16 }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) await job();
    }));
  };
  const all = SERVICES.flatMap((service) => operations(service.sdk).map((operation) => ({ ...service, ...operation, target: `${service.target}.${operation.name}` })));
  const servedOperations: typeof all = [];
  await inParallel(
    all.flatMap((operation) => [
      ...WHOLE_BODIES.map((body) => async () => {
        const answer = await send(operation.target, operation.json, body);
        if (answer.status !== 400 || answer.type !== 'SerializationException') failures.push(`${operation.target} ${body}: ${answer.status} ${answer.text.slice(0, 200)}`);
      }),
      // Operations the local cloud does not serve answer an unknown-operation error for any body: no member to try.
      async () => {
        const probe = await send(operation.target, operation.json, '{}');
        if (probe.status >= 500) failures.push(`${operation.target} {}: ${probe.status} ${probe.text.slice(0, 200)}`);
        if (!/UnknownOperation|UnsupportedOperation/.test(probe.type ?? '')) servedOperations.push(operation);
      },
    ]),
  );
  served = servedOperations.length;
  await inParallel(
    servedOperations.flatMap((operation) =>
      operation.members.flatMap((member) =>
        MEMBER_VALUES.map((value) => async () => {
          const body = JSON.stringify({ [member]: value });
          const answer = await send(operation.target, operation.json, body);
          if (answer.status >= 500 || (answer.status >= 400 && answer.type === undefined)) failures.push(`${operation.target} ${body}: ${answer.status} ${answer.text.slice(0, 200)}`);
        }),
      ),
    ),
  );
  assert.equal(failures, []);
  // Not vacuous: the sweep reached the operations the local cloud serves (DynamoDB, SQS, Logs, … add up to well over 43).
  assert.ok(served > 60, `only ${served} operations answered as served`);
  assert.ok(sent > 2000, `only ${sent} requests sent`);
});

malformed('a null-holding AttributeValue is a ValidationException, as DynamoDB answers it', async ({ t }) => {
  const send = (operation: string, input: unknown) =>
    signedLocalFetch(t.cloud.url + '/', { method: 'POST', headers: { 'x-amz-target': `DynamoDB_20120810.${operation}`, 'content-type': 'application/x-amz-json-1.0' }, body: JSON.stringify(input) }, ANY_LOCAL_CREDENTIALS);
  const created = await send('CreateTable', { TableName: 'nulls', AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], BillingMode: 'PAY_PER_REQUEST' });
  assert.is(created.status, 200);
  const put = await send('PutItem', { TableName: 'nulls', Item: { id: { S: 'a' }, v: { S: null } } });
  assert.is(put.status, 400);
  assert.match(((await put.json()) as { __type: string }).__type, /(^|#)ValidationException$/);
  const typed = await send('PutItem', { TableName: 'nulls', Item: { id: { S: 1 } } });
  assert.equal([typed.status, ((await typed.json()) as { message: string }).message], [400, 'Cannot read PutItem input at Item.id.S: expected a string, got a number']);
});

malformed.run();
