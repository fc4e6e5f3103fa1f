import { ConfigError } from '../errors';
import type { Drift, PackagedService, PackageState } from '../package/service';
import { STATE_FILE } from '../package/service';
import * as naming from '../synth/naming';
import type { Template } from '../synth/template';
import { lambdaClient, type AwsClients } from '../aws/clients';
import { listDeployments, readJson, uploadAll, type Upload } from './bucket';
import type { Reporter } from './deploy';
import { pruneDeployments } from './deploy';
import { keptDeployments, uploadEncryption } from '../package/stack-settings';
import { updateFunctionInPlace, type KnownConfigurations } from './deploy-function';
import { currentTemplate } from './deployed';
import { deploymentBucketOf, describeStack } from './stack';
import { timed } from '../terminal/timings';

/** Stage names hotswap refuses without --hotswap-production: a drifted production stack is a surprise for the next person. */
const PRODUCTION_STAGE = /(^|[-_.])(prod|production|prd|live)([-_.]|$)/i;

/** What a hotswap writes into the deployment state: the stack runs code and settings its template does not say. */

/** The newest deployment folder under the service's prefix and the state written there. */
async function lastState(clients: AwsClients, bucket: string, servicePrefix: string): Promise<{ folder: string; state: PackageState | undefined } | undefined> {
  const previous = (await listDeployments(clients, bucket, servicePrefix)).at(-1);
  return previous && { folder: previous.folder, state: await readJson<PackageState>(clients, bucket, `${previous.folder}/${STATE_FILE}`) };
}

/** The functions drifted after `functions` were updated in place, on top of those the last state names. */
function drift(previousState: PackageState, functions: string[]): Drift {
  return { hotswappedAt: new Date().toISOString(), functions: [...new Set([...(previousState.drift?.functions ?? []), ...functions])].sort() };
}

/**
 * The last deployment's state, moved to `folder` and marked as drifted by `functions`: its package hash
 * stays, and its artifacts are named where they are (the last deployment's folder or earlier ones).
 */
function driftedState(previousFolder: string, previousState: PackageState, folder: string, functions: string[]): PackageState {
  const artifactKeys = Object.fromEntries(previousState.artifacts.map(a => [a.name, previousState.artifactKeys?.[a.name] ?? `${previousFolder}/${a.name}`]));
  return { ...previousState, artifactDirectory: folder, artifactKeys, drift: drift(previousState, functions) };
}

/**
 * After `fw deploy function`: writes the last deployment's state, marked as drifted by `functions`, into
 * this package's folder, so the next full deploy goes through CloudFormation and sets them to what its
 * package says. Nothing when fw has not deployed the service before.
 */
export async function recordDrift(packaged: PackagedService, clients: AwsClients, bucket: string, functions: string[]): Promise<void> {
  const folder = packaged.state.artifactDirectory;
  const servicePrefix = folder.split('/').slice(0, -1).join('/');
  // This command's own folder (holding the code it just uploaded) is the newest: the state is in the one before.
  const previous = (await listDeployments(clients, bucket, servicePrefix)).filter(deployment => deployment.folder !== folder).at(-1);
  const previousState = previous ? await readJson<PackageState>(clients, bucket, `${previous.folder}/${STATE_FILE}`) : undefined;
  if (!previous || !previousState) return;
  const recorded = driftedState(previous.folder, previousState, folder, functions);
  await uploadAll(clients, bucket, [{ key: `${folder}/${STATE_FILE}`, body: JSON.stringify(recorded, null, 2), sha256: recorded.deploymentHash }]);
}

/**
 * What a hotswap knows of the deployed service afterwards: handed to the next hotswap of the same
 * process (fw dev), it skips the requests that would read it again (stack, last state, template).
 * It assumes no one else deploys the stage meanwhile; a full deploy reads everything again.
 */
export interface KnownDeployment {
  stack: import('@aws-sdk/client-cloudformation').Stack;
  /** The template the stack was deployed with (a hotswap leaves it as it is). */
  template: Template;
  /** The newest deployment folder in the bucket and the state written there. */
  folder: string;
  state: PackageState;
  /** The functions' configurations as the last hotswap's Lambda calls answered them (no GetFunction for those next time). */
  functions: KnownConfigurations;
}

export type HotswapResult =
  | {
      hotswapped: string[];
      known: KnownDeployment;
      /** Removes old deployment folders: the caller runs it once it has reported the hotswap. */
      cleanup: () => Promise<void>;
    }
  | { unchanged: true }
  | { notPossible: string };

