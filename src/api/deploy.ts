import type { Connection } from '../deploy/connect';
import type { DeployOutcome, Reporter } from '../deploy/deploy';
import type { PackagedService } from '../package/service';
import type { PluginManager } from '../plugins/manager';
import { packageResult, type PackageResult } from './package';
import { atEndpoint, connectFor, cwdOf, optionsOf, reporterOf, type CloudRequest } from './request';
import { serviceInfo, type ServiceInfo } from './service-info';

export interface DeployRequest extends CloudRequest {
  /** Deploy even when neither the template nor the code changed. */
  force?: boolean;
  /** Deploy a folder written earlier by `fw package` (relative to `cwd`) instead of packaging now. */
  packageDir?: string;
  /** Go ahead when the deploy removes or replaces a resource holding data (otherwise a CloudError names them). */
  allowDataLoss?: boolean;
  /**
   * When only functions' code and plain settings (environment, memory, timeout, handler, runtime,
   * description) changed, update those functions through the Lambda API instead of a stack update; the
   * next full deploy then goes through CloudFormation. Anything else deploys as usual (the reason is reported).
   */
  hotswap?: boolean;
  /** Allow `hotswap` on a stage named like production (prod, production, prd, live); refused otherwise. */
  hotswapProduction?: boolean;
  /** @internal A connection the caller opened and keeps (fw dev): used, and left open by `close()`. */
  connection?: Connection;
  /** @internal What the last hotswap of this process (fw dev) knows of the deployed service: not read again. */
  known?: import('../deploy/hotswap').KnownDeployment;
  /** @internal fw dev: what its watcher vouches for when packaging (see src/package/watched-files.ts). */
  watched?: import('../package/watched-files').WatchedTrust;
}

/** The deployed service, and what was deployed. */
export interface DeployResult extends ServiceInfo {
  /** `deployed`, or `unchanged` when nothing changed since the last deploy (nothing was sent). */
  outcome: DeployOutcome;
  /** With `hotswap`: the function keys updated in place (outcome `hotswapped`). */
  hotswapped?: string[];
  /** @internal After a hotswap: what it knows of the deployed service, for the next one (fw dev), and its clean-up of old deployment folders. */
  known?: import('../deploy/hotswap').KnownDeployment;
  cleanup?: () => Promise<void>;
  /** The package that was deployed (template, artifacts). */
  package: PackageResult;
  /** The local cloud this call started and stopped again, if it did (its state is kept). */
  startedLocalCloud?: string;
}

/** A service packaged and connected to its target, ready to deploy (the CLI previews from here for --dry-run). */
export interface Deployment {
  packaged: PackagedService;
  connection: Connection;
  plugins?: PluginManager;
  /** Runs the deploy (plugins' `deploy:deploy` and `deploy:finalize` hooks around it) and reads the stack back. */
  deploy(options?: RunOptions): Promise<DeployResult>;
  close(): Promise<void>;
}

/**
 * `fw deploy` as a function: packages the service (or reads `packageDir`), deploys it as one
 * CloudFormation stack and returns the stack's endpoints, functions and outputs. Throws
 * ConfigError for a mistake in the service file, CloudError when AWS (or the endpoint) refuses a
 * call and StackError (stack, status, failed resource and reason) when the stack update fails.
 */
export async function deploy(request: DeployRequest = {}): Promise<DeployResult> {
  return atEndpoint(request, async resolved => {
    const deployment = await openDeployment(resolved);
    try {
      return await deployment.deploy({ ...request, reporter: reporterOf(request) });
    } finally {
      await deployment.close();
    }
  });
}

/** Packages (or reads) the service and connects to where it deploys. */
export async function openDeployment(request: DeployRequest): Promise<Deployment> {
  const { packageService, readPackaged } = require('../package/service') as typeof import('../package/service');
  const plugins = require('../plugins') as typeof import('../plugins');
  const cwd = cwdOf(request);
  const options = optionsOf(request);
  let packaged: PackagedService;
  let opened: Connection | undefined;
  if (request.packageDir !== undefined) {
    // The service file is still read, with the plugins' variable sources, and `initialize` runs.
    const manager = await plugins.loadPlugins({ cwd, options });
    const read = await manager.withVariableSources(() => readPackaged(cwd, request.packageDir!, options));
    await plugins.initialize(manager, read);
    packaged = plugins.attachPlugins(read, manager);
  } else {
    // Container images go where the stack goes (the local cloud's ECR with --local): the connection is opened when packaging needs it.
    const imageTarget = async (loaded: import('../service/load').LoadedService) => (opened ??= request.connection ?? (await connectFor(loaded, request))).clients.target;
    const reporter = reporterOf(request);
    const { packagingLine } = require('../package/artifacts') as typeof import('../package/artifacts');
    packaged = await packageService({ cwd, options, imageTarget, fromPackagePath: request.watched === undefined, watched: request.watched, onProgress: progress => reporter.progress(packagingLine(progress)) }).catch(async error => {
      if (opened && !request.connection) await opened.close();
      throw error;
    });
  }
  const connection = opened ?? request.connection ?? (await connectFor(packaged, request));
  const packagePath = (packaged.config.package as { path?: unknown } | undefined)?.path;
  const readFromFolder = request.packageDir !== undefined || (request.watched === undefined && typeof packagePath === 'string' && packagePath !== '');
  if (!readFromFolder && packaged.state.placement) {
    // A split service packaged without the last deployment's placement (a fresh checkout, CI) could
    // move resources between stacks; the deployed placement from the bucket keeps them where they are.
    const { lastDeployedState, placementMoves } = require('../deploy/deploy') as typeof import('../deploy/deploy');
    const prefix = `${packaged.config.provider.deploymentPrefix ?? 'serverless'}/${packaged.serviceName}/${packaged.stage}`;
    const deployed = request.known?.state ?? (await lastDeployedState(connection.clients, packaged.stackName, prefix, packaged.state.deploymentBucket).catch(() => undefined));
    if (deployed?.placement && placementMoves(deployed, packaged.state).length > 0) {
      packaged = await packageService({ cwd, options, previousPlacement: deployed.placement, imageTarget: async () => connection.clients.target });
    }
  }
  // Plugin hooks (issue 9): deploy's steps, `deploy:deploy` and `deploy:finalize`, with provider.request at this connection.
  const manager = plugins.pluginsOf(packaged);
  if (manager) {
    manager.awsTarget = async () => connection.clients.target;
    manager.write = request.write ?? (() => undefined);
  }
  const ready = packaged;
  return {
    packaged: ready,
    connection,
    plugins: manager,
    deploy: options => runDeploy(ready, connection, manager, { ...options, known: request.known, reporter: options?.reporter ?? reporterOf(request) }),
    close: async () => (request.connection ? undefined : connection.close()),
  };
}

