import { relative } from 'node:path';
import type { CloudRequest } from '../api/request';
import type { StackEvent } from '@aws-sdk/client-cloudformation';
import { ConfigError } from '../errors';
import { loadComposeFile, type Application, type ComposeService } from './compose-file';
import { dependencyGraph, resolveParams, reversed } from './dependency-graph';
import { outputStorePath, readStoredOutputs, storeOutputs } from './output-store';

export type ComposeAction = 'deploy' | 'remove' | 'info' | 'package' | 'diff' | 'refresh-outputs';

/** A command run across the services of a compose file. */
export interface ComposeRequest extends Omit<CloudRequest, 'cwd' | 'config' | 'reporter' | 'write'> {
  /** The compose file, absolute. */
  file: string;
  /** Run only this service (its dependencies' outputs come from the last deploy's store). */
  service?: string;
  /** How many services run at once (default 4). */
  maxConcurrency?: number;
  force?: boolean;
  allowDataLoss?: boolean;
  /** A line of one service's progress. */
  onLine?: (service: string, line: string) => void;
  /** A stack event of one service's deploy or removal. */
  onEvent?: (service: string, event: StackEvent) => void;
}

export type RunStatus =
  | import('../deploy/deploy').DeployOutcome
  | 'removed'
  | 'described'
  | 'packaged'
  | 'failed'
  | 'skipped'
  /** `diff`: the deploy would change the stack, or would not. */
  | 'changes'
  | 'no-diff'
  /** `refresh-outputs`: the stack's outputs were read and stored. */
  | 'refreshed';

export interface ServiceRun {
  service: string;
  status: RunStatus;
  /** Why it failed. */
  error?: unknown;
  /** For a skipped service: the service that failed or was skipped before it. */
  blockedBy?: string;
  /** What the library API returned for it (DeployResult, RemoveResult, ServiceInfo or PackageResult). */
  result?: unknown;
  /** Milliseconds it took. */
  duration?: number;
}

export interface ComposeResult {
  stage: string;
  /** Each service of the run, in the order they finished (skipped ones last). */
  runs: ServiceRun[];
  /** When each service started and ended, in order. */
  timeline: Array<{ service: string; event: 'start' | 'end' }>;
  /** The local cloud this run started and stopped again, if it did. */
  startedLocalCloud?: string;
}

export const DEFAULT_MAX_CONCURRENCY = 4;

/**
 * Runs `action` on each service of the compose file: deploy, info and package in dependency order,
 * remove in reverse order, independent services at the same time. A failure skips the services
 * waiting for it; those running go on. Throws ConfigError for a mistake in the compose file.
 */
