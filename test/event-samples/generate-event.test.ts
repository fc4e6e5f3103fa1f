import { gunzipSync } from 'node:zlib';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runFw } from '../plugins/helpers';

/** `fw generate-event`: Serverless v3's event types, the local cloud's builders, --body per type. */
const cwd = mkdtempSync(join(tmpdir(), 'fw-generate-event-'));

/** Ids, times and the S3 sequencer differ per run: replaced by placeholders so whole values compare. */
function normalized(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => normalized(item));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, normalized(item, name)]));
  if (typeof value === 'number') return value > 1e9 ? '<time>' : value;
  if (typeof value !== 'string') return value;
  if (key === 'sequencer' || key === 'eventID' && /^[0-9a-f]{32}$/.test(value) || key === 'messageId' && /^[0-9a-f]{16}$/.test(value)) return `<${key}>`;
  if (/^\d{13}$/.test(value)) return '<time>';
  // API Gateway's short request ids (HTTP APIs' requestId, REST APIs' extendedRequestId): `IRrm5jULIAMEMeg=`.
  if ((key === 'requestId' || key === 'extendedRequestId') && /^[A-Za-z0-9+/]{15}=$/.test(value)) return '<short-id>';
  return value
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, '<time>')
    .replace(/^\d\d\/\w{3}\/\d{4}:\d\d:\d\d:\d\d \+0000$/, '<time>');
}

async function generate(...args: string[]): Promise<{ code: number; event: unknown; stderr: string }> {
  const { code, stdout, stderr } = await runFw(['generate-event', ...args], cwd);
  assert.is(stdout.split('\n').length, 2, `one line of JSON: ${stdout}`);
  return { code, event: normalized(JSON.parse(stdout)), stderr };
}

const HOST = 'abcdef1234.execute-api.us-east-1.amazonaws.com';

