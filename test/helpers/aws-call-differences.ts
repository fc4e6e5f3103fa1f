import type { AwsCall } from './aws-calls';
import type { Scenario } from './aws-call-scenarios';

/**
 * What fw asks of AWS differently from Serverless v3 on purpose, and how test/deploy/aws-calls.test.ts
 * compares the two records: each difference rewrites the reference's calls or fw's before they are
 * compared, and its `reason` is what docs/reference/compatibility.md says (scripts/docs.js reads this
 * list), so the page and the test cannot drift apart.
 */

/** Calls that read: fw may make fewer or others (it reads its own state file, not v3's HEADs). */
const READ = /^(Describe|List|Get|Head|ValidateTemplate$)/;

type Calls = AwsCall[];

/** The call without the parameters `drop` names, plus `extra`. */
const withoutParams = (call: AwsCall, drop: (key: string, value: unknown) => boolean, extra: Record<string, unknown> = {}): AwsCall => ({
  ...call,
  params: { ...Object.fromEntries(Object.entries(call.params).filter(([key, value]) => !drop(key, value))), ...extra },
});

/**
 * What fw does differently on purpose, each applied to the reference's calls or fw's before comparing
 * (`scenarios` and `steps`, indexes of the recorded steps, limit one to the runs it is about).
 */
export interface Difference {
  reason: string;
  scenarios?: string[];
  steps?: number[];
  /** Rewrites the reference's calls; `fw` is fw's for the same step, after the rewrites of fw's side. */
  reference?: (calls: Calls, fw: Calls) => Calls;
  fw?: (calls: Calls) => Calls;
}