/** Function settings the Lambda API sets in place (the code aside), as `deploy function` applies them. */
const SWAPPABLE_SETTINGS = ['Handler', 'Runtime', 'MemorySize', 'Timeout', 'Description', 'Environment'];

/** Refuses a hotswap on a stage named like production unless allowed; `instead` says what else to run. */
export function refuseProductionHotswap(stage: string, allowed: boolean, instead = 'Deploy without --hotswap'): void {
  if (PRODUCTION_STAGE.test(stage) && !allowed) {
    throw new ConfigError(
      `Refusing to hotswap stage "${stage}": it is named like production and a hotswap leaves its stack drifted from its template. ${instead}, or add --hotswap-production`,
    );
  }
}

// No environment is an empty one, which the Lambda API sets as well.
const isPlain = (name: string, value: unknown) =>
  name === 'Environment'
    ? Object.values((value as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {}).every(v => typeof v !== 'object')
    : value !== undefined && typeof value !== 'object';

/**
 * The template with what changes on every package or is applied in place made equal: artifact
 * folders, the REST deployment's and functions' version ids (renamed after their function), each
 * function's code and its plain settings (when the other template has a plain value too).
 */
function comparable(template: Template, other: Template, servicePrefix: string): Template {
  const renames: Array<[string, string]> = [];
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type === 'AWS::Lambda::Version') {
      const fn = ((resource.Properties as { FunctionName?: { Ref?: string } } | undefined)?.FunctionName?.Ref) ?? id;
      renames.push([id, `${fn}<version>`]);
    } else if (resource.Type === 'AWS::ApiGateway::Deployment') renames.push([id, 'ApiGatewayDeployment<id>']);
  }
  let text = JSON.stringify(template).split(`${servicePrefix}/`).join('<artifacts>/').replace(/<artifacts>\/\d+-[^/"]+\//g, '<artifacts>/');
  for (const [id, name] of renames) text = text.split(`"${id}"`).join(JSON.stringify(name));
  const result = JSON.parse(text) as Template;
  for (const [id, resource] of Object.entries(result.Resources)) {
    const properties = resource.Properties as Record<string, unknown> | undefined;
    if (!properties) continue;
    if (resource.Type === 'AWS::Lambda::Version') delete properties.CodeSha256;
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    delete properties.Code;
    const otherProperties = (other.Resources[id]?.Properties ?? {}) as Record<string, unknown>;
    for (const name of SWAPPABLE_SETTINGS) {
      if (isPlain(name, properties[name]) && isPlain(name, otherProperties[name])) delete properties[name];
    }
  }
  return result;
}

/**
 * Why the new template cannot be applied by updating functions in place: each resource added,
 * removed or changed beyond its code and plain settings, and any other section that changed.
 */
export function hotswapBlockers(deployed: Template, next: Template, servicePrefix: string): string[] {
  const before = comparable(deployed, next, servicePrefix);
  const after = comparable(next, deployed, servicePrefix);
  const blockers: string[] = [];
  const describe = (id: string, resource: { Type?: unknown }, what: string) => `${id} (${String(resource.Type)}) ${what}`;
  for (const [id, resource] of Object.entries(after.Resources)) {
    if (!before.Resources[id]) blockers.push(describe(id, resource, 'added'));
    else if (JSON.stringify(before.Resources[id]) !== JSON.stringify(resource)) blockers.push(describe(id, resource, 'changed'));
  }
  for (const [id, resource] of Object.entries(before.Resources)) if (!after.Resources[id]) blockers.push(describe(id, resource, 'removed'));
  const sections = new Set([...Object.keys(before), ...Object.keys(after)].filter(key => key !== 'Resources'));
  for (const section of [...sections].sort()) {
    if (JSON.stringify((before as unknown as Record<string, unknown>)[section]) !== JSON.stringify((after as unknown as Record<string, unknown>)[section])) {
      blockers.push(`${section} changed`);
    }
  }
  return blockers;
}

/**
 * `fw deploy --hotswap`: when the package differs from the deployed stack only in functions' code and
 * plain settings, updates those functions through the Lambda API (in parallel, each until Lambda says
 * it finished), writes the deployment state marked as drifted (so the next full deploy goes through
 * CloudFormation even with the same package) and returns the functions updated. Otherwise it says why
 * and changes nothing.
 */
export async function hotswapService(packaged: PackagedService, clients: AwsClients, reporter: Reporter, known?: KnownDeployment): Promise<HotswapResult> {
  const stack = known?.stack ?? (await describeStack(clients, packaged.stackName));
  if (!stack) return { notPossible: `stack ${packaged.stackName} does not exist yet` };
  if (!/_COMPLETE$/.test(stack.StackStatus ?? '') || /ROLLBACK|DELETE/.test(stack.StackStatus ?? '')) {
    return { notPossible: `stack ${packaged.stackName} is in ${stack.StackStatus}` };
  }
  if (packaged.state.nestedStacks?.length) return { notPossible: 'the service is split into nested stacks' };
  const bucket = deploymentBucketOf(stack, packaged.state.deploymentBucket);
  const servicePrefix = packaged.state.artifactDirectory.split('/').slice(0, -1).join('/');
  // Without what an earlier hotswap of this process learnt, the last state and the template are read (in parallel).
  const [previous, deployed] = known
    ? [{ folder: known.folder, state: known.state }, known.template]
    : await Promise.all([bucket ? lastState(clients, bucket, servicePrefix) : undefined, currentTemplate(clients, packaged.stackName)]);
  const previousState = previous?.state;
  if (!bucket || !previous || !previousState || !deployed) return { notPossible: 'no earlier deployment of this service to compare with' };
  if (previousState.deploymentHash === packaged.state.deploymentHash) return { unchanged: true };

  const blockers = hotswapBlockers(deployed, packaged.template, servicePrefix);
  const functionArtifacts = new Set(Object.values(packaged.artifacts.functions).map(artifact => artifact.name));
  for (const artifact of packaged.state.artifacts) {
    const before = previousState.artifacts.find(a => a.name === artifact.name);
    if (before?.sha256 !== artifact.sha256 && !functionArtifacts.has(artifact.name)) blockers.push(`artifact ${artifact.name} changed`);
  }
  if (blockers.length > 0) return { notPossible: blockers.join(', ') };

  // Changed artifacts go into this package's folder; unchanged ones stay where the last deployment stored them.
  const folder = packaged.state.artifactDirectory;
  const artifactKeys: Record<string, string> = {};
  const uploads: Upload[] = [];
  for (const artifact of packaged.state.artifacts) {
    const unchanged = previousState.artifacts.some(a => a.name === artifact.name && a.sha256 === artifact.sha256);
    const kept = unchanged ? (previousState.artifactKeys?.[artifact.name] ?? `${previous.folder}/${artifact.name}`) : undefined;
    artifactKeys[artifact.name] = kept ?? `${folder}/${artifact.name}`;
    const file = Object.values(packaged.artifacts.functions).find(a => a.name === artifact.name)?.path;
    if (!kept && file) uploads.push({ key: `${folder}/${artifact.name}`, file, sha256: artifact.sha256 });
  }
  await timed('hotswap/upload', () => uploadAll(clients, bucket, uploads, uploadEncryption(packaged)));

  const lambda = lambdaClient(clients.target);
  const codeKey = async (artifact: { name: string }) => artifactKeys[artifact.name]!;
  const keys = Object.keys(packaged.config.functions ?? {}).filter(key => packaged.template.Resources[naming.lambdaFunction(key)]);
  const functions: KnownConfigurations = new Map(known?.functions);
  const settled = await timed('hotswap/update functions', () =>
    Promise.allSettled(keys.map(key => updateFunctionInPlace(packaged, key, lambda, { bucket, codeKey }, reporter, { known: functions }))),
  );
  const hotswapped = keys.filter((_key, i) => settled[i]!.status === 'fulfilled' && (settled[i] as PromiseFulfilledResult<unknown[]>).value.length > 0);
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  // Any function may have changed by now, so the drift is recorded even when one update failed: then with the
  // last deployment's package hash, so that the next hotswap of this package tries again.
  const recorded = failed ? driftedState(previous.folder, previousState, folder, keys) : { ...packaged.state, artifactKeys, drift: drift(previousState, hotswapped) };
  await timed('hotswap/state', () =>
    uploadAll(clients, bucket, [{ key: `${folder}/${STATE_FILE}`, body: JSON.stringify(recorded, null, 2), sha256: recorded.deploymentHash }], uploadEncryption(packaged)),
  );
  if (failed) throw failed.reason;
  // The stack's template still names the code it was deployed with: those keys stay too.
  const deployedKeys = JSON.stringify(deployed).match(new RegExp(`${servicePrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[^"]+`, 'g')) ?? [];
  const cleanup = () => pruneDeployments(clients, bucket, servicePrefix, [...Object.values(artifactKeys), ...deployedKeys], keptDeployments(packaged));
  return { hotswapped, known: { stack, template: deployed, folder, state: recorded, functions }, cleanup };
}
