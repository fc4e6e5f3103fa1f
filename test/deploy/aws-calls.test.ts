import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { comparedRecords, type RecordedStep } from '../helpers/aws-call-differences';
import { startRecorder } from '../helpers/aws-calls';
import { SCENARIOS, scenarioContext, writeStepFiles, type Scenario } from '../helpers/aws-call-scenarios';
import { runFw } from '../helpers/cli';
import { FIXTURES } from '../helpers/golden';
import { startTestCloud, TEST_ENV } from '../helpers/local-cloud';

/**
 * fw asks of AWS what Serverless v3 asks: for each scenario of aws-call-scenarios.ts, fw runs the
 * same commands against the local cloud through the same recorder as the reference did when
 * scripts/aws-call-goldens.js recorded test/fixtures/aws-calls/. Compared are the calls that change
 * something (reads are fw's own business: it may ask fewer, except those a step's `comparedReads`
 * names because they carry a setting: GetApiKey's includeValue, the metrics, logs and deployments
 * asked for), with the parameters that carry the user's settings: the stack, API Gateway, Lambda,
 * Logs and CloudWatch calls in their order, the S3 calls as a set; with credentials of its own (a
 * profile), which access key signed them. Where fw differs on purpose, DELIBERATE
 * (aws-call-differences.ts) says how and why.
 */

interface Golden {
  steps: RecordedStep[];
}

const calls = suite('fw makes the AWS calls Serverless v3 makes');

const AWS_FREE = new Set(['package', 'print']);

async function runScenario(scenario: Scenario): Promise<RecordedStep[]> {
  const cloud = await startTestCloud();
  const recorder = await startRecorder(cloud.cloud.url);
  const serviceDir = mkdtempSync(join(tmpdir(), 'fw-aws-calls-'));
  const context = scenarioContext(cloud.cloud.url);
  const recorded: RecordedStep[] = [];
  try {
    for (const step of scenario.steps) {
      writeStepFiles(serviceDir, step.files);
      if (step.before) await step.before(context);
      const args = typeof step.args === 'function' ? await step.args(context) : step.args;
      recorder.calls.length = 0;
      recorder.accessKeyIds.length = 0;
      // `package` and `print` call no AWS API and take no endpoint.
      const endpoint = AWS_FREE.has(args[0]) ? [] : ['--endpoint-url', recorder.url];
      const result = await runFw([...args, ...endpoint], serviceDir, { ...TEST_ENV, ...step.env?.(serviceDir) });
      if (step.recorded) {
        recorded.push({
          args: args.map(arg => (/^\d{13}$/.test(arg) ? '<timestamp>' : arg)),
          exitCode: result.code,
          ...(step.env ? { accessKeyIds: [...recorder.accessKeyIds] } : {}),
          calls: [...recorder.calls],
        });
      }
      // A failed command ends the scenario, as it ends the reference's recording (its exit code is compared).
      if (result.code !== 0) {
        if (!step.recorded) throw new Error(`fw ${args.join(' ')} exited with ${result.code}: ${result.stderr}${result.stdout}`);
        break;
      }
    }
  } finally {
    await recorder.close();
    await cloud.stop();
    rmSync(serviceDir, { recursive: true, force: true });
  }
  return recorded;
}

/** FW_AWS_CALLS=<regex> runs the scenarios it matches only (while working on one). */
const only = process.env.FW_AWS_CALLS ? new RegExp(process.env.FW_AWS_CALLS) : undefined;

for (const scenario of SCENARIOS.filter(({ name }) => !only || only.test(name))) {
  calls(`${scenario.name}: the calls that change something carry the reference's settings, in its order`, async () => {
    const golden = JSON.parse(readFileSync(join(FIXTURES, 'aws-calls', `${scenario.name}.json`), 'utf8')) as Golden;
    const fw = await runScenario(scenario);
    const lines = comparedRecords(scenario, golden.steps, fw);
    assert.equal(lines.fw, lines.reference);
  });
}

calls.run();
