import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection } from '../deploy/connect';
import type { ServiceSummary } from '../deploy/summary';
import type { PackagedService } from '../package/service';

/** What `fw deploy` does with the options Serverless v3 scripts pass it that change no deploy step of fw's. */
export const ENFORCE_HASH_UPDATE =
  "--enforce-hash-update: nothing to do, fw's function version hashes already change with every change of code or configuration";

/** `--conceal`: the summary with every output value hidden (v3 hides secrets such as API key values). */
export function concealed(summary: ServiceSummary): ServiceSummary {
  return { ...summary, outputs: summary.outputs.map(output => ({ key: output.key, value: '*****' })) };
}

/**
 * `--aws-s3-accelerate`: the template enables S3 Transfer Acceleration on the deployment bucket (see
 * DeploymentBucket); uploads go through the accelerate endpoint once the deployed bucket has it, as v3
 * (the deploy that first enables it uploads as usual). On a local or custom endpoint it means nothing: said in one line.
 */
export async function useS3Acceleration(connection: Connection, stackName: string, accelerate: boolean, say: (line: string) => void): Promise<void> {
  const target = connection.clients.target;
  if (target.endpoint) {
    say(`--${accelerate ? '' : 'no-'}aws-s3-accelerate: ignored, this deploy goes to ${target.endpoint} (S3 Transfer Acceleration exists on AWS only)`);
    return;
  }
  if (!accelerate) return;
  const { describeStack } = require('../deploy/stack') as typeof import('../deploy/stack');
  const stack = await describeStack(connection.clients, stackName);
  const enabled = stack?.Outputs?.some(output => output.OutputKey === 'ServerlessDeploymentBucketAccelerated' && output.OutputValue === 'true');
  if (!enabled) {
    say('--aws-s3-accelerate: this deploy enables S3 Transfer Acceleration on the deployment bucket; uploads use it from the next deploy on');
    return;
  }
  const { S3Client } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  const { withTimeouts } = require('../aws/timeouts') as typeof import('../aws/timeouts');
  connection.clients.s3 = withTimeouts(
    settings =>
      new S3Client({
        region: target.region,
        ...(target.credentials ? { credentials: target.credentials } : {}),
        maxAttempts: 6,
        ...settings,
        useAccelerateEndpoint: true,
      }),
  );
  say('Using S3 Transfer Acceleration for the uploads');
}

/** `--minify-template`: the templates in the package folder (what is uploaded) rewritten without whitespace. */
export function minifyTemplates(packaged: PackagedService): void {
  const { CREATE_TEMPLATE, UPDATE_TEMPLATE } = require('../package/service') as typeof import('../package/service');
  for (const name of [UPDATE_TEMPLATE, CREATE_TEMPLATE]) {
    const file = join(packaged.outDir, name);
    if (existsSync(file)) writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))));
  }
}
