import { Option } from 'clipanion';
import { ConfigError } from '../errors';
import { CloudCommand } from './cloud-command';
import { lazyFunctionOf } from './invoke';

/** `30m`, `2h`, `1d` ago, or an absolute date. */
export function parseStartTime(value: string | undefined, now = Date.now()): number {
  return parseTimeOption(value, '--startTime', now - 10 * 60 * 1000, now);
}

/**
 * A time option as v3 takes it: `30m`, `2h`, `3d` ago, a Unix time in seconds (`1469705761`) or
 * milliseconds, or an ISO 8601 date (`2026-11-21`, `2026-11-21T10:00:00Z`); `fallback` when not given.
 */
export function parseTimeOption(value: string | undefined, option: string, fallback: number, now = Date.now()): number {
  if (value === undefined) return fallback;
  const relative = /^(\d+)\s*(s|m|h|d)$/.exec(value.trim());
  if (relative) return now - Number(relative[1]) * { s: 1000, m: 60000, h: 3600000, d: 86400000 }[relative[2] as 's']!;
  if (/^\d{9,13}$/.test(value.trim())) return value.trim().length > 10 ? Number(value) : Number(value) * 1000;
  const absolute = Date.parse(value);
  if (Number.isNaN(absolute)) throw new ConfigError(`Invalid ${option} "${value}": expected a duration like 30m, 2h, 1d, a Unix time like 1469705761 or a date like 2026-11-21T10:00:00Z`);
  return absolute;
}

export class LogsCommand extends CloudCommand {
  static override paths = [['logs']];
  static override usage = CloudCommand.Usage({
    description: "Print a deployed function's log",
    examples: [
      ['The last 10 minutes of hello, from the local cloud', '$0 logs --local -f hello'],
      ['Follow the log of hello from 1 hour ago on', '$0 logs -f hello --startTime 1h --tail'],
      ['In a folder with fw-compose.yml: the log of hello in the service api', '$0 logs --service api -f hello'],
    ],
  });

  function = Option.String('--function,-f', { required: true, description: 'The function key under functions:' });
  tail = Option.Boolean('--tail,-t', false, { description: 'Keep printing new log lines until interrupted' });
  startTime = Option.String('--startTime', { description: 'From when: 30m, 2h, 1d or a date (default: 10m)' });
  filter = Option.String('--filter', { description: 'A CloudWatch Logs filter pattern' });
  interval = Option.String('--interval,-i', { description: 'With --tail: how often to look for new lines, in milliseconds (default 1000)' });

  async run(): Promise<number> {
    const { FilterLogEventsCommand } = require('@aws-sdk/client-cloudwatch-logs') as typeof import('@aws-sdk/client-cloudwatch-logs');
    const { logsClient, describeAwsError } = require('../aws/clients') as typeof import('../aws/clients');
    const { sleep } = require('../deploy/stack') as typeof import('../deploy/stack');
    let startTime = parseStartTime(this.startTime);
    const interval = this.interval === undefined ? 1000 : Number(this.interval);
    if (!/^\d+$/.test(this.interval ?? '1000') || interval < 100) throw new ConfigError(`Invalid --interval "${this.interval}": expected milliseconds, at least 100`);
    if (this.interval !== undefined && !this.tail) this.context.stderr.write('--interval: ignored without --tail\n');
    const loaded = await this.loadService();
    const { physicalName } = lazyFunctionOf(loaded, this.function);
    const connection = await this.connect(loaded);
    const logs = logsClient(connection.clients.target);
    const logGroupName = `/aws/lambda/${physicalName}`;
    const seen = new Set<string>();
    let stop = false;
    const interrupt = () => {
      stop = true;
    };
    process.once('SIGINT', interrupt);
    try {
      do {
        let nextToken: string | undefined;
        do {
          const page = await logs
            .send(new FilterLogEventsCommand({ logGroupName, startTime, nextToken, filterPattern: this.filter }))
            .catch(error => {
              if ((error as { name?: string }).name === 'ResourceNotFoundException') {
                throw new ConfigError(`No log for ${this.function} yet: ${logGroupName} does not exist (deploy and invoke the function first)`);
              }
              throw describeAwsError(error, `reading ${logGroupName}`, connection.clients.target);
            });
          for (const event of page.events ?? []) {
            if (event.eventId && seen.has(event.eventId)) continue;
            if (event.eventId) seen.add(event.eventId);
            const time = new Date(event.timestamp ?? 0).toISOString();
            this.context.stdout.write(`${time}\t${(event.message ?? '').replace(/\n$/, '')}\n`);
            startTime = Math.max(startTime, event.timestamp ?? 0);
          }
          nextToken = page.nextToken;
        } while (nextToken && !stop);
        if (this.tail && !stop) await sleep(interval);
      } while (this.tail && !stop);
      return stop ? 130 : 0;
    } finally {
      process.off('SIGINT', interrupt);
      await connection.close();
    }
  }
}
