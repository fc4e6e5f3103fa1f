/**
 * Settings of Serverless Framework v3 that fw refuses on purpose, because what v3 does with them is
 * broken or unsafe. Each has the one line fw prints for the settings sweep's sample (the sweep test
 * checks fw prints exactly it) and the reason, which docs/reference/compatibility.md lists (scripts/docs.js writes it).
 * The paths are the sweep's (`functions.hello.events.<type>.<setting>`, the event's index left out).
 */
export const REFUSED_SETTINGS: Record<string, { message: string; reason: string }> = {
  'functions.hello.events.s3.forceDeploy': {
    message: `Invalid configuration in 'functions.hello.events[0].s3.forceDeploy': only for existing buckets (add existing: true)`,
    reason: 'v3 silently ignores it on a bucket the stack creates; it only means something for `existing: true`',
  },
  'functions.hello.events.cognitoUserPool.forceDeploy': {
    message: `Invalid configuration in 'functions.hello.events[0].cognitoUserPool.forceDeploy': only for existing pools (add existing: true)`,
    reason: 'v3 silently ignores it on a user pool the stack creates; it only means something for `existing: true`',
  },
  'functions.hello.events.stream.consumer': {
    message: `Invalid configuration in 'functions.hello.events[0].stream.consumer': a fan-out consumer is for Kinesis streams only`,
    reason: 'v3 silently ignores it on a DynamoDB stream (fan-out consumers exist for Kinesis streams only)',
  },
  'functions.hello.events.websocket.authorizer': {
    message: `Invalid configuration in 'functions.hello.events[0].websocket.authorizer': API Gateway allows an authorizer on the $connect route only, got route "sweep"`,
    reason: 'v3 writes an authorizer on a route other than `$connect`, which API Gateway rejects at deploy time',
  },
  'functions.hello.events.websocket.authorizer.arn': {
    message: `Invalid configuration in 'functions.hello.events[0].websocket.authorizer': API Gateway allows an authorizer on the $connect route only, got route "sweep"`,
    reason: 'the same, for an authorizer given by ARN',
  },
};
