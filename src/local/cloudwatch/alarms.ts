import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import { readJson, writeJsonAtomic } from '../state/files';

/**
 * CloudWatch metric alarms as PutMetricAlarm keeps them (`state/metric-alarms.json`), with the
 * MetricAlarm shape DescribeAlarms answers (AWS API reference). Alarms are described, never
 * evaluated: each stays in INSUFFICIENT_DATA, as a new alarm is until CloudWatch first checks it,
 * unless SetAlarmState sets another state.
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

/** An alarm's state as SetAlarmState leaves it (the alarm is never evaluated, so nothing else changes it). */
export interface AlarmState {
  value: 'OK' | 'ALARM' | 'INSUFFICIENT_DATA';
  reason: string;
  reasonData?: string;
  at: number;
}

const STATE_VALUES = ['OK', 'ALARM', 'INSUFFICIENT_DATA'];

const missing = (name: string) => new AwsError('MissingParameter', `The parameter ${name} is required.`, 400);

export class MetricAlarms {
  private readonly file: string;
  private readonly alarms: Record<string, StoredAlarm>;
  /** SetAlarmState's states by alarm name, for PutMetricAlarm's alarms and the stacks' alike (`state/metric-alarm-states.json`). */
  private readonly statesFile: string;
  private readonly states: Record<string, AlarmState>;

  constructor(readonly dataDir: string) {
    this.file = join(dataDir, 'state', 'metric-alarms.json');
    this.alarms = readJson<Record<string, StoredAlarm>>(this.file, {});
    this.statesFile = join(dataDir, 'state', 'metric-alarm-states.json');
    this.states = readJson<Record<string, AlarmState>>(this.statesFile, {});
  }

  /** SetAlarmState: StateValue one of OK, ALARM, INSUFFICIENT_DATA; StateReasonData, when given, JSON. */
  setState(name: string, input: Record<string, unknown>): void {
    const value = String(input.StateValue);
    if (input.StateValue === undefined) throw missing('StateValue');
    if (typeof input.StateReason !== 'string') throw missing('StateReason');
    if (!STATE_VALUES.includes(value)) throw new AwsError('InvalidParameterValue', `1 validation error detected: Value '${value}' at 'stateValue' failed to satisfy constraint: Member must satisfy enum value set: [INSUFFICIENT_DATA, ALARM, OK]`, 400);
    if (input.StateReasonData !== undefined) {
      try {
        JSON.parse(String(input.StateReasonData));
      } catch {
        throw new AwsError('InvalidFormat', 'StateReasonData must be valid JSON.', 400);
      }
    }
    this.states[name] = { value: value as AlarmState['value'], reason: input.StateReason, reasonData: input.StateReasonData as string | undefined, at: Date.now() };
    writeJsonAtomic(this.statesFile, this.states);
  }

  stateOf(name: string): AlarmState | undefined {
    return Object.hasOwn(this.states, name) ? this.states[name] : undefined;
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
    for (const name of names) {
      delete this.alarms[name];
      delete this.states[name];
    }
    writeJsonAtomic(this.file, this.alarms);
    writeJsonAtomic(this.statesFile, this.states);
  }

  list(): StoredAlarm[] {
    return Object.values(this.alarms);
  }
}

/** An alarm as DescribeAlarms answers it (times as Dates). */
export function metricAlarm(alarm: StoredAlarm, state?: AlarmState): Record<string, unknown> {
  const { settings } = alarm;
  const stateAt = new Date(state?.at ?? alarm.stateAt);
  return {
    AlarmName: alarm.AlarmName,
    AlarmArn: alarm.AlarmArn,
    ...(settings.AlarmDescription !== undefined ? { AlarmDescription: settings.AlarmDescription } : {}),
    AlarmConfigurationUpdatedTimestamp: new Date(alarm.configuredAt),
    ActionsEnabled: settings.ActionsEnabled === undefined ? true : settings.ActionsEnabled === true || settings.ActionsEnabled === 'true',
    OKActions: settings.OKActions ?? [],
    AlarmActions: settings.AlarmActions ?? [],
    InsufficientDataActions: settings.InsufficientDataActions ?? [],
    StateValue: state?.value ?? 'INSUFFICIENT_DATA',
    StateReason: state?.reason ?? 'Unchecked: Initial alarm creation',
    ...(state?.reasonData !== undefined ? { StateReasonData: state.reasonData } : {}),
    StateUpdatedTimestamp: stateAt,
    ...Object.fromEntries(['MetricName', 'Namespace', 'Statistic', 'ExtendedStatistic'].filter((key) => settings[key] !== undefined).map((key) => [key, settings[key]])),
    Dimensions: settings.Dimensions ?? [],
    ...Object.fromEntries(['Period', 'Unit', 'EvaluationPeriods', 'DatapointsToAlarm', 'Threshold', 'ComparisonOperator', 'TreatMissingData', 'EvaluateLowSampleCountPercentile', 'Metrics', 'ThresholdMetricId'].filter((key) => settings[key] !== undefined).map((key) => [key, ['Period', 'EvaluationPeriods', 'DatapointsToAlarm', 'Threshold'].includes(key) ? Number(settings[key]) : settings[key]])),
    StateTransitionedTimestamp: stateAt,
  };
}