type KnownDeployment = import('../deploy/hotswap').KnownDeployment;

/** How one deploy of an opened deployment runs. */
export interface RunOptions {
  force?: boolean;
  allowDataLoss?: boolean;
  hotswap?: boolean;
  hotswapProduction?: boolean;
  reporter?: Reporter;
  /** @internal After a hotswap, return the clean-up of old deployment folders (`cleanup`) instead of running it (fw dev runs it after reporting the round). */
  deferCleanup?: boolean;
}

async function runDeploy(
  packaged: PackagedService,
  connection: Connection,
  manager: PluginManager | undefined,
  options: RunOptions & { reporter: Reporter; known?: KnownDeployment },
): Promise<DeployResult> {
  const { force = false, allowDataLoss = false, reporter } = options;
  const { deployService } = require('../deploy/deploy') as typeof import('../deploy/deploy');
  const { hotswapService, refuseProductionHotswap } = require('../deploy/hotswap') as typeof import('../deploy/hotswap');
  if (options.hotswap) refuseProductionHotswap(packaged.stage, options.hotswapProduction ?? false);
  const { describeStack } = require('../deploy/stack') as typeof import('../deploy/stack');
  const { describeAwsError } = require('../aws/clients') as typeof import('../aws/clients');
  const where = connection.startedLocalCloud ? `the local cloud (${connection.startedLocalCloud})` : connection.clients.target.endpoint ?? `AWS ${packaged.region}`;
  reporter.info(`Deploying ${packaged.serviceName} to stage ${packaged.stage} in ${where}`);
  if (connection.clients.target.credentialsFrom) reporter.detail?.(`credentials: ${connection.clients.target.credentialsFrom}`);
  let hotswapped: string[] | undefined;
  let known: KnownDeployment | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  const fullDeploy = () => deployService(packaged, connection.clients, { force, allowDataLoss, reporter });
  const hotswapOrDeploy = async (): Promise<DeployOutcome> => {
    const swap = await hotswapService(packaged, connection.clients, reporter, options.known);
    if ('hotswapped' in swap) {
      ({ hotswapped, known, cleanup } = swap);
      return 'hotswapped';
    }
    if ('unchanged' in swap) {
      reporter.info('No changes to deploy: the template and code are those of the last deployment (use --force to deploy anyway)');
      return 'unchanged';
    }
    if ('notPossible' in swap) reporter.info(`Hotswap not possible: ${swap.notPossible}; deploying through CloudFormation`);
    return fullDeploy();
  };
  const deploy = () =>
    (options.hotswap && !force ? hotswapOrDeploy() : fullDeploy()).catch(error => {
      throw describeAwsError(error, `${hotswapped ? 'hotswapping' : 'deploying'} ${packaged.stackName}`, connection.clients.target);
    });
  const outcome = manager ? (await manager.run('deploy:deploy', deploy))! : await deploy();
  await manager?.run('deploy:finalize');
  // A hotswap leaves the stack as it found it; anything else is read again.
  if (cleanup && !options.deferCleanup) await cleanup();
  if (!cleanup) {
    const stack = await describeStack(connection.clients, packaged.stackName);
    // The summary lists the API keys with their values, as v3's does after a deploy (GetApiKey with includeValue).
    const hasApiKeys = Object.values(packaged.template.Resources ?? {}).some(resource => resource.Type === 'AWS::ApiGateway::ApiKey');
    const { stackApiKeys } = require('../deploy/api-keys') as typeof import('../deploy/api-keys');
    const apiKeys = hasApiKeys
      ? await stackApiKeys(connection.clients, packaged.stackName).catch(error => {
          throw describeAwsError(error, `reading the API keys of ${packaged.stackName}`, connection.clients.target);
        })
      : [];
    return { ...serviceInfo(packaged, stack, undefined, apiKeys), outcome, package: packageResult(packaged), startedLocalCloud: connection.startedLocalCloud };
  }
  return {
    ...serviceInfo(packaged, known?.stack),
    outcome,
    ...(hotswapped ? { hotswapped } : {}),
    known,
    ...(options.deferCleanup ? { cleanup } : {}),
    package: packageResult(packaged),
    startedLocalCloud: connection.startedLocalCloud,
  };
}
