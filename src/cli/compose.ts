import { relative } from 'node:path';
import { CloudError, ConfigError, isUserFacing } from '../errors';
import { secretValues } from '../variables/secrets';
import { reportError, type ServiceCommand } from './base';
import type { ComposeAction, ComposeResult, ServiceRun } from '../compose/runner';
import type { CloudRequest } from '../api/request';

const ACTIONS: Record<string, ComposeAction> = { deploy: 'deploy', remove: 'remove', info: 'info', package: 'package' };

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
  if (action === undefined) throw new ConfigError(`fw ${path} runs on one service: run it in a service's folder (${shown} is a compose file)`);
  const flags = command as unknown as { force?: boolean; allowDataLoss?: boolean; dryRun?: boolean; packageDir?: string; verbose?: boolean };
  if (flags.dryRun || flags.packageDir !== undefined) throw new ConfigError(`fw deploy ${flags.dryRun ? '--dry-run' : '--package'} runs on one service, not on a compose file (${shown})`);
  const concurrency = maxConcurrency === undefined ? undefined : /^\d+$/.test(maxConcurrency) ? Number(maxConcurrency) : Number.NaN;
  if (concurrency !== undefined && !(concurrency >= 1)) throw new ConfigError(`Invalid --max-concurrency "${maxConcurrency}": expected a whole number of at least 1`);

  const { runApplication } = require('../compose/runner') as typeof import('../compose/runner');
  const { options = {}, params, ...cloud } = request;
  const { config: _composeFile, param: _params, stage, region, ...otherOptions } = options;
  const stdout = command.context.stdout;
  const { style, colorsEnabled } = require('./output') as typeof import('./output');
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
  if (failed.length === 0) return 0;
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
  if (run.status === 'failed') return `failed: ${secretValues.mask(run.error instanceof Error ? run.error.message.split('\n')[0] : String(run.error))}`;
  if (run.status === 'skipped') return `skipped: it needs ${run.blockedBy}`;
  return `${run.status}${took}`;
}

function summaryOf(run: ServiceRun, verbose: boolean): string {
  const { formatSummary } = require('../deploy/summary') as typeof import('../deploy/summary');
  const { summary } = run.result as import('../api/service-info').ServiceInfo;
  return `\n${formatSummary(summary, verbose)}`;
}