export const DELIBERATE: Difference[] = [
  {
    reason:
      'A new stack: v3 creates it with a CREATE change set it then executes; fw calls CreateStack with the same settings (one call). ' +
      "fw's OnFailure says what a failure leaves: DELETE for the bucket-only stack (nothing to keep, the next deploy starts clean), ROLLBACK for a full one (what a CREATE change set does).",
    reference: (calls, fw) => {
      const out: Calls = [];
      let created: AwsCall | undefined;
      for (const call of calls) {
        if (call.operation === 'CreateChangeSet' && call.params.ChangeSetType === 'CREATE') {
          created = { ...withoutParams(call, key => key === 'ChangeSetType'), operation: 'CreateStack' };
          out.push(created);
        } else if (created && call.operation === 'ExecuteChangeSet') {
          // The execution's settings (DisableRollback) are the new stack's; OnFailure is fw's choice where v3 had none to make.
          const fwCreate = fw.find(other => other.operation === 'CreateStack' && other.params.StackName === created!.params.StackName);
          const onFailure = fwCreate?.params.OnFailure === undefined ? {} : { OnFailure: fwCreate.params.OnFailure };
          Object.assign(created.params, withoutParams(call, key => key === 'StackName').params, onFailure);
          created = undefined;
        } else out.push(call);
      }
      return out;
    },
  },
  {
    reason: 'v3 deletes a change set left by an earlier run under its fixed name before creating one; fw names each change set afresh, so none is left to delete.',
    reference: calls => calls.filter(call => call.operation !== 'DeleteChangeSet'),
  },
  {
    reason: 'fw also acknowledges CAPABILITY_AUTO_EXPAND, so `resources` with a Transform (SAM, macros) deploy where v3 is refused.',
    fw: calls => calls.map(call => withoutParams(call, (key, value) => key.startsWith('Capabilities.member.') && value === 'CAPABILITY_AUTO_EXPAND')),
  },
  {
    reason: 'An empty parameter list and none are the same request for a template without parameters: v3 sends `Parameters=`, fw leaves it out.',
    reference: calls => calls.map(call => withoutParams(call, (key, value) => key === 'Parameters' && value === '')),
  },
  {
    reason: 'fw sends a template CloudFormation takes inline (up to 51,200 bytes) as TemplateBody, so no emulator has to resolve a URL; v3 sends its S3 URL but for the bucket-only stack. Both carry the same template.',
    reference: calls => calls.map(asTemplate),
    fw: calls => calls.map(asTemplate),
  },
  {
    reason:
      "A deploy whose template and code are unchanged (`--force`, or only a stack policy or a parameter nothing uses changed): v3's template names a new artifact folder, " +
      "so it uploads the zip again and its change set updates the function to the same code; fw keeps an unchanged artifact where the last deployment stored it, " +
      'so its change set is empty and deleted. Nothing on AWS changes either way (the stack policy is still set).',
    scenarios: ['force', 'stack-policy', 'stack-parameters'],
    reference: calls => calls.filter(call => call.operation !== 'ExecuteChangeSet' && !(call.operation === 'PutObject' && /\.zip$/.test(String(call.params.Key)))),
    fw: calls => calls.filter(call => call.operation !== 'DeleteChangeSet'),
  },
  {
    reason:
      '`deploy function`: fw uploads the zip to the deployment bucket and points UpdateFunctionCode at it (no 50 MB limit on a direct upload); v3 sends the zip in the request.',
    fw: calls => {
      const uploaded = new Set(calls.filter(call => call.operation === 'UpdateFunctionCode' && call.params.S3Key !== undefined).map(call => call.params.S3Key));
      return calls
        .filter(call => !(call.operation === 'PutObject' && uploaded.has(call.params.Key)))
        .map(call => (call.operation === 'UpdateFunctionCode' && call.params.S3Key !== undefined ? withoutParams(call, key => key === 'S3Bucket' || key === 'S3Key', { ZipFile: '<zip>' }) : call));
    },
  },
  {
    reason:
      "`deploy function` (also with `--update-config`): fw marks the stored deployment as drifted (its serverless-state.json written again), so the next `deploy` updates the stack through CloudFormation even with an unchanged template; v3 writes nothing, and its next deploy of the same files leaves the function as `deploy function` made it.",
    fw: calls => {
      const functionOnly = calls.some(call => /^UpdateFunction(Code|Configuration)$/.test(call.operation)) && !calls.some(call => call.service === 'cloudformation');
      return functionOnly ? calls.filter(call => !(call.operation === 'PutObject' && /\/serverless-state\.json$/.test(String(call.params.Key)))) : calls;
    },
  },
  {
    reason:
      '`rollback`: fw updates the stack to the stored template with UpdateStack (one call; the tags, topics and role it leaves out stay as the stack has them) ' +
      'and stores the result as the newest deployment (template and state), so a later deploy compares with what runs; v3 goes through a change set carrying the settings again.',
    scenarios: ['rollback'],
    reference: calls =>
      calls.filter(call => call.operation !== 'ExecuteChangeSet').map(call => (call.operation === 'CreateChangeSet' ? { ...call, operation: 'UpdateStack', params: rollbackParams(call) } : call)),
    fw: calls => calls.filter(call => call.operation !== 'PutObject').map(call => (call.operation === 'UpdateStack' ? { ...call, params: rollbackParams(call) } : call)),
  },
  {
    reason:
      "`deploy list` and `rollback`: fw lists the stage's folder with its closing slash (`serverless/app/dev/`), so the deployments of a stage named `dev-eu` are not read with `dev`'s; v3 lists `serverless/app/dev`.",
    reference: calls =>
      calls.map(call => (call.operation === 'ListObjectsV2' && typeof call.params.Prefix === 'string' && !call.params.Prefix.endsWith('/') ? { ...call, params: { ...call.params, Prefix: `${call.params.Prefix}/` } } : call)),
  },
  {
    reason:
      "`logs`: fw filters the function's whole log group from `--startTime`; v3 first lists the group's 50 most recent log streams (DescribeLogStreams) and filters those only, so events in older streams are missed. " +
      'v3 also sends `interleaved: true`, which CloudWatch Logs ignores (it always interleaves).',
    reference: calls =>
      calls
        .filter(call => call.operation !== 'DescribeLogStreams')
        .map(call => (call.operation === 'FilterLogEvents' ? withoutParams(call, key => key === 'logStreamNames' || key === 'interleaved') : call)),
  },
  {
    reason:
      '`metrics`: fw asks CloudWatch once per page of functions (GetMetricData, one period over the whole range, so the average duration is the true average and p50/p99 come with it); ' +
      "v3 asks GetMetricStatistics for each function and metric in hourly periods (with each metric's unit) and averages the hourly averages. The same metrics, statistics, functions and range are asked.",
    reference: calls => metricStatistics(calls.map(call => (call.operation === 'GetMetricStatistics' ? withoutParams(call, key => key === 'Period' || key === 'Unit') : call))),
    fw: calls => metricStatistics(calls.flatMap(call => (call.operation === 'GetMetricData' ? asMetricStatistics(call) : [call]))),
  },
  {
    reason:
      "`invoke --context` with JSON text: fw sends the object it holds, so the function's `context.clientContext` is that object; v3 sends the text as one JSON string, so the function receives a string.",
    reference: calls =>
      calls.map(call => {
        if (call.operation !== 'Invoke' || typeof call.params.ClientContext !== 'string') return call;
        const sent: unknown = JSON.parse(Buffer.from(call.params.ClientContext, 'base64').toString());
        if (typeof sent !== 'string') return call;
        return { ...call, params: { ...call.params, ClientContext: Buffer.from(JSON.stringify(JSON.parse(sent))).toString('base64') } };
      }),
  },
  {
    reason:
      'An update that leaves a zip (the service, a function or a layer) as it was: v3 uploads it again under the new deployment folder; ' +
      'fw keeps it where the last deployment stored it and its template points there.',
    reference: (calls, fw) =>
      calls.filter(call => !(call.operation === 'PutObject' && /\.zip$/.test(String(call.params.Key)) && !fw.some(other => other.operation === 'PutObject' && other.params.Key === call.params.Key))),
  },
  {
    reason:
      'A REST stage setting removed from the service file: v3 leaves it on the stage (it sends nothing when no setting is given); ' +
      'fw reverts what its last deployment applied (tracing and metrics off, no access log, execution logging OFF) and removes the tags it set.',
    scenarios: ['rest-stage-settings'],
    fw: calls =>
      calls.filter(call => {
        if (call.operation === 'UntagResource') return false;
        const operations = call.operation === 'UpdateStage' ? (call.params.patchOperations as Array<{ op: string; value?: string }>) : undefined;
        return !operations?.every(({ op, value }) => op === 'remove' || value === 'false' || value === 'OFF');
      }),
  },
];

