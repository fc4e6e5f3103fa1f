import { CloudFormationClient, DescribeStackResourceCommand } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeZip, zipEntry } from '../../src/artifacts/zip';

/**
 * The scenarios whose AWS calls Serverless v3 and fw are compared on: each a service and a few
 * commands, run once by the reference (scripts/aws-call-goldens.js records the goldens in
 * test/fixtures/aws-calls/) and once by fw (test/deploy/aws-calls.test.ts). The same arguments go
 * to both CLIs; only the steps marked `recorded` are compared.
 */

export interface ScenarioContext {
  /** The local cloud's own URL (not the recorder's): setup work is not recorded. */
  endpoint: string;
  s3: S3Client;
  cloudFormation: CloudFormationClient;
}

export interface ScenarioStep {
  /** Files (re)written in the service folder before the command. */
  files?: Record<string, string>;
  /** Unrecorded work before the command (a bucket, an object to deploy from). */
  before?: (context: ScenarioContext) => Promise<void>;
  /** Environment for the command (beside the fake keys both runners set), given the service folder. */
  env?: (serviceDir: string) => Record<string, string>;
  /** The command line after the CLI's name; a function when it needs what an earlier step made. */
  args: string[] | ((context: ScenarioContext) => Promise<string[]>);
  recorded?: boolean;
  /**
   * Reads compared too, because they carry a setting (`GetApiKey` with `includeValue`, the metrics
   * asked for, the deployments listed): other reads are each CLI's own business.
   */
  comparedReads?: RegExp;
}

export interface Scenario {
  name: string;
  steps: ScenarioStep[];
}

export const SCENARIO_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
export const SCENARIO_REGION = 'us-east-1';

const handler = (answer: string) => `exports.main = async () => ({ statusCode: 200, body: ${JSON.stringify(answer)} });\n`;

/** A service file: `rec`, one function `hello`, plus the lines given under `provider` and at the top level. */
function serviceFile(options: { provider?: string[]; top?: string[]; events?: string[]; functionLines?: string[] } = {}): string {
  return [
    'service: rec',
    "frameworkVersion: '3'",
    'provider:',
    '  name: aws',
    '  runtime: nodejs20.x',
    ...(options.provider ?? []).map(line => `  ${line}`),
    'functions:',
    '  hello:',
    '    handler: handler.main',
    ...(options.functionLines ?? []).map(line => `    ${line}`),
    ...(options.events ? ['    events:', ...options.events.map(line => `      ${line}`)] : []),
    ...(options.top ?? []),
    '',
  ].join('\n');
}

const files = (service: string, answer = 'A') => ({ 'serverless.yml': service, 'handler.js': handler(answer) });

