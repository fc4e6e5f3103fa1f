import { realpathSync } from 'node:fs';
import type { DeployResult } from '../api/deploy';
import type { CloudRequest } from '../api/request';
import type { Reporter } from '../deploy/deploy';

export interface DevRequest extends CloudRequest {
  /** Allow hotswaps on a stage named like production. */
  hotswapProduction?: boolean;
  /** How long a burst of file changes must be quiet before a deploy (default 100 ms). */
  debounceMs?: number;
  /** How often the functions' logs are read when they are polled (the local cloud, endpoints without Live Tail; default 500 ms). */
  logIntervalMs?: number;
  /** Print where each round's time went (`Timings: …`); also with FW_DEV_TIMINGS=1. */
  timings?: boolean;
}

/** Where the dev loop's output goes. */
export interface DevOutput {
  write(text: string): void;
  /** A failed round: printed, and the loop goes on. */
  error(error: unknown): void;
  reporter: Reporter;
  /** What a full deploy prints after it: the endpoints and functions. */
  summary(result: DeployResult): string;
}

/**
 * `fw dev`: deploys the service, then watches its folder; each burst of changes is checked for
 * syntax errors, packaged and deployed with hotswap (which deploys through CloudFormation when it
 * cannot). A failure is printed and the loop waits for the next change. The functions' logs are
 * printed as they come (CloudWatch Logs Live Tail on AWS, polling with the local cloud). Ends when `signal` aborts, leaving what is deployed.
 */
