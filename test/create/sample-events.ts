/** Events as the cloud sends them, trimmed to what a handler could read. */

/** HTTP API, payload format 2.0. */
export function httpApiEvent(method: string, routeKey: string, rawPath: string, pathParameters?: Record<string, string>) {
  return {
    version: '2.0',
    routeKey: `${method} ${routeKey}`,
    rawPath,
    rawQueryString: '',
    headers: { accept: 'application/json', host: 'abc123.execute-api.us-east-1.amazonaws.com' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'curl/8.0' },
      requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
      routeKey: `${method} ${routeKey}`,
      stage: '$default',
    },
    ...(pathParameters ? { pathParameters } : {}),
    isBase64Encoded: false,
  };
}

/** REST API, payload format 1.0 (lambda-proxy). */
export function restApiEvent(method: string, resource: string, path: string, options: { pathParameters?: Record<string, string>; body?: string } = {}) {
  return {
    resource,
    path,
    httpMethod: method,
    headers: { Accept: 'application/json' },
    queryStringParameters: null,
    pathParameters: options.pathParameters ?? null,
    stageVariables: null,
    requestContext: { resourcePath: resource, httpMethod: method, stage: 'dev', requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef' },
    body: options.body ?? null,
    isBase64Encoded: false,
  };
}

export function scheduledEvent(time: string) {
  return {
    version: '0',
    id: '53dc4d37-cffa-4f76-80c9-8b7d4a4d2eaa',
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '123456789012',
    time,
    region: 'us-east-1',
    resources: ['arn:aws:events:us-east-1:123456789012:rule/app-dev-ReportEventsRuleSchedule1'],
    detail: {},
  };
}

export function s3PutEvent(bucket: string, key: string, size: number) {
  return {
    Records: [{
      eventVersion: '2.1',
      eventSource: 'aws:s3',
      awsRegion: 'us-east-1',
      eventTime: '2024-05-06T09:00:00.000Z',
      eventName: 'ObjectCreated:Put',
      s3: {
        s3SchemaVersion: '1.0',
        bucket: { name: bucket, arn: `arn:aws:s3:::${bucket}` },
        object: { key, size, eTag: 'd41d8cd98f00b204e9800998ecf8427e' },
      },
    }],
  };
}