/** A zip holding `handler.js` answering `answer`: what `package.artifact` points at in S3. */
export function handlerZip(answer: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'fw-handler-zip-'));
  try {
    writeZip(join(dir, 'code.zip'), [zipEntry('handler.js', Buffer.from(handler(answer)), false)]);
    return readFileSync(join(dir, 'code.zip'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function putArtifact(context: ScenarioContext, answer: string): Promise<void> {
  await context.s3.send(new CreateBucketCommand({ Bucket: 'rec-artifacts' })).catch(() => undefined);
  await context.s3.send(new PutObjectCommand({ Bucket: 'rec-artifacts', Key: 'code/hello.zip', Body: handlerZip(answer) }));
}

/** The timestamp of the oldest deployment stored in the stack's deployment bucket (what `rollback -t` takes). */
async function firstDeployment(context: ScenarioContext): Promise<string> {
  const bucket = await context.cloudFormation.send(new DescribeStackResourceCommand({ StackName: 'rec-dev', LogicalResourceId: 'ServerlessDeploymentBucket' }));
  const listing = await context.s3.send(new ListObjectsV2Command({ Bucket: bucket.StackResourceDetail!.PhysicalResourceId!, Prefix: 'serverless/rec/dev/' }));
  const timestamps = (listing.Contents ?? []).map(object => Number(/serverless\/rec\/dev\/(\d+)-/.exec(object.Key ?? '')?.[1])).filter(Number.isFinite);
  return String(Math.min(...timestamps));
}

/** Writes a step's files into the service folder (a name may hold folders: `layer/nodejs/util.js`). */
export function writeStepFiles(serviceDir: string, stepFiles: Record<string, string> = {}): void {
  for (const [name, text] of Object.entries(stepFiles)) {
    mkdirSync(dirname(join(serviceDir, name)), { recursive: true });
    writeFileSync(join(serviceDir, name), text);
  }
}

/** The access key of the `p1` profile the `aws-profile` scenario deploys with (the recorder reads it from each signature). */
export const PROFILE_ACCESS_KEY = 'p1profilekey';

/** A shared credentials file outside the service folder (so no CLI packages it) with profile `p1`. */
function profileEnv(): Record<string, string> {
  const dir = join(tmpdir(), `fw-aws-calls-profiles-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'credentials'), `[p1]\naws_access_key_id = ${PROFILE_ACCESS_KEY}\naws_secret_access_key = p1secret\n`);
  return { AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'), AWS_CONFIG_FILE: join(dir, 'config') };
}

async function createBucket(context: ScenarioContext, bucket: string): Promise<void> {
  await context.s3.send(new CreateBucketCommand({ Bucket: bucket }));
}

const plain = serviceFile();

const restEvent = ['- http: GET /hello'];
const stageSettings = serviceFile({
  provider: [
    'tracing:',
    '  apiGateway: true',
    'apiGateway:',
    '  metrics: true',
    'logs:',
    '  restApi:',
    '    accessLogging: true',
    '    executionLogging: true',
    '    level: INFO',
    '    fullExecutionData: true',
    "    format: '{\"requestId\":\"$context.requestId\"}'",
    'stackTags:',
    '  team: payments',
    'tags:',
    '  cost: shop',
  ],
  events: restEvent,
});

export const SCENARIOS: Scenario[] = [
  { name: 'first-deploy', steps: [{ files: files(plain), args: ['deploy'], recorded: true }] },
  { name: 'update', steps: [{ files: files(plain), args: ['deploy'] }, { files: files(plain, 'B'), args: ['deploy'], recorded: true }] },
  { name: 'no-change', steps: [{ files: files(plain), args: ['deploy'] }, { args: ['deploy'], recorded: true }] },
  { name: 'force', steps: [{ files: files(plain), args: ['deploy'] }, { args: ['deploy', '--force'], recorded: true }] },
  { name: 'remove', steps: [{ files: files(plain), args: ['deploy'] }, { args: ['remove'], recorded: true }] },
  {
    name: 'deploy-function',
    steps: [{ files: files(plain), args: ['deploy'] }, { files: files(plain, 'B'), args: ['deploy', 'function', '--function', 'hello'], recorded: true }],
  },
  {
    name: 'rollback',
    steps: [
      { files: files(plain), args: ['deploy'] },
      { files: files(plain, 'B'), args: ['deploy'] },
      { args: async context => ['rollback', '--timestamp', await firstDeployment(context)], recorded: true },
    ],
  },
  { name: 'info', steps: [{ files: files(plain), args: ['deploy'] }, { args: ['info'], recorded: true }] },
  {
    name: 'stack-policy',
    steps: [
      { files: files(plain), args: ['deploy'] },
      {
        files: files(serviceFile({ provider: ['stackPolicy:', '  - Effect: Allow', '    Principal: "*"', '    Action: "Update:*"', '    Resource: "*"'] })),
        args: ['deploy'],
        recorded: true,
      },
    ],
  },
  {
    name: 'notification-arns',
    steps: [{ files: files(serviceFile({ provider: ['notificationArns:', '  - arn:aws:sns:us-east-1:000000000000:deploys'] })), args: ['deploy'], recorded: true }],
  },
  { name: 'cfn-role', steps: [{ files: files(serviceFile({ provider: ['cfnRole: arn:aws:iam::000000000000:role/deployer'] })), args: ['deploy'], recorded: true }] },
  {
    name: 'rollback-configuration',
    steps: [
      {
        files: files(
          serviceFile({
            provider: [
              'rollbackConfiguration:',
              '  MonitoringTimeInMinutes: 5',
              '  RollbackTriggers:',
              '    - Arn: arn:aws:cloudwatch:us-east-1:000000000000:alarm:errors',
              '      Type: AWS::CloudWatch::Alarm',
            ],
          }),
        ),
        args: ['deploy'],
        recorded: true,
      },
    ],
  },
  {
    name: 'stack-parameters',
    // An update: on a first deploy v3 sends the parameters with the bucket-only stack, which declares
    // none, and CloudFormation refuses it ("Parameters: [Team] do not exist in the template").
    steps: [
      { files: files(serviceFile({ top: ['resources:', '  Parameters:', '    Team:', '      Type: String', '      Default: none'] })), args: ['deploy'] },
      {
        files: files(
          serviceFile({
            provider: ['stackParameters:', '  - ParameterKey: Team', '    ParameterValue: payments'],
            top: ['resources:', '  Parameters:', '    Team:', '      Type: String', '      Default: none'],
          }),
        ),
        args: ['deploy'],
        recorded: true,
      },
    ],
  },
  { name: 'stack-tags', steps: [{ files: files(serviceFile({ provider: ['stackTags:', '  team: payments', '  STAGE: custom'] })), args: ['deploy'], recorded: true }] },
  {
    name: 'deployment-bucket-named',
    steps: [
      {
        before: async context => void (await context.s3.send(new CreateBucketCommand({ Bucket: 'rec-deploys' }))),
        files: files(
          serviceFile({
            provider: [
              'deploymentBucket:',
              '  name: rec-deploys',
              '  serverSideEncryption: AES256',
              '  tags:',
              '    owner: platform',
              '  blockPublicAccess: true',
              '  versioning: true',
            ],
          }),
        ),
        args: ['deploy'],
        recorded: true,
      },
    ],
  },
  {
    name: 'deployment-bucket-settings',
    steps: [
      {
        files: files(
          serviceFile({
            provider: ['deploymentBucket:', '  serverSideEncryption: aws:kms', '  sseKMSKeyId: alias/deploys', '  blockPublicAccess: true', '  versioning: true', '  maxPreviousDeploymentArtifacts: 2'],
          }),
        ),
        args: ['deploy'],
        recorded: true,
      },
    ],
  },
  { name: 's3-accelerate', steps: [{ files: files(plain), args: ['deploy', '--aws-s3-accelerate'], recorded: true }] },
  {
    name: 'rest-stage-settings',
    steps: [
      { files: files(stageSettings), args: ['deploy'], recorded: true },
      { files: files(serviceFile({ events: restEvent })), args: ['deploy'], recorded: true },
    ],
  },
  {
    name: 'artifact-from-s3',
    steps: [
      { before: context => putArtifact(context, 'A'), files: files(serviceFile({ top: ['package:', '  artifact: s3://rec-artifacts/code/hello.zip'] })), args: ['deploy'], recorded: true },
      { before: context => putArtifact(context, 'B'), args: ['deploy'], recorded: true },
    ],
  },
  {
    name: 'function-artifact-from-s3',
    // With `package.individually`, as v3's docs show it: without, v3 still looks for the service zip and fails.
    steps: [
      { before: context => putArtifact(context, 'A'), files: files(serviceFile({ top: ['package:', '  individually: true'], functionLines: ['package:', '  artifact: s3://rec-artifacts/code/hello.zip'] })), args: ['deploy'], recorded: true },
    ],
  },
  {
    name: 'deployment-method-direct',
    steps: [
      { files: files(serviceFile({ provider: ['deploymentMethod: direct'] })), args: ['deploy'], recorded: true },
      { files: files(serviceFile({ provider: ['deploymentMethod: direct'] }), 'B'), args: ['deploy'], recorded: true },
    ],
  },
  {
    name: 'deployment-method-direct-disable-rollback',
    steps: [
      { files: files(serviceFile({ provider: ['deploymentMethod: direct', 'disableRollback: true'] })), args: ['deploy'], recorded: true },
      { files: files(serviceFile({ provider: ['deploymentMethod: direct', 'disableRollback: true'] }), 'B'), args: ['deploy'], recorded: true },
    ],
  },
  {
    name: 'disable-rollback',
    steps: [
      { files: files(serviceFile({ provider: ['disableRollback: true'] })), args: ['deploy'], recorded: true },
      { files: files(serviceFile({ provider: ['disableRollback: true'] }), 'B'), args: ['deploy'], recorded: true },
    ],
  },
  {
    name: 'stack-name',
    steps: [
      { files: files(serviceFile({ provider: ['stackName: rec-custom-stack'] })), args: ['deploy'], recorded: true },
      { args: ['info'], recorded: true },
      { args: ['remove'], recorded: true },
    ],
  },
  {
    name: 'deployment-prefix',
    steps: [
      { files: files(serviceFile({ provider: ['deploymentPrefix: releases'] })), args: ['deploy'], recorded: true },
      { files: files(serviceFile({ provider: ['deploymentPrefix: releases'] }), 'B'), args: ['deploy'], recorded: true },
      { args: ['deploy', 'list'], recorded: true, comparedReads: /^ListObjects/ },
    ],
  },
  {
    name: 'deployment-bucket-skip-policy',
    steps: [{ files: files(serviceFile({ provider: ['deploymentBucket:', '  skipPolicySetup: true', '  tags:', '    owner: platform'] })), args: ['deploy'], recorded: true }],
  },
  {
    name: 'deployment-bucket-named-skip-policy',
    steps: [
      {
        before: context => createBucket(context, 'rec-deploys'),
        files: files(serviceFile({ provider: ['deploymentBucket:', '  name: rec-deploys', '  skipPolicySetup: true', '  blockPublicAccess: true'] })),
        args: ['deploy'],
        recorded: true,
      },
    ],
  },
  {
    name: 'max-previous-artifacts',
    steps: [
      { files: files(serviceFile({ provider: ['deploymentBucket:', '  maxPreviousDeploymentArtifacts: 1'] })), args: ['deploy'] },
      { files: files(serviceFile({ provider: ['deploymentBucket:', '  maxPreviousDeploymentArtifacts: 1'] }), 'B'), args: ['deploy'], recorded: true },
      { files: files(serviceFile({ provider: ['deploymentBucket:', '  maxPreviousDeploymentArtifacts: 1'] }), 'C'), args: ['deploy'], recorded: true },
    ],
  },
  { name: 'deployment-role', steps: [{ files: files(serviceFile({ provider: ['iam:', '  deploymentRole: arn:aws:iam::000000000000:role/deployer'] })), args: ['deploy'], recorded: true }] },
  {
    name: 'api-keys',
    steps: [
      {
        files: files(
          serviceFile({
            provider: [
              'apiGateway:',
              '  apiKeys:',
              '    - free-key',
              '    - name: paid-key',
              '      value: paidkeyvalue0123456789',
              '      description: for paying customers',
              '  usagePlan:',
              '    quota:',
              '      limit: 5000',
              '      period: MONTH',
              '    throttle:',
              '      burstLimit: 200',
              '      rateLimit: 100',
            ],
            events: ['- http:', '    path: hello', '    method: get', '    private: true'],
          }),
        ),
        args: ['deploy'],
        recorded: true,
        comparedReads: /^GetApiKey$/,
      },
      { args: ['info'], recorded: true, comparedReads: /^GetApiKey$/ },
    ],
  },
  {
    name: 'layers',
    steps: [
      {
        files: {
          ...files(
            serviceFile({
              provider: ['layers:', '  - arn:aws:lambda:us-east-1:000000000000:layer:shared:3'],
              functionLines: ['layers:', '  - { Ref: CommonLambdaLayer }', '  - arn:aws:lambda:us-east-1:000000000000:layer:shared:3'],
              top: ['layers:', '  common:', '    path: layer', '    compatibleRuntimes:', '      - nodejs20.x'],
            }),
          ),
          'layer/nodejs/util.js': 'exports.answer = 1;\n',
        },
        args: ['deploy'],
        recorded: true,
      },
      { files: { 'layer/nodejs/util.js': 'exports.answer = 2;\n' }, args: ['deploy'], recorded: true },
    ],
  },
  {
    name: 's3-existing-bucket',
    steps: [
      {
        before: context => createBucket(context, 'rec-uploads'),
        files: files(serviceFile({ events: ['- s3:', '    bucket: rec-uploads', '    event: s3:ObjectCreated:*', '    existing: true', '    rules:', '      - prefix: uploads/'] })),
        args: ['deploy'],
        recorded: true,
      },
    ],
  },
  {
    name: 'provider-s3-bucket',
    steps: [
      {
        files: files(
          serviceFile({
            provider: ['s3:', '  uploads:', '    name: rec-provider-uploads', '    versioningConfiguration:', '      Status: Enabled'],
            events: ['- s3:', '    bucket: uploads', '    event: s3:ObjectCreated:*'],
          }),
        ),
        args: ['deploy'],
        recorded: true,
      },
    ],
  },
  {
    name: 'ecr-image-uri',
    // `provider.ecr.images` with a `path` makes v3 build with docker, which this recording has no daemon for;
    // an image given by `uri` is what v3 deploys without docker.
    steps: [
      {
        files: {
          'serverless.yml': [
            'service: rec',
            "frameworkVersion: '3'",
            'provider:',
            '  name: aws',
            '  ecr:',
            '    images:',
            '      app:',
            '        uri: 000000000000.dkr.ecr.us-east-1.amazonaws.com/rec@sha256:6bb600b4d6e1d7cf521097177dd0c4e9ea373edb91984a505333be8ac9455d38',
            'functions:',
            '  hello:',
            '    image:',
            '      name: app',
            '',
          ].join('\n'),
        },
        args: ['deploy'],
        recorded: true,
      },
    ],
  },
  {
    name: 'deploy-package-dir',
    steps: [
      { files: files(plain), args: ['package', '--package', 'artifacts'] },
      { args: ['deploy', '--package', 'artifacts'], recorded: true },
    ],
  },
  {
    // v3's `deploy` with `package.path` deploys what `package` wrote there, as `deploy --package` does.
    name: 'package-path',
    steps: [
      { files: files(serviceFile({ top: ['package:', '  path: build'] })), args: ['package'] },
      { files: files(serviceFile({ top: ['package:', '  path: build'] }), 'B'), args: ['deploy'], recorded: true },
    ],
  },
  {
    name: 'package-path-not-packaged',
    steps: [{ files: files(serviceFile({ top: ['package:', '  path: build'] })), args: ['deploy'], recorded: true }],
  },
  {
    name: 'deploy-list',
    steps: [
      { files: files(plain), args: ['deploy'] },
      { files: files(plain, 'B'), args: ['deploy'] },
      { args: ['deploy', 'list'], recorded: true, comparedReads: /^ListObjects/ },
      { args: ['deploy', 'list', 'functions'], recorded: true, comparedReads: /^(ListFunctions|ListVersionsByFunction)$/ },
    ],
  },
  {
    name: 'deploy-function-config',
    steps: [
      { files: files(plain), args: ['deploy'] },
      {
        files: files(serviceFile({ functionLines: ['timeout: 12', 'memorySize: 256', 'environment:', '  MODE: fast'] }), 'B'),
        args: ['deploy', 'function', '--function', 'hello', '--update-config'],
        recorded: true,
      },
    ],
  },
  {
    name: 'rollback-function',
    steps: [
      { files: files(plain), args: ['deploy'] },
      { files: files(plain, 'B'), args: ['deploy'] },
      { args: ['rollback', 'function', '--function', 'hello', '--function-version', '1'], recorded: true },
    ],
  },
  {
    name: 'invoke',
    steps: [
      { files: files(plain), args: ['deploy'] },
      { args: ['invoke', '--function', 'hello', '--log', '--data', '{"a":1}'], recorded: true },
      { args: ['invoke', '--function', 'hello', '--qualifier', '1', '--type', 'Event'], recorded: true },
      { args: ['invoke', '--function', 'hello', '--raw', '--data', 'plain text', '--context', '{"user":"ada"}'], recorded: true },
      { args: ['invoke', '--function', 'hello', '--type', 'DryRun'], recorded: true },
    ],
  },
  {
    name: 'logs',
    steps: [
      { files: files(plain), args: ['deploy'] },
      { args: ['invoke', '--function', 'hello'] },
      { args: ['logs', '--function', 'hello', '--startTime', '2020-01-01T00:00:00Z', '--filter', 'REPORT'], recorded: true, comparedReads: /^(FilterLogEvents|DescribeLogStreams)$/ },
    ],
  },
  {
    name: 'metrics-function',
    steps: [
      { files: files(plain), args: ['deploy'] },
      { args: ['metrics', '--function', 'hello', '--startTime', '2020-01-01T00:00:00Z', '--endTime', '2020-01-02T00:00:00Z'], recorded: true, comparedReads: /^GetMetric(Statistics|Data)$/ },
    ],
  },
  {
    name: 'metrics-service',
    steps: [
      { files: files(plain), args: ['deploy'] },
      { args: ['metrics', '--startTime', '2020-01-01T00:00:00Z', '--endTime', '2020-01-02T00:00:00Z'], recorded: true, comparedReads: /^GetMetric(Statistics|Data)$/ },
    ],
  },
  {
    name: 'remove-versioned-bucket',
    steps: [
      { files: files(serviceFile({ provider: ['deploymentBucket:', '  versioning: true'] })), args: ['deploy'] },
      { files: files(serviceFile({ provider: ['deploymentBucket:', '  versioning: true'] }), 'B'), args: ['deploy'] },
      { args: ['remove'], recorded: true },
    ],
  },
  {
    name: 'stage-and-region',
    steps: [
      { files: files(plain), args: ['deploy', '--stage', 'prod', '--region', 'eu-west-1'], recorded: true },
      { args: ['info', '--stage', 'prod', '--region', 'eu-west-1'], recorded: true },
      { args: ['remove', '--stage', 'prod', '--region', 'eu-west-1'], recorded: true },
    ],
  },
  {
    name: 'remove-named-bucket',
    steps: [
      {
        before: context => createBucket(context, 'rec-deploys'),
        files: files(serviceFile({ provider: ['deploymentBucket:', '  name: rec-deploys'] })),
        args: ['deploy'],
      },
      { args: ['remove'], recorded: true },
    ],
  },
  {
    name: 'rollback-without-timestamp',
    steps: [
      { files: files(plain), args: ['deploy'] },
      { files: files(plain, 'B'), args: ['deploy'] },
      { args: ['rollback'], recorded: true, comparedReads: /^ListObjects/ },
    ],
  },
  { name: 'info-verbose', steps: [{ files: files(plain), args: ['deploy'] }, { args: ['info', '--verbose'], recorded: true }] },
  { name: 'print', steps: [{ files: files(plain), args: ['print'], recorded: true }] },
  { name: 'aws-profile', steps: [{ files: files(plain), env: profileEnv, args: ['deploy', '--aws-profile', 'p1'], recorded: true }] },
];

/** SDK clients on the local cloud itself, for a scenario's unrecorded steps. */
export function scenarioContext(endpoint: string): ScenarioContext {
  const config = { endpoint, region: SCENARIO_REGION, credentials: SCENARIO_CREDENTIALS };
  return { endpoint, s3: new S3Client({ ...config, forcePathStyle: true }), cloudFormation: new CloudFormationClient(config) };
}
