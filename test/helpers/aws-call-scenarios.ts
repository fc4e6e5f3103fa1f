import { CloudFormationClient, DescribeStackResourceCommand } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  /** The command line after the CLI's name; a function when it needs what an earlier step made. */
  args: string[] | ((context: ScenarioContext) => Promise<string[]>);
  recorded?: boolean;
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
];

/** SDK clients on the local cloud itself, for a scenario's unrecorded steps. */
export function scenarioContext(endpoint: string): ScenarioContext {
  const config = { endpoint, region: SCENARIO_REGION, credentials: SCENARIO_CREDENTIALS };
  return { endpoint, s3: new S3Client({ ...config, forcePathStyle: true }), cloudFormation: new CloudFormationClient(config) };
}
