import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startRecorder, type AwsCall } from '../helpers/aws-calls';
import { SCENARIOS, scenarioContext, type Scenario } from '../helpers/aws-call-scenarios';
import { runFw } from '../helpers/cli';
import { FIXTURES } from '../helpers/golden';
import { startTestCloud, TEST_ENV } from '../helpers/local-cloud';

/**
 * fw asks of AWS what Serverless v3 asks: for each scenario of aws-call-scenarios.ts, fw runs the
 * same commands against the local cloud through the same recorder as the reference did when
 * scripts/aws-call-goldens.js recorded test/fixtures/aws-calls/. Compared are the calls that change
 * something (reads are fw's own business: it may ask fewer), with the parameters that carry the
 * user's settings: the stack, API Gateway and Lambda calls in their order, the objects put in S3 as
 * a set. Where fw differs on purpose, DELIBERATE below says how and why.
 */

interface Golden {
  steps: Array<{ args: string[]; exitCode: number; calls: AwsCall[] }>;
}

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
const DELIBERATE: Array<{ reason: string; scenarios?: string[]; steps?: number[]; reference?: (calls: Calls) => Calls; fw?: (calls: Calls) => Calls }> = [
  {
    reason:
      'A new stack: v3 creates it with a CREATE change set it then executes; fw calls CreateStack with the same settings (one call). ' +
      "fw's OnFailure says what a failure leaves: DELETE for the bucket-only stack (nothing to keep, the next deploy starts clean), ROLLBACK for a full one (what a CREATE change set does).",
    reference: calls => {
      const out: Calls = [];
      let created = false;
      for (const call of calls) {
        if (call.operation === 'CreateChangeSet' && call.params.ChangeSetType === 'CREATE') {
          out.push({ ...withoutParams(call, key => key === 'ChangeSetType'), operation: 'CreateStack' });
          created = true;
        } else if (created && call.operation === 'ExecuteChangeSet') created = false;
        else out.push(call);
      }
      return out;
    },
    fw: calls => calls.map(call => (call.operation === 'CreateStack' ? withoutParams(call, key => key === 'OnFailure') : call)),
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
      '`deploy function`: fw uploads the zip to the deployment bucket and points UpdateFunctionCode at it (no 50 MB limit on a direct upload), ' +
      'then marks the stored deployment as drifted so the next `deploy` updates the stack through CloudFormation; v3 sends the zip in the request.',
    scenarios: ['deploy-function'],
    fw: calls =>
      calls
        .filter(call => call.operation !== 'PutObject')
        .map(call => (call.operation === 'UpdateFunctionCode' ? withoutParams(call, key => key === 'S3Bucket' || key === 'S3Key', { ZipFile: '<zip>' }) : call)),
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
    reason: "An update that leaves the code as it was: v3 uploads the zip again under the new folder; fw keeps it where the last deployment stored it and its template points there.",
    scenarios: ['rest-stage-settings'],
    steps: [1],
    reference: calls => calls.filter(call => !(call.operation === 'PutObject' && /\.zip$/.test(String(call.params.Key)))),
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

/** What both rollbacks name: the stack and the stored template. */
const rollbackParams = (call: AwsCall) => ({ StackName: call.params.StackName, TemplateURL: call.params.TemplateURL });

/** A stack call's template, inline or by URL, as one parameter. */
function asTemplate(call: AwsCall): AwsCall {
  if (call.params.TemplateBody === undefined && call.params.TemplateURL === undefined) return call;
  return withoutParams(call, key => key === 'TemplateBody' || key === 'TemplateURL', { Template: '<template>' });
}

/** The calls that change something, after the deliberate differences: ordered (stack, API, function) and the S3 writes as a sorted set. */
function compared(calls: Calls, side: 'reference' | 'fw', scenario: string, step: number): { ordered: string[]; objects: string[] } {
  let result = calls.filter(call => !READ.test(call.operation) && call.operation !== 'GetCallerIdentity');
  for (const difference of DELIBERATE) {
    if (difference.scenarios && !difference.scenarios.includes(scenario)) continue;
    if (difference.steps && !difference.steps.includes(step)) continue;
    result = difference[side]?.(result) ?? result;
  }
  const sorted = (params: Record<string, unknown>) => Object.fromEntries(Object.entries(params).sort(([a], [b]) => a.localeCompare(b)));
  const line = (call: AwsCall) => `${call.service} ${call.operation} ${JSON.stringify(sorted(call.params))}`;
  return {
    ordered: result.filter(call => call.service !== 's3').map(line),
    objects: result.filter(call => call.service === 's3').map(line).sort(),
  };
}

const calls = suite('fw makes the AWS calls Serverless v3 makes');

async function runScenario(scenario: Scenario): Promise<Array<{ args: string[]; exitCode: number; calls: AwsCall[] }>> {
  const cloud = await startTestCloud();
  const recorder = await startRecorder(cloud.cloud.url);
  const serviceDir = mkdtempSync(join(tmpdir(), 'fw-aws-calls-'));
  const context = scenarioContext(cloud.cloud.url);
  const recorded: Array<{ args: string[]; exitCode: number; calls: AwsCall[] }> = [];
  try {
    for (const step of scenario.steps) {
      for (const [name, text] of Object.entries(step.files ?? {})) writeFileSync(join(serviceDir, name), text);
      if (step.before) await step.before(context);
      const args = typeof step.args === 'function' ? await step.args(context) : step.args;
      recorder.calls.length = 0;
      const result = await runFw([...args, '--endpoint-url', recorder.url], serviceDir, TEST_ENV);
      if (step.recorded) recorded.push({ args: args.map(arg => (/^\d{13}$/.test(arg) ? '<timestamp>' : arg)), exitCode: result.code, calls: [...recorder.calls] });
      if (result.code !== 0) throw new Error(`fw ${args.join(' ')} exited with ${result.code}: ${result.stderr}${result.stdout}`);
    }
  } finally {
    await recorder.close();
    await cloud.stop();
    rmSync(serviceDir, { recursive: true, force: true });
  }
  return recorded;
}

for (const scenario of SCENARIOS) {
  calls(`${scenario.name}: the calls that change something carry the reference's settings, in its order`, async () => {
    const golden = JSON.parse(readFileSync(join(FIXTURES, 'aws-calls', `${scenario.name}.json`), 'utf8')) as Golden;
    const fw = await runScenario(scenario);
    assert.equal(
      fw.map((step, index) => ({ args: step.args, exitCode: step.exitCode, ...compared(step.calls, 'fw', scenario.name, index) })),
      golden.steps.map((step, index) => ({ args: step.args, exitCode: step.exitCode, ...compared(step.calls, 'reference', scenario.name, index) })),
    );
  });
}

calls.run();
