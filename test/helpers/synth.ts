import { Service } from '../../src/constructs/service';
import type { ServiceConfig } from '../../src/constructs/model';
import { synthesize } from '../../src/constructs/synthesize';
import type { Template } from '../../src/synth/template';

export const ARTIFACT_DIR = 'serverless/app/dev/1704067200000-2024-01-01T00:00:00.000Z';

/** Builds and synthesizes a service in memory, every function sharing one fake zip. */
export function synth(config: Partial<ServiceConfig> & { functions?: ServiceConfig['functions'] }, codeSha256 = 'c29tZS1oYXNo'): Template {
  const full = { service: 'app', provider: { name: 'aws', runtime: 'nodejs18.x' }, ...config } as ServiceConfig;
  const service = new Service({ config: full, stage: 'dev', region: 'us-east-1', artifactDirectory: ARTIFACT_DIR, instanceId: '1704067200000' });
  const artifact = { name: 'app.zip', path: '/tmp/app.zip', sha256: 'ab', codeSha256, size: 1 };
  Object.assign(service.artifacts, { service: artifact, functions: Object.fromEntries(Object.keys(full.functions ?? {}).map(key => [key, artifact])) });
  return synthesize(service);
}

export const versionId = (template: Template, fn: string) => Object.keys(template.Resources).find(id => id.startsWith(`${fn}LambdaVersion`));
