import { Option } from 'clipanion';
import { ConfigError } from '../errors';
import { CloudCommand } from './cloud-command';
import { parseTimeOption } from './logs';

export class MetricsCommand extends CloudCommand {
  static override paths = [['metrics']];
  static override usage = CloudCommand.Usage({
    description: "Show the service's (or one function's) Lambda metrics: invocations, errors, throttles, duration",
    details: `
      Read from CloudWatch (the local cloud records them for every invocation): the sums of
      Invocations, Errors and Throttles, and Duration's average, p50 and p99, per function, over
      \`--startTime\` (default: 24 hours ago) to \`--endTime\` (default: now). Times are durations ago
      (30m, 2h, 3d), Unix times (1469705761) or ISO 8601 dates (2026-11-21).
    `,
    examples: [
      ['The last 24 hours of every function, in the local cloud', '$0 metrics --local'],
      ['One function over one day', '$0 metrics -f hello --startTime 2026-11-20 --endTime 2026-11-21'],
    ],
  });

  function = Option.String('--function,-f', { description: 'Only this function (key under functions:)' });
  startTime = Option.String('--startTime', { description: 'From when: 30m, 2h, 3d ago, a Unix time or an ISO date (default: 24h ago)' });
  endTime = Option.String('--endTime', { description: 'Until when, as --startTime (default: now)' });

  async run(): Promise<number> {
    const { functionMetrics, formatMetrics, serviceTotal } = require('../deploy/metrics') as typeof import('../deploy/metrics');
    const { cloudWatchClient, describeAwsError } = require('../aws/clients') as typeof import('../aws/clients');
    const { functionOf } = require('../service/load') as typeof import('../service/load');
    const now = Date.now();
    const end = parseTimeOption(this.endTime, '--endTime', now, now);
    const start = parseTimeOption(this.startTime, '--startTime', end - 24 * 3600 * 1000, now);
    if (start >= end) throw new ConfigError(`--startTime (${new Date(start).toISOString()}) must be before --endTime (${new Date(end).toISOString()})`);
    const loaded = await this.loadService();
    const keys = this.function !== undefined ? [this.function] : Object.keys(loaded.config.functions ?? {});
    const functions = keys.map(key => ({ label: key, name: functionOf(loaded, key).physicalName }));
    const connection = await this.connect(loaded);
    try {
      const rows = await functionMetrics(cloudWatchClient(connection.clients.target), functions, new Date(start), new Date(end)).catch(error => {
        throw describeAwsError(error, `reading the metrics of ${loaded.stackName}`, connection.clients.target);
      });
      const title = this.function !== undefined ? this.function : 'Service wide metrics';
      this.context.stdout.write(`${title}\n${new Date(start).toISOString()} - ${new Date(end).toISOString()}\n\n`);
      this.context.stdout.write(formatMetrics(this.function !== undefined || rows.length < 2 ? rows : [...rows, serviceTotal(rows)]));
      return 0;
    } finally {
      await connection.close();
    }
  }
}