const EXPECTED: Record<string, unknown> = {
  'aws:alexaSkill': {
    version: '1.0',
    session: { new: true, sessionId: 'amzn1.echo-api.session.<uuid>', application: { applicationId: 'amzn1.ask.skill.<uuid>' }, attributes: {}, user: { userId: 'amzn1.ask.account.EXAMPLE' } },
    context: {
      System: {
        application: { applicationId: 'amzn1.ask.skill.<uuid>' },
        user: { userId: 'amzn1.ask.account.EXAMPLE' },
        device: { deviceId: 'amzn1.ask.device.EXAMPLE', supportedInterfaces: {} },
        apiEndpoint: 'https://api.amazonalexa.com',
        apiAccessToken: 'EXAMPLE',
      },
    },
    request: { type: 'LaunchRequest', requestId: 'amzn1.echo-api.request.<uuid>', timestamp: '<time>', locale: 'en-US' },
  },
  'aws:alexaSmartHome': {
    directive: {
      header: { namespace: 'Alexa.PowerController', name: 'TurnOn', payloadVersion: '3', messageId: '<uuid>', correlationToken: 'EXAMPLE' },
      endpoint: { scope: { type: 'BearerToken', token: 'EXAMPLE' }, endpointId: 'endpoint-001', cookie: {} },
      payload: {},
    },
  },
  'aws:apiGateway': {
    resource: '/hello',
    path: '/hello',
    httpMethod: 'POST',
    headers: { 'Content-Type': 'application/json', Host: HOST, 'User-Agent': 'curl/8.5.0' },
    multiValueHeaders: { 'Content-Type': ['application/json'], Host: [HOST], 'User-Agent': ['curl/8.5.0'] },
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abcdef1234',
      domainName: HOST,
      domainPrefix: 'abcdef1234',
      extendedRequestId: '<short-id>',
      httpMethod: 'POST',
      identity: {
        accessKey: null, accountId: null, caller: null, cognitoAuthenticationProvider: null, cognitoAuthenticationType: null,
        cognitoIdentityId: null, cognitoIdentityPoolId: null, principalOrgId: null, user: null, userArn: null,
        sourceIp: '198.51.100.1', userAgent: 'curl/8.5.0',
      },
      path: '/dev/hello',
      protocol: 'HTTP/1.1',
      requestId: '<uuid>',
      requestTime: '<time>',
      requestTimeEpoch: '<time>',
      resourceId: 'abc123',
      resourcePath: '/hello',
      stage: 'dev',
    },
    pathParameters: null,
    stageVariables: null,
    body: '{}',
    isBase64Encoded: false,
  },
  'aws:cloudWatch': {
    version: '0',
    id: '<uuid>',
    'detail-type': 'EC2 Instance State-change Notification',
    source: 'aws.ec2',
    account: '123456789012',
    time: '<time>',
    region: 'us-east-1',
    resources: ['arn:aws:ec2:us-east-1:123456789012:instance/i-1234567890abcdef0'],
    detail: { 'instance-id': 'i-1234567890abcdef0', state: 'terminated' },
  },
  'aws:cognitoUserPool': {
    version: '1',
    triggerSource: 'PreSignUp_SignUp',
    region: 'us-east-1',
    userPoolId: 'us-east-1_EXAMPLE',
    userName: 'example-user',
    callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'example-client-id' },
    request: { userAttributes: { email: 'user@example.com' }, validationData: null },
    response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
  },
  'aws:dynamo': {
    Records: [
      {
        eventID: '<eventID>',
        eventName: 'INSERT',
        eventVersion: '1.1',
        eventSource: 'aws:dynamodb',
        awsRegion: 'us-east-1',
        dynamodb: {
          ApproximateCreationDateTime: '<time>',
          Keys: { id: { S: '101' } },
          NewImage: { id: { S: '101' }, message: { S: 'New item!' } },
          SequenceNumber: '111100000000000000000001',
          SizeBytes: 21,
          StreamViewType: 'NEW_AND_OLD_IMAGES',
        },
        eventSourceARN: 'arn:aws:dynamodb:us-east-1:123456789012:table/example/stream/2026-01-01T00:00:00.000',
      },
    ],
  },
  'aws:iot': { temperature: 28, humidity: 80, barometer: 1013, wind: { velocity: 22, bearing: 255 } },
  'aws:kinesis': {
    Records: [
      {
        kinesis: {
          kinesisSchemaVersion: '1.0',
          partitionKey: 'partition-1',
          sequenceNumber: '49590338271490256608559692538361571095921575989136588898',
          data: 'e30=',
          approximateArrivalTimestamp: '<time>',
        },
        eventSource: 'aws:kinesis',
        eventVersion: '1.0',
        eventID: 'shardId-000000000000:49590338271490256608559692538361571095921575989136588898',
        eventName: 'aws:kinesis:record',
        invokeIdentityArn: 'arn:aws:iam::123456789012:role/example-role',
        awsRegion: 'us-east-1',
        eventSourceARN: 'arn:aws:kinesis:us-east-1:123456789012:stream/example',
      },
    ],
  },
  'aws:s3': {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: 'us-east-1',
        eventTime: '<time>',
        eventName: 'ObjectCreated:Put',
        userIdentity: { principalId: 'AWS:LOCAL' },
        requestParameters: { sourceIPAddress: '127.0.0.1' },
        responseElements: { 'x-amz-request-id': 'local', 'x-amz-id-2': 'local' },
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: 'example-notification',
          bucket: { name: 'example-bucket', ownerIdentity: { principalId: 'LOCAL' }, arn: 'arn:aws:s3:::example-bucket' },
          object: { key: 'photos/cat.jpg', size: 1024, eTag: '0123456789abcdef0123456789abcdef', sequencer: '<sequencer>' },
        },
      },
    ],
  },
  'aws:sns': {
    Records: [
      {
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        EventSubscriptionArn: 'arn:aws:sns:us-east-1:123456789012:example-topic:<uuid>',
        Sns: {
          Type: 'Notification',
          MessageId: '<uuid>',
          TopicArn: 'arn:aws:sns:us-east-1:123456789012:example-topic',
          Subject: null,
          Message: '{}',
          Timestamp: '<time>',
          SignatureVersion: '1',
          Signature: 'local',
          SigningCertUrl: '',
          UnsubscribeUrl: '',
          MessageAttributes: {},
        },
      },
    ],
  },
  'aws:sqs': {
    Records: [
      {
        messageId: '<uuid>',
        receiptHandle: '<uuid>',
        body: '{}',
        attributes: { ApproximateReceiveCount: '1', SentTimestamp: '<time>', SenderId: '123456789012', ApproximateFirstReceiveTimestamp: '<time>' },
        messageAttributes: {},
        md5OfBody: '99914b932bd37a50b983c5e7c90ae93b',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:example-queue',
        awsRegion: 'us-east-1',
      },
    ],
  },
  'aws:websocket': {
    requestContext: {
      routeKey: '$default',
      messageId: '<messageId>',
      eventType: 'MESSAGE',
      extendedRequestId: '<short-id>',
      requestTime: '<time>',
      messageDirection: 'IN',
      stage: 'dev',
      connectedAt: '<time>',
      requestTimeEpoch: '<time>',
      identity: { userAgent: 'wscat/5.2.0', sourceIp: '198.51.100.1' },
      requestId: '<short-id>',
      domainName: HOST,
      connectionId: 'ZX0bAcEXAMPLE=',
      apiId: 'abcdef1234',
    },
    body: '{}',
    isBase64Encoded: false,
  },
};

const generateEvent = suite('fw generate-event');

for (const [type, expected] of Object.entries(EXPECTED)) {
  generateEvent(`${type} prints its event as one line of JSON`, async () => {
    assert.equal(await generate('--type', type), { code: 0, event: expected, stderr: '' });
  });
}

/** The document inside awslogs.data: base64, gzip, JSON. */
function logsDelivery(event: unknown): unknown {
  const data = (event as { awslogs: { data: string } }).awslogs.data;
  return normalized(JSON.parse(gunzipSync(Buffer.from(data, 'base64')).toString('utf8')));
}

