import { relative } from 'node:path';
import { CloudError, ConfigError, isUserFacing } from '../errors';
import { secretValues } from '../secrets';
import { reportError, type ServiceCommand } from './base';
import type { ComposeAction, ComposeResult, ServiceRun } from '../compose/runner';
import type { CloudRequest } from '../api/request';

const ACTIONS: Record<string, ComposeAction> = { deploy: 'deploy', remove: 'remove', info: 'info', package: 'package', diff: 'diff', 'refresh-outputs': 'refresh-outputs' };
/** Commands that run on one service of the application, the one --service names. */
const ONE_SERVICE = new Set(['logs']);

/** What a service command does in a folder holding a compose file: the same, for each service. */
export async function runComposeCommand(
  command: ServiceCommand,
  file: string,
  request: CloudRequest,
  { service, maxConcurrency }: { service?: string; maxConcurrency?: string },
): Promise<number> {
  const path = command.path.join(' ');
  const action = ACTIONS[path];
  const shown = relative(process.cwd(), file) || file;
  const stageName = (request.options?.stage as string | undefined) ?? 'dev';
  if (path === 'outputs') return printStoredOutputs(command, file, stageName, service);
  if (ONE_SERVICE.has(path)) {
    const { loadComposeFile } = require('../compose/compose-file') as typeof import('../compose/compose-file');
    if (service === undefined) {
      const names = loadComposeFile(file).services.map(entry => entry.name);
      throw new ConfigError(`fw ${path} runs on one service of the application in ${shown}: name it with --service (${names.join(', ')})`);
    }
    const { serviceTarget } = require('../compose/runner') as typeof import('../compose/runner');
    command.composeTarget = serviceTarget(file, service, stageName);
    const code = await command.run();
    return typeof code === 'number' ? code : 0;
  }
  if (action === undefined) throw new ConfigError(`fw ${path} runs on one service: run it in a service's folder (${shown} is a compose file)`);
  const flags = command as unknown as { force?: boolean; allowDataLoss?: boolean; dryRun?: boolean; packageDir?: string; verbose?: boolean };
  if (flags.dryRun || flags.packageDir !== undefined) throw new ConfigError(`fw deploy ${flags.dryRun ? '--dry-run' : '--package'} runs on one service, not on a compose file (${shown})`);
  const concurrency = maxConcurrency === undefined ? undefined : /^\d+$/.test(maxConcurrency) ? Number(maxConcurrency) : Number.NaN;
  if (concurrency !== undefined && !(concurrency >= 1)) throw new ConfigError(`Invalid --max-concurrency "${maxConcurrency}": expected a whole number of at least 1`);

  const { runApplication } = require('../compose/runner') as typeof import('../compose/runner');
  const { options = {}, params, ...cloud } = request;
  const { config: _composeFile, param: _params, stage, region, ...otherOptions } = options;
  const stdout = command.context.stdout;
  const { style, colorsEnabled } = require('../terminal/output') as typeof import('../terminal/output');
  const out = style(colorsEnabled(stdout));
  const result = await runApplication(action, {
    ...cloud,
    file,
    options: otherOptions,
    params,
    stage: stage as string | undefined,
    region: region as string | undefined,
    service,
    maxConcurrency: concurrency,
    force: flags.force,
    allowDataLoss: flags.allowDataLoss,
    onLine: (name, line) => stdout.write(`${out.cyan(name)} › ${line}\n`),
    onEvent: flags.verbose
      ? (name, event) => stdout.write(`${out.cyan(name)} › ${event.ResourceStatus} ${event.LogicalResourceId} (${event.ResourceType})\n`)
      : undefined,
  });
  stdout.write(`\n${formatApplication(result, action, flags.verbose ?? false)}`);
  if (result.startedLocalCloud) {
    stdout.write(`\nThe local cloud ran inside this command and has stopped; its state is kept. Run "fw local start" to serve these endpoints.\n`);
  }
  const failed = result.runs.filter(run => run.status === 'failed');
  // fw diff: 2 when any service would change, as for one service.
  if (failed.length === 0) return result.runs.some(run => run.status === 'changes') ? 2 : 0;
  // A failure that is not the user's (a bug in fw) keeps its stack, as for one service.
  for (const run of failed) if (!isUserFacing(run.error)) reportError(command.context.stderr, run.error);
  const skipped = result.runs.filter(run => run.status === 'skipped');
  throw new CloudError(
    `${failed.length} of ${result.runs.length} services failed (${failed.map(run => run.service).join(', ')})` +
      (skipped.length > 0 ? `; skipped: ${skipped.map(run => `${run.service} (needs ${run.blockedBy})`).join(', ')}` : ''),
  );
}

