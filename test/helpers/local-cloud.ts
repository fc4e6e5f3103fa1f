import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { S3Client } from '@aws-sdk/client-s3';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { runFw, type CliResult } from './cli';

/** A local cloud of a test's own: a free port, a temporary data folder, and SDK clients pointed at it. */
export interface TestCloud {
  cloud: RunningLocalCloud;
  dataDir: string;
  cfn: CloudFormationClient;
  s3: S3Client;
  /** Stops the server and deletes its data. */
  stop(): Promise<void>;
}

export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
/** The environment fw runs with in tests: the local credentials, no colours. */
export const TEST_ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };

export async function startTestCloud(): Promise<TestCloud> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fw-test-cloud-'));
  const cloud = await startLocalCloud({ port: 0, dataDir, quiet: true });
  const client = { endpoint: cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS };
  return {
    cloud,
    dataDir,
    cfn: new CloudFormationClient(client),
    s3: new S3Client({ ...client, forcePathStyle: true }),
    stop: async () => {
      await cloud.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A test cloud and a service folder of the test's own, with `fw` run in that folder against that cloud. */
export interface TestService extends TestCloud {
  service: string;
  fw(...args: string[]): Promise<CliResult>;
}

/** Starts a test cloud and writes `files` (name → text) into a new temporary service folder; `stop` deletes both. */
export async function startTestService(files: Record<string, string>): Promise<TestService> {
  const cloud = await startTestCloud();
  const service = mkdtempSync(join(tmpdir(), 'fw-test-service-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(service, name), text);
  return {
    ...cloud,
    service,
    fw: (...args) => runFw([...args, '--endpoint-url', cloud.cloud.url], service, TEST_ENV),
    stop: async () => {
      await cloud.stop();
      rmSync(service, { recursive: true, force: true });
    },
  };
}
