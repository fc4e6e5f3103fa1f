import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as t from '../../../src/config/typanion';
import { jsonSchemaOf } from '../../../src/config/json-schema';
import {
  checkEvent,
  inDepth,
  isArnOrIntrinsic,
  isEither,
  isIntegerIn,
  isIntrinsic,
  isStringLike,
  validateEvent,
} from '../../../src/constructs/events/event-schema';
import { configErrorOf } from './helpers';

const vocabulary = suite('event schema vocabulary');

vocabulary('an intrinsic is one Ref or Fn:: key; anything else is refused in one line naming the path', () => {
  const schema = t.isObject({ arn: isIntrinsic() });
  assert.equal(validateEvent(schema, { arn: { 'Fn::GetAtt': ['Queue', 'Arn'] } }, 'functions.f.events[0].sqs'), { arn: { 'Fn::GetAtt': ['Queue', 'Arn'] } });
  assert.is(
    configErrorOf(() => validateEvent(schema, { arn: { Ref: 'A', Extra: 1 } }, 'functions.f.events[0].sqs')),
    `Invalid configuration in 'functions.f.events[0].sqs.arn': expected a CloudFormation intrinsic ({ Ref } or { "Fn::…" }), got {"Ref":"A","Extra":1}`,
  );
});

vocabulary('an intrinsic limited to some functions names them and refuses the others', () => {
  const schema = isStringLike(['Ref', 'Fn::ImportValue']);
  assert.equal(validateEvent(schema, { 'Fn::ImportValue': 'bus' }, 'functions.f.events[0].eventBridge.eventBus'), { 'Fn::ImportValue': 'bus' });
  assert.is(
    configErrorOf(() => validateEvent(schema, { 'Fn::Sub': 'x' }, 'functions.f.events[0].eventBridge.eventBus')),
    `Invalid configuration in 'functions.f.events[0].eventBridge.eventBus': expected a string or { Ref } or { Fn::ImportValue }, got {"Fn::Sub":"x"}`,
  );
  assert.equal(jsonSchemaOf(isIntrinsic(['Ref'])), { type: 'object', properties: { Ref: {} }, required: ['Ref'], additionalProperties: false });
});

vocabulary('one of these forms gives one error saying what was expected, not one per form', () => {
  const schema = t.isObject({ arn: isArnOrIntrinsic('a queue ARN or a CloudFormation intrinsic') });
  assert.is(
    configErrorOf(() => validateEvent(schema, { arn: 'queue' }, 'functions.f.events[0].sqs')),
    `Invalid configuration in 'functions.f.events[0].sqs.arn': expected a queue ARN or a CloudFormation intrinsic, got "queue"`,
  );
});

vocabulary('a form checked in depth reports the problem inside the value of its kind', () => {
  const schema = t.isObject({
    healthCheck: isEither<boolean | { path: string }>('true, false or health check settings', [t.isBoolean(), inDepth('object', t.isObject({ path: t.isString() }))]),
  });
  assert.is(
    configErrorOf(() => validateEvent(schema, { healthCheck: { path: 3 } }, 'functions.f.events[0].alb')),
    `Invalid configuration in 'functions.f.events[0].alb.healthCheck.path': expected a string, got 3`,
  );
  assert.is(
    configErrorOf(() => validateEvent(schema, { healthCheck: 'yes' }, 'functions.f.events[0].alb')),
    `Invalid configuration in 'functions.f.events[0].alb.healthCheck': expected true, false or health check settings, got "yes"`,
  );
  assert.equal(jsonSchemaOf(schema), {
    type: 'object',
    properties: {
      healthCheck: {
        anyOf: [{ type: 'boolean' }, { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false }],
      },
    },
    required: ['healthCheck'],
    additionalProperties: false,
  });
});

vocabulary('an integer out of its bounds is refused with the bounds', () => {
  assert.is(
    configErrorOf(() => validateEvent(t.isObject({ batchSize: isIntegerIn(1, 10000) }), { batchSize: 0 }, 'functions.f.events[0].sqs')),
    `Invalid configuration in 'functions.f.events[0].sqs.batchSize': expected an integer from 1 to 10000, got 0`,
  );
});

vocabulary('a shorthand-or-object event is checked in the form it is written in', () => {
  const shorthand = { schema: t.isString(), expected: 'a topic name, or { topicName, … }' };
  const options = t.isPartial({ topicName: t.isString() });
  assert.equal(checkEvent('orders', 'functions.f.events[0].sns', shorthand, options), { shorthand: 'orders' });
  assert.equal(checkEvent({ topicName: 'orders' }, 'functions.f.events[0].sns', shorthand, options), { options: { topicName: 'orders' } });
  assert.is(
    configErrorOf(() => checkEvent(3, 'functions.f.events[0].sns', shorthand, options)),
    `Invalid configuration in 'functions.f.events[0].sns': expected a topic name, or { topicName, … }, got 3`,
  );
});

vocabulary.run();