export async function runApplication(action: ComposeAction, request: ComposeRequest): Promise<ComposeResult> {
  const application = loadComposeFile(request.file);
  const graph = dependencyGraph(application);
  const stage = request.stage ?? 'dev';
  const names = selected(application, request.service);
  const waitsFor = action === 'remove' ? reversed(graph) : graph;
  const concurrency = request.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new ConfigError(`Invalid --max-concurrency ${String(request.maxConcurrency)}: expected a whole number of at least 1`);
  const stored = readStoredOutputs(application.dir, stage);
  const outputs = new Map<string, Record<string, string>>();
  const outputsOf = (dependent: string) => (name: string): Record<string, string> => {
    const known = outputs.get(name) ?? stored[name];
    if (known) return known;
    throw outputsNotStored(application, stage, dependent, name);
  };

  const serviceNamed = (name: string) => application.services.find(service => service.name === name)!;
  /**
   * A dependency's outputs that neither this run nor the store has (a fresh checkout, `--service`):
   * read from its deployed stack, its own dependencies' outputs first. Not for `package`, which
   * reaches no cloud.
   */
  const fetched = new Map<string, Promise<void>>();
  const fetchOutputs = (target: CloudRequest, name: string): Promise<void> => {
    if (action === 'package' || outputs.has(name) || stored[name]) return Promise.resolve();
    if (!fetched.has(name)) {
      fetched.set(name, (async () => {
        const dependency = serviceNamed(name);
        for (const upstream of graph.get(name) ?? []) await fetchOutputs(target, upstream);
        const { info } = require('../api/info') as typeof import('../api/info');
        const described = await info({ ...target, cwd: dependency.dir, config: dependency.config, stage, params: [...resolveParams(dependency, stage, outputsOf(name)), ...(request.params ?? [])] });
        outputs.set(name, described.outputs);
      })());
    }
    return fetched.get(name)!;
  };

  const runOne = async (target: CloudRequest, service: ComposeService): Promise<Pick<ServiceRun, 'status' | 'result'>> => {
    for (const dependency of graph.get(service.name) ?? []) await fetchOutputs(target, dependency);
    const serviceRequest: CloudRequest = {
      ...target,
      cwd: service.dir,
      config: service.config,
      stage,
      params: [...resolveParams(service, stage, outputsOf(service.name)), ...(request.params ?? [])],
      reporter: {
        info: line => request.onLine?.(service.name, line),
        event: event => request.onEvent?.(service.name, event),
      },
      write: text => text.split('\n').filter(Boolean).forEach(line => request.onLine?.(service.name, line)),
    };
    switch (action) {
      case 'deploy': {
        const { deploy } = require('../api/deploy') as typeof import('../api/deploy');
        const deployed = await deploy({ ...serviceRequest, force: request.force, allowDataLoss: request.allowDataLoss });
        outputs.set(service.name, deployed.outputs);
        storeOutputs(application.dir, stage, { [service.name]: deployed.outputs });
        return { status: deployed.outcome, result: deployed };
      }
      case 'remove': {
        const { remove } = require('../api/remove') as typeof import('../api/remove');
        const removed = await remove(serviceRequest);
        storeOutputs(application.dir, stage, { [service.name]: undefined });
        return { status: 'removed', result: removed };
      }
      case 'info':
      case 'refresh-outputs': {
        const { info } = require('../api/info') as typeof import('../api/info');
        const described = await info(serviceRequest);
        outputs.set(service.name, described.outputs);
        if (action === 'info') return { status: 'described', result: described };
        storeOutputs(application.dir, stage, { [service.name]: described.outputs });
        return { status: 'refreshed', result: described };
      }
      case 'diff': {
        const { openDeployment } = require('../api/deploy') as typeof import('../api/deploy');
        const { previewDeployment, formatPreview } = require('../deploy/preview') as typeof import('../deploy/preview');
        const { describeAwsError } = require('../aws/clients') as typeof import('../aws/clients');
        const deployment = await openDeployment(serviceRequest);
        try {
          const { packaged, connection } = deployment;
          const preview = await previewDeployment(packaged, connection.clients).catch(error => {
            throw describeAwsError(error, `previewing ${packaged.stackName}`, connection.clients.target);
          });
          serviceRequest.write!(formatPreview(preview));
          return { status: preview.changes.length > 0 ? 'changes' : 'no-diff', result: preview };
        } finally {
          await deployment.close();
        }
      }
      case 'package': {
        const { packageService } = require('../api/package') as typeof import('../api/package');
        return { status: 'packaged', result: await packageService(serviceRequest) };
      }
    }
  };

  const timeline: ComposeResult['timeline'] = [];
  const run = (target: CloudRequest) =>
    schedule(names, waitsFor, concurrency, async name => {
      timeline.push({ service: name, event: 'start' });
      try {
        return await runOne(target, serviceNamed(name));
      } finally {
        timeline.push({ service: name, event: 'end' });
      }
    });
  const { request: target, started, stop } = action === 'package' ? { request: request as CloudRequest, started: undefined, stop: async () => undefined } : await localCloudFor(request);
  try {
    const { atEndpoint } = require('../api/request') as typeof import('../api/request');
    const runs = action === 'package' ? await run(target) : await atEndpoint(target, run);
    return { stage, runs, timeline, startedLocalCloud: started };
  } finally {
    await stop();
  }
}

function outputsNotStored(application: Application, stage: string, dependent: string, name: string): ConfigError {
  return new ConfigError(
    `Service ${dependent} needs the outputs of ${name}, which are not stored for stage ${stage} (${relative(application.dir, outputStorePath(application.dir, stage))}): deploy ${name} first`,
  );
}

