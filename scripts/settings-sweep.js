#!/usr/bin/env node
// The settings sweep: for every leaf setting of the reference's assembled
// configuration schema (Serverless Framework v3.40.0 with all its plugins
// registered), a minimal service with that setting set to a valid sample,
// packaged by the reference; what changes in its template is recorded in
// test/fixtures/settings-sweep.json, which test/config/settings-sweep.test.ts
// holds fw to.
//
//   node scripts/settings-sweep.js [setting-path-regex]
//
// Steps:
//   1. dump the schema: a one-hook plugin (written to a temp folder) writes
//      `serverless.configSchemaHandler.schema` once every plugin registered;
//   2. walk it: every leaf under provider, functions.<name> (events apart),
//      each event type, package, layers.<name> and the top level; an `anyOf`
//      holding both a scalar and an object form gives one leaf for the scalar
//      and the object's own leaves; CloudFormation-intrinsic forms are skipped;
//   3. sample each leaf from its schema (const, enum, bounds, patterns) unless
//      SAMPLES below gives one; the ancestors it creates get their required
//      siblings; a setting that only matters beside another (an API Gateway
//      setting needs an http event, snapStart a Java runtime) gets its
//      companion from COMPANIONS, and its template is compared with the
//      template of the companion alone;
//   4. package every service with the reference, in-process (two worker
//      processes, fixed clock), with `configValidationMode: error` so a sample
//      the reference does not accept is recorded as refused, not warned about;
//   5. write the fixture: per companion its service and normalised template,
//      per setting the sample, the service patch and the template entries that
//      differ from its companion's (or the reference's error message).
//
// Environment: FW_REFERENCE_DIR (folder whose node_modules/serverless is
// v3.40.0; default ~/.cache/fw-reference), FW_SWEEP_JOBS (workers, default 2).
// Plain Node, no dependencies.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { fork } = require('child_process');
const { clockPreload, referenceEnv } = require('./goldens');

const REPO = path.resolve(__dirname, '..');
const FIXTURE = path.join(REPO, 'test/fixtures/settings-sweep.json');
const REFERENCE_VERSION = '3.40.0';

function referenceDir() {
  const dir = path.join(process.env.FW_REFERENCE_DIR || path.join(os.homedir(), '.cache/fw-reference'), 'node_modules/serverless');
  const pkg = path.join(dir, 'package.json');
  if (!fs.existsSync(pkg) || JSON.parse(fs.readFileSync(pkg, 'utf8')).version !== REFERENCE_VERSION) {
    console.error(`serverless@${REFERENCE_VERSION} is not installed in ${dir} (see scripts/goldens.js for how to install it).`);
    process.exit(1);
  }
  return dir;
}

// ---------------------------------------------------------------------------
// The services

const ARN = {
  sqs: 'arn:aws:sqs:us-east-1:123456789012:sweep',
  sns: 'arn:aws:sns:us-east-1:123456789012:sweep',
  role: 'arn:aws:iam::123456789012:role/sweep',
  policy: 'arn:aws:iam::123456789012:policy/sweep',
  kms: 'arn:aws:kms:us-east-1:123456789012:key/12345678-1234-1234-1234-123456789012',
  secret: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sweep',
  layer: 'arn:aws:lambda:us-east-1:123456789012:layer:sweep:1',
  lambda: 'arn:aws:lambda:us-east-1:123456789012:function:sweep',
  stream: 'arn:aws:dynamodb:us-east-1:123456789012:table/sweep/stream/2024-01-01T00:00:00.000',
  kinesis: 'arn:aws:kinesis:us-east-1:123456789012:stream/sweep',
  msk: 'arn:aws:kafka:us-east-1:123456789012:cluster/sweep/abc',
  mq: 'arn:aws:mq:us-east-1:123456789012:broker:sweep:b-1234',
  listener: 'arn:aws:elasticloadbalancing:us-east-1:123456789012:listener/app/sweep/50dc6c495c0c9188/f2f7dc8efc522ab2',
  efs: 'arn:aws:elasticfilesystem:us-east-1:123456789012:access-point/fsap-0123456789abcdef0',
  userPool: 'arn:aws:cognito-idp:us-east-1:123456789012:userpool/us-east-1_sweep',
  certificate: 'arn:aws:acm:us-east-1:123456789012:certificate/sweep',
  eventBus: 'arn:aws:events:us-east-1:123456789012:event-bus/sweep',
  runtimeVersion: 'arn:aws:lambda:us-east-1::runtime:0b1f3e6b7d8c9a0f1e2d3c4b5a697887f6e5d4c3b2a1908f7e6d5c4b3a291807',
};

const BASE = {
  service: 'sweep',
  configValidationMode: 'error',
  provider: { name: 'aws', runtime: 'nodejs18.x' },
  functions: { hello: { handler: 'handler.hello' } },
};

/** The smallest valid form of each event (its required settings). */
const EVENTS = {
  schedule: { rate: ['rate(1 hour)'] },
  s3: { bucket: 'sweep' },
  http: { path: 'sweep', method: 'get' },
  websocket: { route: '$connect' },
  sns: { topicName: 'sweep' },
  stream: { arn: ARN.stream },
  kafka: { accessConfigurations: { saslScram512Auth: ARN.secret }, topic: 'sweep', bootstrapServers: ['b-1.sweep:9092'] },
  activemq: { arn: ARN.mq, queue: 'sweep', basicAuthArn: ARN.secret },
  rabbitmq: { arn: ARN.mq, queue: 'sweep', basicAuthArn: ARN.secret },
  msk: { arn: ARN.msk, topic: 'sweep' },
  alb: { listenerArn: ARN.listener, priority: 1, conditions: { path: '/sweep' } },
  alexaSkill: { appId: 'amzn1.ask.skill.sweep' },
  alexaSmartHome: { appId: 'amzn1.ask.skill.sweep' },
  iot: { sql: "SELECT * FROM 'sweep'" },
  iotFleetProvisioning: { templateBody: { Resources: {} }, provisioningRoleArn: ARN.role },
  cloudwatchEvent: { event: { source: ['sweep'] } },
  cloudwatchLog: { logGroup: '/aws/sweep' },
  cognitoUserPool: { pool: 'sweep', trigger: 'PreSignUp' },
  eventBridge: { pattern: { source: ['sweep'] } },
  sqs: { arn: ARN.sqs },
  cloudFront: { eventType: 'viewer-request', origin: 's3://sweep.s3.amazonaws.com/files' },
  httpApi: { path: '/sweep', method: 'GET' },
};