export async function runDevLoop(request: DevRequest, output: DevOutput, signal: AbortSignal): Promise<void> {
  const { atEndpoint, connectFor, cwdOf, optionsOf } = require('../api/request') as typeof import('../api/request');
  const { openDeployment } = require('../api/deploy') as typeof import('../api/deploy');
  const { loadServiceConfig } = require('../service/load') as typeof import('../service/load');
  const { watchService } = require('./watch') as typeof import('./watch');
  const { syntaxErrors } = require('./syntax') as typeof import('./syntax');
  const { streamFunctionLogs } = require('./logs') as typeof import('./logs');
  const { tailFunctionLogs } = require('./live-tail') as typeof import('./live-tail');
  const { keepBundlerContexts } = require('../package/bundle') as typeof import('../package/bundle');
  const { RoundTimings, openRound, timed, timingsWanted } = require('../terminal/timings') as typeof import('../terminal/timings');
  const { WatchedFiles } = require('../package/watched-files') as typeof import('../package/watched-files');
  const timingRounds = timingsWanted(request.timings ?? false);
  const cwd = cwdOf(request);
  // TypeScript handlers are rebuilt by esbuild's incremental contexts from round to round.
  const disposeBundlers = keepBundlerContexts();

  try {
    await atEndpoint(request, async resolved => {
      const loaded = await loadServiceConfig(cwd, optionsOf(resolved));
      // Every round hotswaps: on a production stage without the flag each would be refused, so the loop is.
      const { refuseProductionHotswap } = require('../deploy/hotswap') as typeof import('../deploy/hotswap');
      refuseProductionHotswap(loaded.stage, request.hotswapProduction ?? false, 'Use fw deploy');
      // One connection for the whole loop: a local cloud started for it serves the endpoints meanwhile.
      const connection = await connectFor(loaded, resolved);
      let functions: Array<{ key: string; name: string }> = [];
      // What the last hotswap learnt of the deployed stack (so the next one does not read it again), and its clean-up.
      let known: import('../deploy/hotswap').KnownDeployment | undefined;
      let cleanup: Promise<void> | undefined;
      // A round that Ctrl-C cut short fails as the connection closes: that is no news.
      const report = (error: unknown) => (signal.aborted ? undefined : output.error(error));
      const deploy = async (hotswap: boolean) => {
        const started = Date.now();
        // Old deployment folders go while the loop waits for changes; a round starts once they are gone.
        await timed('cleanup wait', () => cleanup);
        cleanup = undefined;
        const packaging = watched.begin();
        const deployment = await timed('package', () => openDeployment({ ...resolved, connection, known, watched: packaging.trust })).catch(error => {
          packaging.done(false);
          throw error;
        });
        packaging.done(true);
        known = undefined;
        try {
          const result = await timed('deploy', () => deployment.deploy({ hotswap, hotswapProduction: request.hotswapProduction, reporter: output.reporter, deferCleanup: true }));
          known = result.known;
          functions = result.functions;
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          if (result.outcome === 'hotswapped') output.write(`✔ Hotswapped ${result.hotswapped?.join(', ') || 'nothing (the functions already run this code)'} (${seconds} s)\n`);
          cleanup = result.cleanup?.().catch(report);
          if (result.outcome === 'deployed') output.write(`✔ Deployed stack ${deployment.packaged.stackName} (${seconds} s)\n\n${output.summary(result)}`);
          // The first round on a service deployed as it is: what it serves is what the user came for.
          if (result.outcome === 'unchanged' && !hotswap) output.write(`✔ Stack ${deployment.packaged.stackName} already runs this code and template (${seconds} s)\n\n${output.summary(result)}`);
        } finally {
          await deployment.close();
        }
      };
      // The local cloud is read directly; AWS (or another endpoint) through Live Tail, polling where it is not served.
      const target = connection.clients.target;
      const logs = request.local
        ? streamFunctionLogs(target, () => functions, output.write, Date.now(), request.logIntervalMs)
        : tailFunctionLogs(target, () => functions, output.write, { intervalMs: request.logIntervalMs });
      let watcher: import('./watch').ServiceWatcher | undefined;
      // The service folder as the watcher names it: what packaging takes on its word is named so too.
      const watchedDir = realpathSync(cwd);
      const watched = new WatchedFiles(watchedDir);
      try {
        let pending: { files: string[]; firstAt: number; quietAt: number } | undefined;
        let busy = false;
        const next = async (): Promise<void> => {
          if (busy || !pending || signal.aborted) return;
          const { files, firstAt, quietAt } = pending;
          pending = undefined;
          busy = true;
          const timings = timingRounds ? new RoundTimings(firstAt) : undefined;
          timings?.add('debounce', quietAt - firstAt);
          const round = timings && openRound(timings);
          try {
            output.write(`\nChanged: ${files.join(', ')}\n`);
            const errors = await timed('syntax', () => syntaxErrors(cwd, files));
            if (errors.length > 0) {
              for (const error of errors) output.write(`Syntax error in ${error}: not deployed, waiting for a fix\n`);
            } else {
              await deploy(true).catch(report);
            }
            if (timings) output.write(`${timings.format()}\n`);
          } finally {
            round?.end();
          }
          busy = false;
          return next();
        };
        watcher = watchService(
          watchedDir,
          (files, firstAt) => {
            const quietAt = performance.now();
            pending = { files: [...new Set([...(pending?.files ?? []), ...files])].sort(), firstAt: pending?.firstAt ?? firstAt, quietAt };
            void next();
          },
          error => {
            watched.fail();
            output.write(`Warning: watching ${cwd}: ${error.message}\n`);
          },
          request.debounceMs,
          (event, path) => watched.note(event, path),
        );
        // Watching before the first deploy: its package is what the next one compares with, and a change meanwhile is deployed after it.
        await watcher.ready;
        busy = true;
        await deploy(false).catch(report);
        busy = false;
        if (!signal.aborted) output.write(`\nWatching ${cwd} for changes (Ctrl-C to stop; what is deployed stays deployed)\n`);
        void next();
        await new Promise<void>(resolve => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
      } finally {
        await cleanup;
        await watcher?.close();
        await logs.stop();
        await connection.close();
      }
    });
  } finally {
    await disposeBundlers();
  }
}