/** What a command for one service runs on (`fw logs --service api`): its folder, service file and params. */
export interface ServiceTarget {
  cwd: string;
  config?: string;
  /** Its params as `key=value`, its dependencies' outputs read from the store of the last deploy. */
  params: string[];
}

/** The service of the compose file named `name`, as a one-service command runs it. */
export function serviceTarget(file: string, name: string, stage: string): ServiceTarget {
  const application = loadComposeFile(file);
  dependencyGraph(application);
  const service = application.services.find(entry => entry.name === selected(application, name)[0])!;
  const stored = readStoredOutputs(application.dir, stage);
  const params = resolveParams(service, stage, dependency => {
    if (stored[dependency]) return stored[dependency];
    throw outputsNotStored(application, stage, name, dependency);
  });
  return { cwd: service.dir, config: service.config, params };
}

/** The services a run covers: all, or the one `--service` names (an unknown name is one line listing them). */
export function selected(application: Application, service: string | undefined): string[] {
  const names = application.services.map(entry => entry.name);
  if (service === undefined) return names;
  if (!names.includes(service)) throw new ConfigError(`Unknown service "${service}" (--service): the compose file lists ${names.join(', ')}`);
  return [service];
}

/**
 * Runs `work` on each name once the names it waits for (among those given) are done, at most
 * `concurrency` at a time. A name waiting for one that failed or was skipped is skipped.
 */
async function schedule(
  names: string[],
  waitsFor: Map<string, string[]>,
  concurrency: number,
  work: (name: string) => Promise<Pick<ServiceRun, 'status' | 'result'>>,
): Promise<ServiceRun[]> {
  const finished = new Map<string, ServiceRun>();
  const pending = [...names];
  const running = new Map<string, Promise<void>>();
  const blockerOf = (name: string) => (waitsFor.get(name) ?? []).find(other => ['failed', 'skipped'].includes(finished.get(other)?.status ?? ''));
  const ready = (name: string) => (waitsFor.get(name) ?? []).every(other => !names.includes(other) || finished.has(other));
  for (;;) {
    for (const name of [...pending]) {
      const blocker = blockerOf(name);
      if (blocker !== undefined) {
        pending.splice(pending.indexOf(name), 1);
        finished.set(name, { service: name, status: 'skipped', blockedBy: blocker });
      } else if (running.size < concurrency && ready(name)) {
        pending.splice(pending.indexOf(name), 1);
        const started = Date.now();
        running.set(
          name,
          work(name).then(
            outcome => void finished.set(name, { service: name, ...outcome, duration: Date.now() - started }),
            error => void finished.set(name, { service: name, status: 'failed', error, duration: Date.now() - started }),
          ).finally(() => running.delete(name)),
        );
      }
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  const runs = [...finished.values()];
  return [...runs.filter(run => run.status !== 'skipped'), ...runs.filter(run => run.status === 'skipped')];
}

/**
 * With `local` and no local cloud answering, one local cloud for the whole run (each service's
 * deploy would otherwise start its own); the services then reach it as a running one.
 */
async function localCloudFor(request: ComposeRequest): Promise<{ request: CloudRequest; started?: string; stop(): Promise<void> }> {
  const none = { request: request as CloudRequest, stop: async () => undefined };
  if (!request.local) return none;
  const { checkOneTarget, connect, runningLocalCloudPort } = require('../deploy/connect') as typeof import('../deploy/connect');
  checkOneTarget(request.local, request.endpoint);
  const local = typeof request.local === 'object' ? request.local : {};
  if (request.localCloudRunning) return { ...none, request: { ...request, localCloudRunning: true } };
  const running = request.localCloudRunning === false ? undefined : await runningLocalCloudPort(local);
  if (running !== undefined) return { ...none, request: { ...request, local: { ...local, port: running }, localCloudRunning: true } };
  const connection = await connect({ region: request.region ?? 'us-east-1', local: true, localPort: local.port, localDataDir: local.dataDir, localCloudRunning: false });
  const url = connection.startedLocalCloud!;
  return {
    request: { ...request, local: { port: Number(new URL(url).port), dataDir: local.dataDir }, localCloudRunning: true },
    started: url,
    stop: () => connection.close(),
  };
}