const withEvent = (event) => ({ functions: { hello: { events: [event] } } });

/**
 * Settings that only change a template beside another setting: path prefix → the companion.
 * The first prefix that matches wins.
 */
const COMPANIONS = [
  ['provider.apiGateway.websocketApiId', 'websocket', withEvent({ websocket: EVENTS.websocket })],
  ['provider.apiGateway.restApiId', 'http-existing-api', merge(withEvent({ http: EVENTS.http }), { provider: { apiGateway: { restApiRootResourceId: 'sweeproot1' } } })],
  ['provider.apiGateway', 'http', withEvent({ http: EVENTS.http })],
  ['provider.logs.restApi', 'http', withEvent({ http: EVENTS.http })],
  ['provider.endpointType', 'http', withEvent({ http: EVENTS.http })],
  ['provider.apiName', 'http', withEvent({ http: EVENTS.http })],
  ['provider.vpcEndpointIds', 'http', withEvent({ http: EVENTS.http })],
  ['provider.httpApi', 'httpApi', withEvent({ httpApi: EVENTS.httpApi })],
  ['provider.logs.httpApi', 'httpApi', withEvent({ httpApi: EVENTS.httpApi })],
  ['functions.hello.httpApi', 'httpApi', withEvent({ httpApi: EVENTS.httpApi })],
  ['provider.websocket', 'websocket', withEvent({ websocket: EVENTS.websocket })],
  ['provider.logs.websocket', 'websocket', withEvent({ websocket: EVENTS.websocket })],
  ['provider.alb', 'alb', withEvent({ alb: EVENTS.alb })],
  ['provider.s3', 's3', withEvent({ s3: EVENTS.s3 })],
  ['provider.eventBridge', 'eventBridge', withEvent({ eventBridge: EVENTS.eventBridge })],
  ['provider.cloudFront', 'cloudFront', withEvent({ cloudFront: EVENTS.cloudFront })],
  ['provider.kafka', 'kafka', withEvent({ kafka: EVENTS.kafka })],
  ['functions.hello.fileSystemConfig', 'vpc', { functions: { hello: { vpc: { securityGroupIds: ['sg-12345678'], subnetIds: ['subnet-12345678'] } } } }],
  ['functions.hello.snapStart', 'java', { functions: { hello: { runtime: 'java17', handler: 'sweep.Handler' } } }],
  ['layers', 'layer', { layers: { tools: { path: 'layer' } } }],
];