/** Each service's outcome, then what `fw info` would print for it. */
function formatApplication(result: ComposeResult, action: ComposeAction, verbose: boolean): string {
  const width = Math.max(...result.runs.map(run => run.service.length));
  const lines = result.runs.map(run => `${run.service.padEnd(width)}  ${describe(run)}`);
  const details = action === 'deploy' || action === 'info' ? result.runs.filter(run => run.result !== undefined).map(run => summaryOf(run, verbose)) : [];
  return `${lines.join('\n')}\n${details.join('')}`;
}

function describe(run: ServiceRun): string {
  const took = run.duration === undefined ? '' : ` (${(run.duration / 1000).toFixed(1)} s)`;
  if (run.status === 'unchanged') return `no changes${took}`;
  if (run.status === 'no-changes') return `no changes: CloudFormation found nothing to update${took}`;
  if (run.status === 'no-diff') return `no changes${took}`;
  if (run.status === 'changes') {
    const count = (run.result as import('../deploy/preview').Preview).changes.length;
    return `${count} resource change${count === 1 ? '' : 's'}${took}`;
  }
  if (run.status === 'failed') return `failed: ${secretValues.mask(run.error instanceof Error ? run.error.message.split('\n')[0] : String(run.error))}`;
  if (run.status === 'skipped') return `skipped: it needs ${run.blockedBy}`;
  return `${run.status}${took}`;
}

function summaryOf(run: ServiceRun, verbose: boolean): string {
  const { formatSummary } = require('../deploy/summary') as typeof import('../deploy/summary');
  const { summary } = run.result as import('../api/service-info').ServiceInfo;
  return `\n${formatSummary(summary, verbose)}`;
}

/**
 * `fw outputs` in a compose folder: each service's outputs as the last deploy (or
 * `fw refresh-outputs`) stored them, as a table or, with --json, one object by service.
 */
function printStoredOutputs(command: ServiceCommand, file: string, stage: string, service: string | undefined): number {
  const { loadComposeFile } = require('../compose/compose-file') as typeof import('../compose/compose-file');
  const { readStoredOutputs } = require('../compose/output-store') as typeof import('../compose/output-store');
  const application = loadComposeFile(file);
  const { selected } = require('../compose/runner') as typeof import('../compose/runner');
  const shown = selected(application, service);
  const stored = readStoredOutputs(application.dir, stage);
  const stdout = command.context.stdout;
  if ((command as unknown as { json?: boolean }).json) {
    stdout.write(`${JSON.stringify(Object.fromEntries(shown.map(name => [name, stored[name] ?? null])), null, 2)}\n`);
    return 0;
  }
  const { outputsTable } = require('./outputs') as typeof import('./outputs');
  const rows = shown.flatMap(name =>
    stored[name] ? Object.entries(stored[name]).map(([key, value], index) => [index === 0 ? name : '', key, value]) : [[name, '-', 'not stored for this stage (run fw deploy or fw refresh-outputs)']],
  );
  stdout.write(outputsTable(['service', 'output', 'value'], rows));
  return 0;
}

/**
 * Serverless Compose's `service:command` form, in a folder with a compose file: `fw api:deploy --stage
 * prod` is `fw deploy --stage prod --service api`. Anything else is returned as it is.
 */
export function expandServiceCommand(argv: string[], cwd: string): string[] {
  const match = /^([A-Za-z0-9][A-Za-z0-9_-]*):([a-z][a-z-]*)$/.exec(argv[0] ?? '');
  if (!match) return argv;
  const { findComposeFile, loadComposeFile } = require('../compose/compose-file') as typeof import('../compose/compose-file');
  const configIndex = argv.findIndex(arg => arg === '--config' || arg === '-c');
  const config = configIndex > 0 ? argv[configIndex + 1] : argv.find(arg => arg.startsWith('--config='))?.slice('--config='.length);
  let services: string[] = [];
  try {
    const file = findComposeFile(cwd, config);
    if (file) services = loadComposeFile(file).services.map(service => service.name);
  } catch {
    // A broken compose file: the command reports it when it loads it.
  }
  if (!services.includes(match[1])) return argv;
  return [match[2], ...argv.slice(1), '--service', match[1]];
}
