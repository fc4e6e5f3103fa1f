import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import { readJson, writeJsonAtomic } from '../state/files';

/**
 * CloudWatch metric alarms as PutMetricAlarm keeps them (`state/metric-alarms.json`), with the
 * MetricAlarm shape DescribeAlarms answers (AWS API reference). Alarms are described, never
 * evaluated: each stays in INSUFFICIENT_DATA, as a new alarm is until CloudWatch first checks it.
 */
export interface StoredAlarm {
  AlarmName: string;
  AlarmArn: string;
  configuredAt: number;
  stateAt: number;
  settings: Record<string, unknown>;
}

/** The settings PutMetricAlarm takes and DescribeAlarms returns as given. */
const SETTINGS = [
  'AlarmDescription', 'ActionsEnabled', 'OKActions', 'AlarmActions', 'InsufficientDataActions', 'MetricName', 'Namespace', 'Statistic',
  'ExtendedStatistic', 'Dimensions', 'Period', 'Unit', 'EvaluationPeriods', 'DatapointsToAlarm', 'Threshold', 'ComparisonOperator',
  'TreatMissingData', 'EvaluateLowSampleCountPercentile', 'Metrics', 'ThresholdMetricId',
];

const missing = (name: string) => new AwsError('MissingParameter', `The parameter ${name} is required.`, 400);

export class MetricAlarms {
  private readonly file: string;
  private readonly alarms: Record<string, StoredAlarm>;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'metric-alarms.json');
    this.alarms = readJson<Record<string, StoredAlarm>>(this.file, {});
  }

  /** PutMetricAlarm: a new alarm, or new settings for one of that name (its state stays). */
  put(input: Record<string, unknown>, accountId: string): void {
    const name = input.AlarmName;
    if (typeof name !== 'string' || name === '') throw missing('AlarmName');
    if (input.EvaluationPeriods === undefined) throw missing('EvaluationPeriods');
    if (input.ComparisonOperator === undefined) throw missing('ComparisonOperator');
    if (input.MetricName === undefined && input.Metrics === undefined) throw missing('MetricName');
    const now = Date.now();
    const settings = Object.fromEntries(SETTINGS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
    const existing = this.alarms[name];
    this.alarms[name] = { AlarmName: name, AlarmArn: `arn:aws:cloudwatch:us-east-1:${accountId}:alarm:${name}`, configuredAt: now, stateAt: existing?.stateAt ?? now, settings };
    writeJsonAtomic(this.file, this.alarms);
  }

  /** DeleteAlarms: names not found are passed over, as CloudWatch does. */
  delete(names: string[]): void {
    for (const name of names) delete this.alarms[name];
    writeJsonAtomic(this.file, this.alarms);
  }

  list(): StoredAlarm[] {
    return Object.values(this.alarms);
  }
}

/** An alarm as DescribeAlarms answers it (times as Dates). */
export function metricAlarm(alarm: StoredAlarm): Record<string, unknown> {
  const { settings } = alarm;
  return {
    AlarmName: alarm.AlarmName,
    AlarmArn: alarm.AlarmArn,
    ...(settings.AlarmDescription !== undefined ? { AlarmDescription: settings.AlarmDescription } : {}),
    AlarmConfigurationUpdatedTimestamp: new Date(alarm.configuredAt),
    ActionsEnabled: settings.ActionsEnabled === undefined ? true : settings.ActionsEnabled === true || settings.ActionsEnabled === 'true',
    OKActions: settings.OKActions ?? [],
    AlarmActions: settings.AlarmActions ?? [],
    InsufficientDataActions: settings.InsufficientDataActions ?? [],
    StateValue: 'INSUFFICIENT_DATA',
    StateReason: 'Unchecked: Initial alarm creation',
    StateUpdatedTimestamp: new Date(alarm.stateAt),
    ...Object.fromEntries(['MetricName', 'Namespace', 'Statistic', 'ExtendedStatistic'].filter((key) => settings[key] !== undefined).map((key) => [key, settings[key]])),
    Dimensions: settings.Dimensions ?? [],
    ...Object.fromEntries(['Period', 'Unit', 'EvaluationPeriods', 'DatapointsToAlarm', 'Threshold', 'ComparisonOperator', 'TreatMissingData', 'EvaluateLowSampleCountPercentile', 'Metrics', 'ThresholdMetricId'].filter((key) => settings[key] !== undefined).map((key) => [key, ['Period', 'EvaluationPeriods', 'DatapointsToAlarm', 'Threshold'].includes(key) ? Number(settings[key]) : settings[key]])),
    StateTransitionedTimestamp: new Date(alarm.stateAt),
  };
}