/** Samples the schema does not give (patterns, ARNs of the right service, non-default values). */
const SAMPLES = [
  [/\.versionFunction$|^provider\.versionFunctions$/, false],
  [/^provider\.region$/, 'eu-west-1'],
  [/^provider\.stage$/, 'prod'],
  [/^provider\.runtime$|\.runtime$/, 'nodejs20.x'],
  [/compatibleRuntimes$/, ['nodejs18.x']],
  [/deploymentBucket\.name$/, 'sweep-deployment-bucket'],
  [/\.(role|cfnRole|deploymentRole|provisioningRoleArn|permissionBoundary|permissionsBoundary|rolePermissionsBoundary)$/, ARN.role],
  [/^provider\.iam\.role\.(name)$/, 'sweep-role'],
  [/^provider\.iam\.role\.path$/, '/sweep/'],
  [/(managedPolicies|iamManagedPolicies)$/, [ARN.policy]],
  [/(statements|iamRoleStatements)$/, [{ Effect: 'Allow', Action: ['s3:GetObject'], Resource: ['arn:aws:s3:::sweep/*'] }]],
  [/kmsKeyArn$|awsKmsKeyArn$|sseKMSKeyId$|kmsMasterKeyId$/, ARN.kms],
  [/layers$/, [ARN.layer]],
  [/onError$/, ARN.sns],
  [/destinations\.on(Success|Failure)$/, ARN.sqs],
  // the object form is for an ARN the template computes
  [/destinations\.on(Success|Failure)\.arn$/, { 'Fn::GetAtt': ['SweepQueue', 'Arn'] }],
  [/destinations\.on(Success|Failure)\.type$/, 'sqs'],
  [/fileSystemConfig\.arn$/, ARN.efs],
  [/fileSystemConfig\.localMountPath$/, '/mnt/sweep'],
  [/runtimeManagement\.arn$/, ARN.runtimeVersion],
  [/runtimeManagement$/, 'onFunctionUpdate'],
  [/runtimeManagement\.mode$/, 'manual'],
  [/notificationArns$/, [ARN.sns]],
  [/\.vpc\.securityGroupIds$/, ['sg-12345678']],
  [/\.vpc\.subnetIds$/, ['subnet-12345678']],
  [/\.(tags|stackTags)$/, { sweep: 'yes' }],
  [/\.environment$/, { SWEEP: 'yes' }],
  [/\.logRetentionInDays$/, 7],
  [/\.tracing\.(lambda|apiGateway)$/, true],
  [/\.tracing$/, 'Active'],
  [/\.condition$/, 'SweepCondition'],
  [/\.dependsOn$/, ['SweepResource']],
  [/\.handler$/, 'handler.other'],
  [/\.image\.uri$|\.image$/, '123456789012.dkr.ecr.us-east-1.amazonaws.com/sweep@sha256:6bb600b4d6e1d7cf521097177dd0c4e9ea373edb91984a505333be8ac9455d38'],
  [/^provider\.ecr\.images$/, { sweep: { uri: '123456789012.dkr.ecr.us-east-1.amazonaws.com/sweep@sha256:6bb600b4d6e1d7cf521097177dd0c4e9ea373edb91984a505333be8ac9455d38' } }],
  [/\.(package\.artifact)$/, 'artifact.zip'],
  [/^package\.path$/, 'sweep-package'],
  [/\.(include|exclude|patterns)$/, ['!sweep/**']],
  [/allowedAccounts$/, ['123456789012']],
  [/^layers\.tools\.name$/, 'sweep-layer'],
  [/^layers\.tools\.path$/, 'layer'],
  [/logDataProtectionPolicy\.Statement$/, [{ Sid: 'audit', DataIdentifier: ['arn:aws:dataprotection::aws:data-identifier/EmailAddress'], Operation: { Audit: { FindingsDestination: {} } } }]],
  [/\.binaryMediaTypes$/, ['image/png']],
  [/\.resourcePolicy$/, [{ Effect: 'Allow', Principal: '*', Action: 'execute-api:Invoke', Resource: ['execute-api:/*/*/*'] }]],
  [/\.restApiId$|\.websocketApiId$/, 'sweepapi01'],
  [/\.restApiRootResourceId$/, 'sweeproot1'],
  [/\.restApiResources$/, { '/sweep': 'sweepres01' }],
  [/\.apiKeys$/, ['sweep-key']],
  [/^provider\.httpApi\.id$/, 'sweephttp1'],
  [/\.httpApi\.payload$/, '1.0'],
  [/\.httpApi\.authorizers$/, { 'sweep-jwt': { type: 'jwt', identitySource: '$request.header.Authorization', issuerUrl: 'https://sweep.example.com', audience: ['sweep'] } }],
  [/\.alb\.authorizers$/, { sweep: { type: 'cognito', userPoolArn: ARN.userPool, userPoolClientId: 'sweepclient', userPoolDomain: 'sweep' } }],
  [/^provider\.s3$/, { sweep: { name: 'sweep-bucket-name', versioningConfiguration: { Status: 'Enabled' } } }],
  [/^provider\.cloudFront\.cachePolicies$/, { sweep: { MinTTL: 0, MaxTTL: 60, DefaultTTL: 30, ParametersInCacheKeyAndForwardedToOrigin: { CookiesConfig: { CookieBehavior: 'none' }, EnableAcceptEncodingGzip: true, HeadersConfig: { HeaderBehavior: 'none' }, QueryStringsConfig: { QueryStringBehavior: 'none' } } } }],
  [/^provider\.apiGateway\.request\.schemas$/, { 'sweep-model': { schema: { type: 'object' }, name: 'SweepModel', description: 'sweep' } }],
  [/\.request\.schemas$/, { 'application/json': { type: 'object' } }],
  [/\.request\.parameters$/, { querystrings: { sweep: true } }],
  [/\.request\.template$/, { 'application/json': '{ "sweep": true }' }],
  [/\.response\.headers$/, { 'X-Sweep': "'yes'" }],
  [/\.response\.template$/, '$input.path("$")'],
  [/\.response\.statusCodes$/, { 201: { pattern: '' } }],
  [/^provider\.deploymentBucket\.tags$/, { sweep: 'yes' }],
  [/\.maxPreviousDeploymentArtifacts$/, 3],
  [/\.(memorySize)$/, 256],
  [/\.(timeout)$/, 10],
  [/\.ephemeralStorageSize$/, 1024],
  [/\.maximumEventAge$/, 120],
  [/\.maximumRetryAttempts$/, 1],
  [/\.(reservedConcurrency|provisionedConcurrency)$/, 2],
  [/^provider\.stackName$/, 'sweep-stack'],
  [/^provider\.stackParameters$/, [{ ParameterKey: 'Sweep', ParameterValue: 'yes' }]],
  [/^provider\.rollbackConfiguration\.RollbackTriggers$/, [{ Arn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:sweep', Type: 'AWS::CloudWatch::Alarm' }]],
  [/^provider\.stackPolicy$/, [{ Effect: 'Allow', Principal: '*', Action: 'Update:*', Resource: '*' }]],
  [/^provider\.vpcEndpointIds$/, ['vpce-12345678']],
  [/^provider\.logs\.restApi\.role$/, ARN.role],
  [/^provider\.apiGateway\.apiKeySourceType$/, 'AUTHORIZER'],
  [/^provider\.endpointType$/, 'REGIONAL'],
  [/\.description$/, 'sweep description'],
  [/^frameworkVersion$/, '3'],
  [/^service$/, 'sweep-two'],
  [/^(org|app)$/, 'sweep'],
  [/^plugins$/, []],
  [/^params$/, { dev: { sweep: 'yes' } }],
  [/^outputs$/, { sweep: 'yes' }],
  [/^custom$/, { sweep: 'yes' }],
  [/^resources\.Resources$/, { SweepTopic: { Type: 'AWS::SNS::Topic' } }],
  [/^resources\.Outputs$/, { SweepOutput: { Value: 'yes' } }],
  [/^resources\.Conditions$/, { SweepCondition: { 'Fn::Equals': ['a', 'a'] } }],
  [/^resources\.extensions$/, { HelloLogGroup: { Properties: { RetentionInDays: 7 } } }],
  [/^resources\.Parameters$/, { SweepParameter: { Type: 'String', Default: 'yes' } }],
  [/^resources\.Mappings$/, { SweepMap: { a: { b: 'c' } } }],
  [/^resources\.Transform$/, 'AWS::Serverless-2016-10-31'],
  [/^resources\.Metadata$/, { sweep: 'yes' }],
  [/^resources\.Rules$/, { SweepRule: { Assertions: [{ Assert: { 'Fn::Equals': ['a', 'a'] } }] } }],
  [/^resources\.Description$/, 'sweep description'],
  [/^resources\.AWSTemplateFormatVersion$/, '2010-09-09'],
  // events (shorthand forms first)
  [/\.events\.httpApi$/, 'GET /sweep'],
  [/\.events\.http$/, 'GET /sweep'],
  [/\.http\.request\.method$/, 'GET'],
  [/\.alb\.healthCheck\.matcher\.httpCode$/, '200'],
  [/\.cloudFront\.behavior\.(AllowedMethods|CachedMethods)$/, ['GET', 'HEAD']],
  [/\.schedule\.input\.body$/, '{"sweep":"yes"}'],
  [/\.events\.schedule$/, 'rate(1 hour)'],
  [/\.events\.sns$/, 'sweep'],
  [/\.events\.s3$/, 'sweep'],
  [/\.events\.stream$/, ARN.stream],
  [/\.events\.sqs$/, ARN.sqs],
  [/\.events\.websocket$/, '$connect'],
  [/\.events\.cloudwatchLog$/, '/aws/sweep'],
  [/\.events\.(alexaSkill|alexaSmartHome)$/, 'amzn1.ask.skill.sweep'],
  [/\.events\.sqs\.arn$/, ARN.sqs],
  [/\.events\.sns\.arn$/, ARN.sns],
  [/\.events\.stream\.arn$/, ARN.stream],
  [/\.events\.stream\.consumer$/, true],
  [/\.events\.stream\.type$/, 'dynamodb'],
  [/\.events\.msk\.arn$/, ARN.msk],
  [/\.(activemq|rabbitmq)\.arn$/, ARN.mq],
  [/basicAuthArn$|\.saslScram(256|512)Auth$|\.saslPlainAuth$|\.clientCertificateTlsAuth$|\.serverRootCaCertificate$/, ARN.secret],
  [/\.vpcSubnet$/, 'subnet-12345678'],
  [/\.vpcSecurityGroup$/, 'sg-12345678'],
  [/\.alb\.listenerArn$/, ARN.listener],
  [/\.alb\.conditions\.path$/, ['/sweep']],
  [/\.alb\.conditions\.ip$/, ['10.0.0.0/24']],
  [/\.alb\.conditions\.host$/, ['sweep.example.com']],
  [/\.alb\.conditions\.method$/, ['GET']],
  [/\.alb\.conditions\.header$/, { name: 'x-sweep', values: ['yes'] }],
  [/\.alb\.conditions\.query$/, { sweep: 'yes' }],
  [/\.alb\.healthCheck$/, true],
  [/\.alb\.authorizer$/, ['sweep']],
  [/\.cloudFront\.origin$/, 's3://sweep.s3.amazonaws.com/files'],
  [/\.cloudFront\.origin\.S3OriginConfig\.OriginAccessIdentity$/, 'origin-access-identity/cloudfront/E2SWEEP'],
  [/\.cloudFront\.origin\.DomainName$/, 'sweep.s3.amazonaws.com'],
  [/\.cloudFront\.cachePolicy\.id$/, '658327ea-f89d-4fab-a63d-7e88639e58f6'],
  [/\.cloudFront\.pathPattern$/, '/sweep/*'],
  [/\.schedule\.rate$/, ['rate(2 hours)']],
  [/\.schedule\.method$/, 'scheduler'],
  [/\.schedule\.timezone$/, 'Europe/Paris'],
  [/\.schedule\.(input)$/, { sweep: 'yes' }],
  [/\.schedule\.inputPath$/, '$.sweep'],
  [/\.schedule\.inputTransformer\.inputPathsMap$/, { sweep: '$.sweep' }],
  [/\.schedule\.inputTransformer\.inputTemplate$/, '{"sweep": <sweep>}'],
  [/\.cloudwatchEvent\.input$/, { sweep: 'yes' }],
  [/\.cloudwatchEvent\.inputPath$/, '$.sweep'],
  [/\.eventBridge\.input$/, { sweep: 'yes' }],
  [/\.eventBridge\.inputPath$/, '$.sweep'],
  [/\.eventBridge\.eventBus$/, ARN.eventBus],
  [/\.eventBridge\.schedule$/, 'rate(1 hour)'],
  [/\.eventBridge\.deadLetterQueueArn$/, ARN.sqs],
  [/\.eventBridge\.inputTransformer\.inputPathsMap$/, { sweep: '$.sweep' }],
  [/\.eventBridge\.inputTransformer\.inputTemplate$/, '{"sweep": <sweep>}'],
  [/\.eventBridge\.retryPolicy\.maximumEventAge$/, 120],
  [/\.eventBridge\.retryPolicy\.maximumRetryAttempts$/, 3],
  [/\.cognitoUserPool\.trigger$/, 'PostConfirmation'],
  [/\.cognitoUserPool\.kmsKeyId$/, ARN.kms],
  [/\.cognitoUserPool\.existing$/, true],
  [/\.s3\.rules$/, [{ prefix: 'uploads/' }]],
  [/\.s3\.event$/, 's3:ObjectRemoved:*'],
  [/\.s3\.existing$/, true],
  [/\.s3\.forceDeploy$/, true],
  [/\.sns\.topicName$/, 'sweep-two'],
  [/\.sns\.filterPolicy$/, { sweep: ['yes'] }],
  [/\.sns\.filterPolicyScope$/, 'MessageBody'],
  [/\.sns\.redrivePolicy\.deadLetterTargetArn$/, ARN.sqs],
  [/\.sns\.redrivePolicy\.deadLetterTargetRef$/, 'SweepQueue'],
  [/\.sns\.redrivePolicy\.deadLetterTargetImport\.arn$/, ARN.sqs],
  [/\.sns\.redrivePolicy\.deadLetterTargetImport\.url$/, 'https://sqs.us-east-1.amazonaws.com/123456789012/sweep'],
  [/\.(sqs|stream|msk|kafka|activemq|rabbitmq)\.filterPatterns$/, [{ body: { sweep: ['yes'] } }]],
  [/\.(sqs|stream|msk|kafka|activemq|rabbitmq)\.functionResponseType$/, 'ReportBatchItemFailures'],
  [/\.(sqs|stream|msk|kafka|activemq|rabbitmq)\.batchSize$/, 5],
  [/\.(sqs|stream|msk|kafka|activemq|rabbitmq)\.maximumBatchingWindow$/, 5],
  [/\.sqs\.maximumConcurrency$/, 5],
  [/\.stream\.destinations\.onFailure$/, ARN.sqs],
  [/\.stream\.destinations\.onFailure\.arn$/, ARN.sqs],
  [/\.stream\.destinations\.onFailure\.type$/, 'sqs'],
  [/\.stream\.startingPosition$/, 'TRIM_HORIZON'],
  [/\.stream\.startingPositionTimestamp$/, 1704067200],
  [/\.(msk|kafka)\.startingPosition$/, 'TRIM_HORIZON'],
  [/\.(msk|kafka)\.startingPositionTimestamp$/, 1704067200],
  [/\.stream\.parallelizationFactor$/, 2],
  [/\.stream\.tumblingWindowInSeconds$/, 60],
  [/\.stream\.maximumRecordAgeInSeconds$/, 120],
  [/\.stream\.maximumRetryAttempts$/, 3],
  [/\.stream\.bisectBatchOnFunctionError$/, true],
  [/\.(msk|kafka)\.saslScram512$/, ARN.secret],
  [/\.kafka\.bootstrapServers$/, ['b-1.sweep:9092']],
  [/\.(msk|kafka)\.consumerGroupId$/, 'sweep-group'],
  [/\.iot\.sqlVersion$/, '2016-03-23'],
  [/\.iot\.name$/, 'sweep_rule'],
  [/\.iotFleetProvisioning\.templateName$/, 'sweep-template'],
  [/\.iotFleetProvisioning\.templateBody$/, { Resources: { sweep: { Type: 'AWS::IoT::Thing' } } }],
  [/\.cloudwatchLog\.logGroup$/, '/aws/sweep-two'],
  [/\.cloudwatchLog\.filter$/, '{ $.sweep = "yes" }'],
  [/\.http\.path$/, 'sweep/{id}'],
  [/\.http\.method$/, 'post'],
  [/\.http\.authorizer$/, ARN.lambda],
  [/\.http\.authorizer\.arn$/, ARN.lambda],
  [/\.http\.authorizer\.name$/, 'sweepAuthorizer'],
  [/\.http\.authorizer\.scopes$/, ['sweep/read']],
  [/\.http\.authorizer\.type$/, 'request'],
  [/\.http\.authorizer\.identitySource$/, 'method.request.header.Authorization'],
  [/\.http\.authorizer\.identityValidationExpression$/, '^Bearer .+$'],
  [/\.http\.authorizer\.resultTtlInSeconds$/, 60],
  [/\.http\.cors\.origins$/, ['*']],
  [/\.http\.cors\.origin$/, 'https://sweep.example.com'],
  [/\.http\.cors\.headers$/, ['X-Sweep']],
  [/\.http\.cors\.methods$/, ['GET', 'OPTIONS']],
  [/\.http\.cors\.maxAge$/, 60],
  [/\.http\.cors\.cacheControl$/, 'max-age=60'],
  [/\.http\.integration$/, 'lambda'],
  [/\.http\.connectionType$/, 'vpc-link'],
  [/\.http\.connectionId$/, 'sweeplink1'],
  [/\.http\.operationId$/, 'sweepOperation'],
  [/\.http\.request\.contentHandling$/, 'CONVERT_TO_TEXT'],
  [/\.http\.request\.uri$/, 'https://sweep.example.com'],
  [/\.http\.request\.passThrough$/, 'NEVER'],
  [/\.http\.response\.contentHandling$/, 'CONVERT_TO_TEXT'],
  [/\.http\.async$/, true],
  [/\.httpApi\.path$/, '/sweep/{id}'],
  [/\.httpApi\.method$/, 'POST'],
  [/\.httpApi\.authorizer$/, 'sweep-jwt'],
  [/\.httpApi\.authorizer\.name$/, 'sweep-jwt'],
  [/\.httpApi\.authorizer\.scopes$/, ['sweep/read']],
  [/\.httpApi\.authorizer\.id$/, 'sweepauth1'],
  [/\.httpApi\.authorizer\.type$/, 'aws_iam'],
  [/\.websocket\.route$/, 'sweep'],
  [/\.websocket\.routeResponseSelectionExpression$/, '$default'],
  [/\.websocket\.authorizer$/, ARN.lambda],
  [/\.websocket\.authorizer\.arn$/, ARN.lambda],
  [/\.websocket\.authorizer\.name$/, 'sweepAuthorizer'],
  [/\.websocket\.authorizer\.identitySource$/, ['route.request.header.Auth']],
  [/\.alexaSkill\.appId$/, 'amzn1.ask.skill.sweep-two'],
  [/\.alexaSmartHome\.appId$/, 'amzn1.ask.skill.sweep-two'],
  [/\.(alexaSkill|alexaSmartHome|iot|schedule|cloudwatchEvent|eventBridge|sqs|stream|msk|kafka|activemq|rabbitmq|cloudwatchLog)\.enabled$/, false],
  [/\.eventBridge\.pattern$/, { source: ['sweep-two'] }],
  [/\.cloudwatchEvent\.event$/, { source: ['sweep-two'] }],
  [/\.cloudwatchEvent\.name$|\.eventBridge\.name$|\.schedule\.name$/, 'sweep-rule'],
  [/\.cloudFront\.eventType$/, 'origin-request'],
  [/\.cloudFront\.includeBody$/, true],
  [/\.cloudFront\.behavior$/, { ViewerProtocolPolicy: 'https-only' }],
];

/**
 * Combinations that make a setting matter, swept as cases of their own (name → companion, patch):
 * the template of the companion with the patch must be the reference's.
 */
const COMBINATIONS = [
  ['provider.s3.sweep.notificationConfiguration (with an s3 event on the bucket)', 's3', {
    provider: { s3: { sweep: { notificationConfiguration: { QueueConfigurations: [{ Event: 's3:ObjectCreated:*', Queue: ARN.sqs }] } } } },
  }],
  ['provider.cloudFront.cachePolicies (without a cloudFront event)', 'base', {
    provider: { cloudFront: { cachePolicies: { sweep: { MinTTL: 0, MaxTTL: 60, DefaultTTL: 30, ParametersInCacheKeyAndForwardedToOrigin: { CookiesConfig: { CookieBehavior: 'none' }, EnableAcceptEncodingGzip: true, HeadersConfig: { HeaderBehavior: 'none' }, QueryStringsConfig: { QueryStringBehavior: 'none' } } } } } },
  }],
  ['functions.hello.events.http.response.statusCodes (no code with pattern "")', 'event:http', {
    functions: { hello: { events: [{ http: { ...EVENTS.http, integration: 'lambda', response: { statusCodes: { 400: { pattern: '.*Bad.*' } } } } }] } },
  }],
  ['provider.apiGateway.restApiResources (list form, with a restApiId)', 'http-existing-api', {
    provider: { apiGateway: { restApiId: 'sweepapi01', restApiResources: [{ path: '/sweep', resourceId: 'sweepres01' }] } },
    functions: { hello: { events: [{ http: { path: 'sweep/{id}', method: 'get' } }] } },
  }],
  ['functions.hello.events.httpApi (an ANY route with provider.httpApi.cors)', 'httpApi', {
    provider: { httpApi: { cors: true } },
    functions: { hello: { events: [{ httpApi: { path: '/sweep', method: 'ANY' } }] } },
  }],
  ['provider.logs.frameworkLambda (with a custom resource)', 'event:s3', {
    provider: { logs: { frameworkLambda: true } },
    functions: { hello: { events: [{ s3: { bucket: 'sweep', existing: true } }] } },
  }],
  ['provider.eventBridge.useCloudFormation (false, on the default bus)', 'eventBridge', {
    provider: { eventBridge: { useCloudFormation: false } },
    functions: { hello: { events: [{ eventBridge: { ...EVENTS.eventBridge, eventBus: 'default' } }] } },
  }],
  ['functions.hello.events.http.integration (http-proxy)', 'event:http', {
    functions: { hello: { events: [{ http: { ...EVENTS.http, integration: 'http-proxy', request: { uri: 'https://sweep.example.com' } } }] } },
  }],
];

/** Leaves left out of the sweep: they select which other settings apply, they are not settings of their own. */
const SKIP = [/^provider\.name$/, /^functions\.hello\.events$/, /^package\.path$/, /^projectDir$/, /^console/, /^dashboard/];

const OWNED_ELSEWHERE = [
  /\.image(\.|$)/,
  /^provider\.ecr/,
  /^provider\.(stackPolicy|notificationArns|cfnRole|rollbackConfiguration|disableRollback|stackParameters)/,
  /^provider\.deploymentBucket\.(serverSideEncryption|sseKMSKeyId|sseCustomerAlgorithim|sseCustomerKey|sseCustomerKeyMD5|maxPreviousDeploymentArtifacts)$/,
  /^provider\.iam\.deploymentRole$/,
];

// ---------------------------------------------------------------------------
// The walk

function makeWalker(schema) {
  const defs = schema.definitions || {};
  const deref = (s) => {
    let seen = 0;
    while (s && s.$ref && seen++ < 20) s = defs[s.$ref.replace('#/definitions/', '')];
    return s;
  };
  const isIntrinsic = (s) => {
    s = deref(s);
    if (!s) return false;
    if (s.properties) {
      const keys = Object.keys(s.properties);
      return keys.length > 0 && keys.every((k) => k === 'Ref' || k.startsWith('Fn::'));
    }
    const alts = s.anyOf || s.oneOf;
    return !!alts && alts.every(isIntrinsic);
  };
  const alternatives = (s) => {
    s = deref(s);
    const alts = s && (s.anyOf || s.oneOf);
    // an object with properties and an anyOf: the anyOf constrains it (which keys are required)
    if (!alts || s.properties) return [s];
    return alts.flatMap(alternatives).filter((a) => a && !isIntrinsic(a));
  };
  const isObjectWithProperties = (s) => s && s.properties && Object.keys(s.properties).length > 0;

  /** Every leaf below `s`: { path, schema } (a scalar form and an object form both count). */
  function leaves(prefix, s, depth = 0) {
    const out = [];
    const alts = alternatives(s).filter(Boolean);
    const objects = alts.filter(isObjectWithProperties);
    const scalars = alts.filter((a) => !isObjectWithProperties(a));
    if (scalars.length && (objects.length === 0 || depth > 0)) out.push({ path: prefix, schema: { anyOf: scalars } });
    if (depth > 6) return out;
    for (const o of objects) {
      for (const [key, child] of Object.entries(o.properties)) out.push(...leaves(`${prefix}.${key}`, child, depth + 1));
    }
    return out;
  }

  /** A value the schema accepts, preferring a non-default one. */
  function sample(s, at) {
    for (const [re, value] of SAMPLES) if (re.test(at)) return structuredClone(value);
    s = deref(s);
    if (!s) return 'sweep';
    if ('const' in s) return s.const;
    if (s.enum) return s.enum[0];
    const alts = alternatives(s);
    if (alts.length > 1 || (alts.length === 1 && alts[0] !== s)) return sample(alts[0], at);
    if (s.regexp) return s.regexp.replace(/^\/\^?|\$?\/i?$/g, '');
    switch (s.type) {
      case 'boolean':
        return true;
      case 'integer':
      case 'number':
        return s.minimum > 0 ? s.minimum : Math.min(3, s.maximum ?? 3);
      case 'array':
        return [sample(s.items || {}, `${at}[]`)];
      case 'object': {
        if (s.properties) return filledObject(s, at);
        const valueSchema = s.additionalProperties || Object.values(s.patternProperties || {})[0] || {};
        return { sweep: sample(valueSchema === true ? {} : valueSchema, `${at}.sweep`) };
      }
      default:
        if (s.pattern && /^\^?arn:/.test(s.pattern)) return ARN.sns;
        return 'sweep';
    }
  }

  function filledObject(s, at) {
    const out = {};
    const required = s.required || [];
    for (const key of required) out[key] = sample(s.properties[key], `${at}.${key}`);
    if (required.length === 0 && s.properties) {
      const [key, child] = Object.entries(s.properties)[0];
      out[key] = sample(child, `${at}.${key}`);
    }
    return out;
  }

  /** The object that sets `path` to `value` in `root`, with every created ancestor's required siblings. */
  function requiredAround(rootSchema, rootPath, relPath, value) {
    const keys = relPath ? relPath.split('.') : [];
    const build = (s, i, at) => {
      if (i === keys.length) return value;
      const objects = alternatives(s).filter(isObjectWithProperties);
      const o = objects.find((x) => keys[i] in x.properties) || objects[0];
      const out = {};
      if (o) for (const key of o.required || []) if (key !== keys[i]) out[key] = sample(o.properties[key], `${at}.${key}`);
      out[keys[i]] = build(o ? o.properties[keys[i]] : {}, i + 1, `${at}.${keys[i]}`);
      // `oneOf: [{ required: [a] }, { required: [b] }]` (a CloudFront origin needs S3OriginConfig or CustomOriginConfig)
      const choices = (o && o.oneOf ? o.oneOf : []).filter((c) => Array.isArray(c.required));
      if (choices.length && !choices.some((c) => c.required.every((key) => key in out))) {
        for (const key of choices[0].required) out[key] = sample(o.properties[key], `${at}.${key}`);
      }
      return out;
    };
    return build(rootSchema, 0, rootPath);
  }

  return { deref, leaves, sample, requiredAround };
}

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Deep merge; arrays of events are concatenated so a companion's event and a swept event live side by side. */
function merge(a, b) {
  if (!isPlainObject(a) || !isPlainObject(b)) return structuredClone(b);
  const out = structuredClone(a);
  for (const [k, v] of Object.entries(b)) {
    if (v === undefined) delete out[k];
    else out[k] = k in out ? merge(out[k], v) : structuredClone(v);
  }
  return out;
}

function buildCases(schema) {
  const w = makeWalker(schema);
  const top = w.deref(schema);
  const fnSchema = w.deref(top.properties.functions).patternProperties['^[a-zA-Z0-9-_]+$'];
  const cases = [];
  const add = (settingPath, companion, patch) => {
    if (SKIP.some((re) => re.test(settingPath))) return;
    if (cases.some((c) => c.path === settingPath)) return;
    cases.push({ path: settingPath, companion, patch });
  };
  const companionOf = (p) => COMPANIONS.find(([prefix]) => p === prefix || p.startsWith(`${prefix}.`)) || [null, 'base', {}];

  // top level, provider, package, layers
  for (const [key, child] of Object.entries(top.properties)) {
    if (key === 'functions') continue;
    const rootPath = key === 'layers' ? 'layers.tools' : key;
    const rootSchema = key === 'layers' ? w.deref(child).additionalProperties : child;
    const isObjectSection = ['provider', 'package', 'layers', 'resources'].includes(key);
    const found = isObjectSection ? w.leaves(rootPath, rootSchema, 1) : [{ path: key, schema: child }];
    for (const leaf of found) {
      const rel = leaf.path.slice(rootPath.length + 1);
      const value = w.sample(leaf.schema, leaf.path);
      const [, companion, companionPatch] = companionOf(leaf.path);
      const inner = key === 'layers' ? merge({ path: 'layer' }, w.requiredAround(rootSchema, rootPath, rel, value)) : w.requiredAround(rootSchema, rootPath, rel, value);
      const patch = key === 'layers' ? { layers: { tools: inner } } : { [key]: rel ? inner : value };
      add(leaf.path, companion, merge(companionPatch, patch));
    }
  }
  // function settings
  for (const leaf of w.leaves('functions.hello', fnSchema, 1)) {
    if (leaf.path.startsWith('functions.hello.events')) continue;
    const rel = leaf.path.slice('functions.hello.'.length);
    const value = w.sample(leaf.schema, leaf.path);
    const [, companion, companionPatch] = companionOf(leaf.path);
    add(leaf.path, companion, merge(companionPatch, { functions: { hello: w.requiredAround(fnSchema, 'functions.hello', rel, value) } }));
  }
  // events
  const eventAlternatives = w.deref(fnSchema.properties.events).items.anyOf;
  for (const alt of eventAlternatives) {
    const type = Object.keys(alt.properties)[0];
    if (!(type in EVENTS)) continue;
    const eventSchema = alt.properties[type];
    const base = EVENTS[type];
    for (const leaf of w.leaves(`functions.hello.events.${type}`, eventSchema, 1)) {
      const rel = leaf.path.slice(`functions.hello.events.${type}.`.length);
      const value = w.sample(leaf.schema, leaf.path);
      const event = merge(base, w.requiredAround(eventSchema, `functions.hello.events.${type}`, rel, value));
      add(leaf.path, `event:${type}`, { functions: { hello: { events: [{ [type]: event }] } } });
    }
  }
  for (const [name, companion, patch] of COMBINATIONS) add(name, companion, patch);
  // the companions' own services
  const companions = { base: structuredClone(BASE) };
  for (const [, name, patch] of COMPANIONS) companions[name] = merge(BASE, patch);
  for (const [type, event] of Object.entries(EVENTS)) companions[`event:${type}`] = merge(BASE, { functions: { hello: { events: [{ [type]: event }] } } });
  // a swept event replaces the companion's minimal event (same position) rather than adding one
  for (const c of cases) c.service = mergeService(companions[c.companion], c.patch);
  return { cases, companions };
}

function mergeService(base, patch) {
  const baseEvents = base.functions?.hello?.events;
  const patchEvents = patch.functions?.hello?.events;
  const out = merge(base, patch);
  if (baseEvents && patchEvents) {
    const samePlace = Object.keys(patchEvents[0])[0] === Object.keys(baseEvents[0])[0];
    out.functions.hello.events = samePlace ? patchEvents : [...baseEvents, ...patchEvents];
  }
  return out;
}

// ---------------------------------------------------------------------------
// Running the reference (worker side)

function worker() {
  // The fixed clock and the offline answer to CloudFormation come from the goldens' preload (see runAll).
  const Serverless = require(path.join(process.env.FW_SWEEP_REFERENCE, 'lib/serverless'));
  const stripAnsi = (s) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
  process.on('message', async (job) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-sweep-'));
    writeServiceFiles(dir, job.service);
    let output = '';
    const writeOut = process.stdout.write.bind(process.stdout);
    const writeErr = process.stderr.write.bind(process.stderr);
    process.stdout.write = process.stderr.write = (chunk) => ((output += chunk), true);
    let result;
    try {
      process.chdir(dir);
      const sls = new Serverless({
        configuration: structuredClone(job.service),
        serviceDir: dir,
        configurationFilename: 'serverless.json',
        commands: ['package'],
        options: {},
        variablesMeta: new Map(),
      });
      await sls.init();
      await sls.run();
      const template = JSON.parse(fs.readFileSync(path.join(dir, '.serverless/cloudformation-template-update-stack.json'), 'utf8'));
      result = { template };
    } catch (error) {
      result = { error: stripAnsi(String(error && error.message)).split(dir).join('<service>') };
    } finally {
      process.stdout.write = writeOut;
      process.stderr.write = writeErr;
      process.chdir(os.tmpdir());
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const warnings = stripAnsi(output)
      .split(dir).join('<service>')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !/^(Packaging .* for stage|✔ Service packaged|Service packaged)/.test(l));
    process.send({ id: job.id, ...result, warnings });
  });
}

/** The files every sweep service has: the handler, a layer folder and an artifact. */
function writeServiceFiles(dir, service) {
  fs.writeFileSync(path.join(dir, 'serverless.json'), JSON.stringify(service, null, 2));
  fs.writeFileSync(path.join(dir, 'handler.js'), 'exports.hello = async () => ({ statusCode: 200 });\nexports.other = exports.hello;\n');
  fs.mkdirSync(path.join(dir, 'layer'));
  fs.writeFileSync(path.join(dir, 'layer', 'sweep.txt'), 'sweep\n');
}

// ---------------------------------------------------------------------------
// Recording (main side)

/** Fields that differ by construction: code hashes and the version ids built from them. */
function normalize(template) {
  return JSON.parse(
    JSON.stringify(template)
      .replace(/LambdaVersion[0-9A-Za-z]{20,}/g, 'LambdaVersion<hash>')
      .replace(/LambdaLayer(?!Qualified|Hash|S3Key)([A-Z][0-9A-Za-z]*)?Version?[0-9A-Za-z]{20,}/g, (m) => m)
      .replace(/"CodeSha256":"[^"]*"/g, '"CodeSha256":"<sha256>"'),
  );
}

/** Template entries of `t` that differ from `base`: `Section.Key` (Resources, Outputs) or `Section` → value, removed ones → null. */
function templateDiff(base, t) {
  const out = {};
  const sections = new Set([...Object.keys(base), ...Object.keys(t)]);
  for (const section of sections) {
    const a = base[section];
    const b = t[section];
    if (isPlainObject(a) && isPlainObject(b) && (section === 'Resources' || section === 'Outputs')) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) out[`${section}.${key}`] = b[key] === undefined ? null : b[key];
      }
    } else if (JSON.stringify(a) !== JSON.stringify(b)) out[section] = b === undefined ? null : b;
  }
  return out;
}