/** GetMetricData's queries as the GetMetricStatistics calls asking the same (percentiles, which v3 does not ask, left out). */
function asMetricStatistics(call: AwsCall): Calls {
  const queries = new Map<string, Record<string, unknown>>();
  for (const [key, value] of Object.entries(call.params)) {
    const match = /^MetricDataQueries\.member\.(\d+)\.MetricStat\.(?:Metric\.)?(.+)$/.exec(key);
    if (!match) continue;
    const params = queries.get(match[1]) ?? { StartTime: call.params.StartTime, EndTime: call.params.EndTime };
    if (match[2] === 'Stat') params['Statistics.member.1'] = value;
    else if (match[2] !== 'Period') params[match[2]] = value;
    queries.set(match[1], params);
  }
  return [...queries.values()].filter(params => !/^p\d/.test(String(params['Statistics.member.1']))).map(params => ({ service: call.service, operation: 'GetMetricStatistics', params }));
}

/** The GetMetricStatistics calls of a step in one order (each reads on its own: their order is no setting). */
function metricStatistics(calls: Calls): Calls {
  const key = (call: AwsCall) => JSON.stringify(Object.entries(call.params).sort(([a], [b]) => a.localeCompare(b)));
  const reads = calls.filter(call => call.operation === 'GetMetricStatistics').sort((a, b) => key(a).localeCompare(key(b)));
  return [...calls.filter(call => call.operation !== 'GetMetricStatistics'), ...reads];
}

/** What both rollbacks name: the stack and the stored template. */
const rollbackParams = (call: AwsCall) => ({ StackName: call.params.StackName, TemplateURL: call.params.TemplateURL });

/** A stack call's template, inline or by URL, as one parameter. */
function asTemplate(call: AwsCall): AwsCall {
  if (call.params.TemplateBody === undefined && call.params.TemplateURL === undefined) return call;
  return withoutParams(call, key => key === 'TemplateBody' || key === 'TemplateURL', { Template: '<template>' });
}

/** One recorded command: its arguments, exit code, the calls it made (and, with credentials of its own, which keys signed them). */
export interface RecordedStep {
  args: string[];
  exitCode: number;
  accessKeyIds?: string[];
  calls: AwsCall[];
}

/**
 * Both records as lines to compare, after the deliberate differences: per step its command, then the
 * calls that change something (and the reads `comparedReads` names, which carry a setting) in their
 * order (stack, API, function, logs, metrics), then the S3 calls as a sorted set.
 */
export function comparedRecords(scenario: Scenario, reference: RecordedStep[], fw: RecordedStep[]): { reference: string[]; fw: string[] } {
  const reads = scenario.steps.filter(step => step.recorded).map(step => step.comparedReads);
  const kept = (calls: Calls, step: number) => calls.filter(call => (reads[step]?.test(call.operation) || !READ.test(call.operation)) && call.operation !== 'GetCallerIdentity');
  const applying = (step: number) => DELIBERATE.filter(difference => (!difference.scenarios || difference.scenarios.includes(scenario.name)) && (!difference.steps || difference.steps.includes(step)));
  const sorted = (params: Record<string, unknown>) => Object.fromEntries(Object.entries(params).sort(([a], [b]) => a.localeCompare(b)));
  const line = (call: AwsCall) => `${call.service} ${call.operation} ${JSON.stringify(sorted(call.params))}`;
  const lines = (step: RecordedStep, index: number, calls: Calls) => [
    `step ${index}: ${step.args.join(' ')} → exit ${step.exitCode}${step.accessKeyIds ? `, signed by ${step.accessKeyIds.join(', ')}` : ''}`,
    ...calls.filter(call => call.service !== 's3').map(line),
    ...calls.filter(call => call.service === 's3').map(line).sort(),
  ];
  const out = { reference: [] as string[], fw: [] as string[] };
  for (let index = 0; index < Math.max(reference.length, fw.length); index++) {
    const differences = applying(index);
    const fwCalls = differences.reduce((calls, difference) => difference.fw?.(calls) ?? calls, kept(fw[index]?.calls ?? [], index));
    const referenceCalls = differences.reduce((calls, difference) => difference.reference?.(calls, fwCalls) ?? calls, kept(reference[index]?.calls ?? [], index));
    if (fw[index]) out.fw.push(...lines(fw[index], index, fwCalls));
    if (reference[index]) out.reference.push(...lines(reference[index], index, referenceCalls));
  }
  return out;
}
