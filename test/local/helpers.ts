import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand, DescribeStackEventsCommand, type Stack, type StackEvent } from '@aws-sdk/client-cloudformation';
import { S3Client } from '@aws-sdk/client-s3';
import { ZipFile } from 'yazl';
import { startLocalCloud, type RunningLocalCloud, type StartOptions } from '../../src/local/index';

// The SDK warns once per process that Node 20 support ends; tests need not say so.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export const credentials = { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' };

export interface TestCloud {
  cloud: RunningLocalCloud;
  dataDir: string;
  cfn: CloudFormationClient;
  s3: S3Client;
  config: { endpoint: string; region: string; credentials: typeof credentials };
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export async function startTestCloud(dataDir = mkdtempSync(join(tmpdir(), 'fw-local-')), options: Partial<StartOptions> = {}): Promise<TestCloud> {
  const cloud = await startLocalCloud({ port: 0, dataDir, quiet: true, ...options });
  const config = { endpoint: cloud.url, region: 'us-east-1', credentials };
  const cfn = new CloudFormationClient({ ...config, maxAttempts: 1 });
  const s3 = new S3Client({ ...config, forcePathStyle: true, maxAttempts: 1 });
  return {
    cloud,
    dataDir,
    cfn,
    s3,
    config,
    async stop(options = {}) {
      cfn.destroy();
      s3.destroy();
      await cloud.stop();
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls DescribeStacks until the stack leaves *_IN_PROGRESS, as a deploy would. */
export async function settle(cfn: CloudFormationClient, stackName: string, timeoutMs = 10_000): Promise<Stack> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { Stacks } = await cfn.send(new DescribeStacksCommand({ StackName: stackName }));
    const stack = Stacks![0];
    if (!stack.StackStatus!.endsWith('_IN_PROGRESS') || stack.StackStatus === 'REVIEW_IN_PROGRESS') return stack;
    if (Date.now() > deadline) throw new Error(`stack ${stackName} still ${stack.StackStatus}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Events oldest first, as `LogicalId STATUS` lines. */
export async function eventLines(cfn: CloudFormationClient, stackName: string): Promise<string[]> {
  const events: StackEvent[] = [];
  let token: string | undefined;
  do {
    const page = await cfn.send(new DescribeStackEventsCommand({ StackName: stackName, NextToken: token }));
    events.push(...page.StackEvents!);
    token = page.NextToken;
  } while (token);
  return events.reverse().map((event) => `${event.LogicalResourceId} ${event.ResourceStatus}`);
}

export function outputsOf(stack: Stack): Record<string, string> {
  return Object.fromEntries((stack.Outputs ?? []).map((output) => [output.OutputKey!, output.OutputValue!]));
}

/** The error a promise rejects with, or undefined when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<(Error & { $metadata?: { httpStatusCode?: number } }) | undefined> {
  return promise.then(
    () => undefined,
    (error: Error) => error,
  );
}

/** A zip of the given files, as a deploy uploads function code. */
export function zip(files: Record<string, string>, executables: string[] = []): Promise<Buffer> {
  const archive = new ZipFile();
  for (const [name, content] of Object.entries(files)) archive.addBuffer(Buffer.from(content), name, executables.includes(name) ? { mode: 0o100755 } : {});
  archive.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    archive.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    archive.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    archive.outputStream.on('error', reject);
  });
}

/**
 * The Authorization header of a SigV4 signature (with a made-up signature), for raw
 * requests in tests about something else: the local cloud refuses unsigned management
 * requests, and checks more than the shape only when started with credentials.
 */
export function signatureShaped(service = 's3'): { authorization: string } {
  return { authorization: `AWS4-HMAC-SHA256 Credential=AKIDLOCAL/20250101/us-east-1/${service}/aws4_request, SignedHeaders=host, Signature=${'0'.repeat(64)}` };
}

/**
 * A value with the fields whose values vary (ids, times, keys) replaced by `<pattern>` when they
 * have their shape, for a whole-object comparison: `shapes` maps a path pattern
 * (`requestContext.requestId`, `headers.X-(A|B)`) to the shape its values must have.
 */
export function shaped(value: unknown, shapes: Record<string, RegExp>, path = ''): unknown {
  if (Array.isArray(value)) return value.map((item, i) => shaped(item, shapes, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shaped(item, shapes, path ? `${path}.${key}` : key)]));
  }
  for (const [pattern, shape] of Object.entries(shapes)) {
    if (new RegExp(`^${pattern}$`).test(path)) return shape.test(String(value)) ? `<${pattern}>` : `${String(value)} does not match ${shape}`;
  }
  return value;
}

/** `requestContext.identity` of a payload 1.0 event from an unsigned, unauthenticated caller: AWS's documented fields, null. */
export const UNKNOWN_CALLER = {
  accessKey: null,
  accountId: null,
  caller: null,
  cognitoAuthenticationProvider: null,
  cognitoAuthenticationType: null,
  cognitoIdentityId: null,
  cognitoIdentityPoolId: null,
  principalOrgId: null,
  user: null,
  userArn: null,
};