/** Results of earlier runs by service, so a re-run after a sample change only packages what changed. */
const CACHE = process.env.FW_SWEEP_CACHE || path.join(os.tmpdir(), 'fw-settings-sweep-cache');
const cacheFile = (service) => path.join(CACHE, `${require('crypto').createHash('sha256').update(JSON.stringify(service)).digest('hex')}.json`);

async function runAll(allJobs, referenceDir) {
  const count = Math.max(1, Number(process.env.FW_SWEEP_JOBS) || 2);
  const results = new Map();
  fs.mkdirSync(CACHE, { recursive: true });
  const jobs = [];
  for (const job of allJobs) {
    const file = cacheFile(job.service);
    if (job.id !== 'schema' && fs.existsSync(file)) results.set(job.id, { ...JSON.parse(fs.readFileSync(file, 'utf8')), id: job.id });
    else jobs.push(job);
  }
  const byId = new Map(jobs.map((job) => [job.id, job]));
  let next = 0;
  if (jobs.length === 0) return results;
  const preload = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-sweep-preload-')), 'reference-preload.cjs');
  clockPreload(preload);
  await Promise.all(
    Array.from({ length: Math.min(count, jobs.length) }, () =>
      new Promise((resolve, reject) => {
        const child = fork(__filename, ['--worker'], {
          env: { ...referenceEnv(), FW_SWEEP_REFERENCE: referenceDir },
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
          execArgv: ['--require', preload],
        });
        const send = () => {
          if (next >= jobs.length) return child.kill();
          child.send(jobs[next++]);
        };
        child.on('message', (m) => {
          results.set(m.id, m);
          if (m.id !== 'schema') fs.writeFileSync(cacheFile(byId.get(m.id).service), JSON.stringify(m));
          if (results.size % 50 === 0) console.log(`${results.size}/${jobs.length}`);
          send();
        });
        child.on('exit', resolve);
        child.on('error', reject);
        send();
      }),
    ),
  );
  fs.rmSync(path.dirname(preload), { recursive: true, force: true });
  return results;
}