generateEvent('aws:cloudWatchLog gzips and base64-encodes the log events, --body is the message', async () => {
  const { code, stdout } = await runFw(['generate-event', '-t', 'aws:cloudWatchLog', '-b', 'ERROR payment failed'], cwd);
  assert.is(code, 0);
  const event = JSON.parse(stdout) as Record<string, unknown>;
  assert.equal(Object.keys(event), ['awslogs']);
  const delivery = logsDelivery(event) as { logStream: string };
  assert.match(delivery.logStream, /^\d{4}\/\d\d\/\d\d\/\[\$LATEST\][0-9a-f]{32}$/);
  assert.equal(delivery, {
    messageType: 'DATA_MESSAGE',
    owner: '123456789012',
    logGroup: '/aws/lambda/example',
    logStream: delivery.logStream,
    subscriptionFilters: ['example-filter'],
    logEvents: [{ id: (delivery as unknown as { logEvents: [{ id: string }] }).logEvents[0].id, timestamp: '<time>', message: 'ERROR payment failed' }],
  });
  assert.match((delivery as unknown as { logEvents: [{ id: string }] }).logEvents[0].id, /^\d{56}$/);
});

generateEvent('--body is the message, request body or record data of the types that carry one', async () => {
  const body = '{"foo":"bar"}';
  const sqs = (await generate('-t', 'aws:sqs', '-b', body)).event as { Records: [Record<string, unknown>] };
  assert.equal([sqs.Records[0].body, sqs.Records[0].md5OfBody], [body, '9bb58f26192e4ba00f01e2e7b136bbd8']);
  const sns = (await generate('-t', 'aws:sns', '-b', 'plain text')).event as { Records: [{ Sns: Record<string, unknown> }] };
  assert.is(sns.Records[0].Sns.Message, 'plain text');
  const kinesis = (await generate('-t', 'aws:kinesis', '-b', body)).event as { Records: [{ kinesis: { data: string } }] };
  assert.is(Buffer.from(kinesis.Records[0].kinesis.data, 'base64').toString('utf8'), body);
  const api = (await generate('-t', 'aws:apiGateway', '-b', 'name=me')).event as Record<string, unknown>;
  assert.is(api.body, 'name=me');
  const websocket = (await generate('-t', 'aws:websocket', '-b', body)).event as Record<string, unknown>;
  assert.is(websocket.body, body);
});

generateEvent('--body as a JSON object is set on the event, on the DynamoDB record, or is the IoT message', async () => {
  assert.equal(await generate('-t', 'aws:cloudWatch', '-b', '{"detail":{"state":"running"},"source":"custom"}'), {
    code: 0,
    event: { ...(EXPECTED['aws:cloudWatch'] as object), detail: { state: 'running' }, source: 'custom' },
    stderr: '',
  });
  const cognito = (await generate('-t', 'aws:cognitoUserPool', '-b', '{"triggerSource":"PostConfirmation_ConfirmSignUp"}')).event as Record<string, unknown>;
  assert.is(cognito.triggerSource, 'PostConfirmation_ConfirmSignUp');
  const dynamo = (await generate('-t', 'aws:dynamo', '-b', '{"Keys":{"id":{"S":"7"}},"NewImage":{"id":{"S":"7"}}}')).event as { Records: [{ dynamodb: Record<string, unknown> }] };
  assert.equal(dynamo.Records[0].dynamodb, {
    ApproximateCreationDateTime: '<time>',
    Keys: { id: { S: '7' } },
    NewImage: { id: { S: '7' } },
    SequenceNumber: '111100000000000000000001',
    SizeBytes: 21,
    StreamViewType: 'NEW_AND_OLD_IMAGES',
  });
  assert.equal(await generate('-t', 'aws:iot', '-b', '{"temperature":31}'), { code: 0, event: { temperature: 31 }, stderr: '' });
});

generateEvent('aws:s3 takes no body and says so on stderr', async () => {
  assert.equal(await generate('-t', 'aws:s3', '-b', 'x'), { code: 0, event: EXPECTED['aws:s3'], stderr: 'aws:s3 has no body: --body is not used\n' });
});

generateEvent('a --body that is not the JSON object a type needs is one line naming the type', async () => {
  assert.equal(await runFw(['generate-event', '-t', 'aws:alexaSkill', '-b', 'hello'], cwd), {
    code: 1,
    stdout: '',
    stderr: 'Error: Invalid --body "hello": aws:alexaSkill takes a JSON object (its properties are set on the event)\n',
  });
  assert.equal(await runFw(['generate-event', '-t', 'aws:dynamo', '-b', '[1]'], cwd), {
    code: 1,
    stdout: '',
    stderr: 'Error: Invalid --body "[1]": aws:dynamo takes a JSON object (its properties are set on the record\'s dynamodb)\n',
  });
});

generateEvent('an unknown type is one line listing the valid types', async () => {
  assert.equal(await runFw(['generate-event', '-t', 'aws:lambda'], cwd), {
    code: 1,
    stdout: '',
    stderr:
      'Error: Invalid --type "aws:lambda": expected one of aws:alexaSkill, aws:alexaSmartHome, aws:apiGateway, aws:cloudWatch, aws:cloudWatchLog, aws:cognitoUserPool, aws:dynamo, aws:iot, aws:kinesis, aws:s3, aws:sns, aws:sqs, aws:websocket\n',
  });
});

generateEvent.run();
