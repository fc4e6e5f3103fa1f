'use strict';

/**
 * The only file that talks to AWS. The SDK v3 is part of the nodejs20.x runtime, so it is
 * not a dependency; it is required on first use so that tests can run without it.
 */

let dynamo;
let sqs;

function table() {
  const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');
  dynamo ??= new DynamoDBClient({});
  return dynamo;
}

function queue() {
  const { SQSClient } = require('@aws-sdk/client-sqs');
  sqs ??= new SQSClient({});
  return sqs;
}

const marshall = (value) => require('@aws-sdk/util-dynamodb').marshall(value);
const unmarshall = (item) => require('@aws-sdk/util-dynamodb').unmarshall(item);

const store = {
  async put(order) {
    const { PutItemCommand } = require('@aws-sdk/client-dynamodb');
    await table().send(new PutItemCommand({ TableName: process.env.ORDERS_TABLE, Item: marshall(order) }));
  },
  async get(id) {
    const { GetItemCommand } = require('@aws-sdk/client-dynamodb');
    const { Item } = await table().send(new GetItemCommand({ TableName: process.env.ORDERS_TABLE, Key: marshall({ id }) }));
    return Item ? unmarshall(Item) : undefined;
  },
  async update(id, changes) {
    const { UpdateItemCommand } = require('@aws-sdk/client-dynamodb');
    const names = Object.keys(changes);
    await table().send(new UpdateItemCommand({
      TableName: process.env.ORDERS_TABLE,
      Key: marshall({ id }),
      UpdateExpression: `SET ${names.map((_, i) => `#k${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#k${i}`, name])),
      ExpressionAttributeValues: marshall(Object.fromEntries(names.map((name, i) => [`:v${i}`, changes[name]]))),
    }));
  },
  async all() {
    const { ScanCommand } = require('@aws-sdk/client-dynamodb');
    const orders = [];
    let ExclusiveStartKey;
    do {
      const page = await table().send(new ScanCommand({ TableName: process.env.ORDERS_TABLE, ExclusiveStartKey }));
      orders.push(...page.Items.map((item) => unmarshall(item)));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return orders;
  },
};

const orderQueue = {
  async send(message) {
    const { SendMessageCommand } = require('@aws-sdk/client-sqs');
    await queue().send(new SendMessageCommand({ QueueUrl: process.env.ORDERS_QUEUE_URL, MessageBody: JSON.stringify(message) }));
  },
};

module.exports = { store, orderQueue };