async function dumpSchema(referenceDir) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-sweep-schema-'));
  const out = path.join(dir, 'schema.json');
  fs.writeFileSync(
    path.join(dir, 'dump-schema.js'),
    `'use strict';
module.exports = class DumpSchema {
  constructor(serverless) {
    this.hooks = { initialize: () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(serverless.configSchemaHandler.schema)) };
  }
};
`,
  );
  const service = merge(BASE, { plugins: [path.join(dir, 'dump-schema.js')], configValidationMode: 'off' });
  const r = (await runAll([{ id: 'schema', service }], referenceDir)).get('schema');
  if (!fs.existsSync(out)) throw new Error(`could not dump the reference's schema: ${r && r.error}`);
  const schema = JSON.parse(fs.readFileSync(out, 'utf8'));
  fs.rmSync(dir, { recursive: true, force: true });
  return schema;
}

async function main() {
  const ref = referenceDir();
  const filter = process.argv[2] ? new RegExp(process.argv[2]) : null;
  const schema = await dumpSchema(ref);
  const { cases, companions } = buildCases(schema);
  const selected = filter ? cases.filter((c) => filter.test(c.path)) : cases;
  const jobs = [
    ...Object.entries(companions).map(([name, service]) => ({ id: `companion:${name}`, service })),
    ...selected.map((c) => ({ id: c.path, service: c.service })),
  ];
  console.log(`${selected.length} setting(s), ${Object.keys(companions).length} companion service(s)`);
  const results = await runAll(jobs, ref);

  const previous = filter && fs.existsSync(FIXTURE) ? JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) : { companions: {}, settings: {} };
  const fixture = { reference: `serverless@${REFERENCE_VERSION}`, companions: {}, settings: filter ? previous.settings : {} };
  for (const [name, service] of Object.entries(companions)) {
    const r = results.get(`companion:${name}`);
    if (!r.template) {
      console.error(`the companion service "${name}" fails with the reference: ${r.error}`);
      process.exitCode = 1;
      continue;
    }
    fixture.companions[name] = { service, template: normalize(r.template) };
  }
  let refused = 0;
  let unchanged = 0;
  for (const c of selected) {
    const r = results.get(c.path);
    const entry = { companion: c.companion, patch: c.patch };
    if (OWNED_ELSEWHERE.some((re) => re.test(c.path))) entry.ownedElsewhere = true;
    if (!fixture.companions[c.companion]) continue;
    if (r.error) {
      entry.refusedByReference = r.error.split('\n')[0];
      refused++;
    } else {
      entry.changes = templateDiff(fixture.companions[c.companion].template, normalize(r.template));
      if (Object.keys(entry.changes).length === 0) unchanged++;
    }
    const warnings = r.warnings.filter((l) => !/^(Learn more|Configuration error|Error:|Environment:|Docs:|Support:|Bugs:)/.test(l));
    if (warnings.length) entry.warnings = warnings;
    fixture.settings[c.path] = entry;
  }
  fixture.settings = Object.fromEntries(Object.entries(fixture.settings).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  fs.writeFileSync(FIXTURE, JSON.stringify(fixture) + '\n');
  console.log(`${selected.length} setting(s): ${selected.length - refused - unchanged} change the template, ${unchanged} do not, ${refused} refused by the reference`);
  console.log(`wrote ${path.relative(REPO, FIXTURE)} (${fs.statSync(FIXTURE).size} bytes)`);
}

if (process.argv.includes('--worker')) worker();
else if (process.argv.includes('--cases')) {
  // debugging aid: print the services without running the reference
  const schema = JSON.parse(fs.readFileSync(process.argv[process.argv.indexOf('--cases') + 1], 'utf8'));
  for (const c of buildCases(schema).cases) console.log(c.path, JSON.stringify(c.patch));
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
