#!/usr/bin/env node
// Records what the reference (Serverless Framework v3.40.0) packages for each service under
// test/fixtures/plugins/popular/<case>/ with the Serverless v3 plugin that service lists, as
// scripts/goldens.js does for the core cases (same clock, credentials, expected/ files):
//
//   node scripts/plugin-goldens.js [case-name-regex]
//
// The plugins (versions pinned in test/fixtures/plugins/popular/plugins.json) are installed once
// outside the repository by scripts/plugin-cache.js; each case's copy gets a node_modules link (in the folder above it) to
// them. test/plugins/popular-plugins.test.ts packages the same services with fw and compares.
'use strict';

const fs = require('fs');
const path = require('path');
const { findReference, runCase } = require('./goldens');
const { pluginCache } = require('./plugin-cache');

const ROOT = path.join(__dirname, '..', 'test', 'fixtures', 'plugins', 'popular');
const NAMING_GOLDEN = path.join(__dirname, '..', 'test', 'fixtures', 'plugins', 'v3-naming.golden.json');

// One sample value per parameter name of v3's naming functions.
const SAMPLES = {
  name: 'upload-file_x', rawPath: 'users/{id}', functionName: 'upload-file_x', layerName: 'shared-libs', account: '123456789012',
  sha: 'abc123', route: '$connect', id: 'xyz', functionArn: 'arn:aws:lambda:us-east-1:123456789012:function:app-dev-auth',
  resourcePath: 'users/{id}/files', resourceLogicalId: 'ApiGatewayResourceUsersIdVar', resourceId: 'UsersIdVar', methodName: 'get',
  schemaId: 'create-user', contentType: 'application/json', apiKeyNumber: 2, apiKeyName: 'main', usagePlanKeyNumber: 1, usagePlanKeyName: 'main',
  bucketName: 'my-photos', topicName: 'orders-topic', scheduleIndex: 1, streamType: 'dynamodb', streamName: 'Orders',
  streamConsumerName: 'hello-Orders-consumer', iotIndex: 1, cloudWatchIndex: 1, logsIndex: 1, poolId: 'users-pool', queueName: 'jobs',
  clusterName: 'main', albId: 'abc', multiValueHeaders: true, idx: 1, alexaSkillIndex: 1, alexaSmartHomeIndex: 1, triggerSource: 'PreSignUp',
  authorizerName: 'auth-fn', resourceName: 'my_bus-x', eventBusName: 'orders-bus', ruleName: 'my-rule',
  originObj: { DomainName: 'assets.example.com', OriginPath: '/x' }, cachePolicyName: 'my-policy', routeKey: 'GET /users/{id}',
};

/** Every member of v3's `provider.naming`, called with sample arguments for a service `app` at stage `dev`. */
function recordNaming(serverlessBin) {
  const naming = require(path.resolve(serverlessBin, '..', '..', 'lib', 'plugins', 'aws', 'lib', 'naming.js'));
  const service = { service: 'app', provider: { stage: 'dev', region: 'us-east-1' }, getServiceName: () => 'app' };
  const bound = Object.assign({}, naming, {
    provider: { serverless: { service }, getStage: () => 'dev', getRegion: () => 'us-east-1', getAlbTargetGroupPrefix: () => '' },
  });
  const entries = Object.keys(naming).map((member) => {
    const params = /\(([^)]*)\)/.exec(naming[member].toString())[1].split(',').map((p) => p.trim()).filter(Boolean);
    const args = params.map((p) => SAMPLES[p]);
    const result = bound[member](...args);
    return { member, args, result: result instanceof RegExp ? String(result) : result };
  });
  fs.writeFileSync(NAMING_GOLDEN, JSON.stringify(entries, null, 2) + '\n');
  console.log(`${path.relative(process.cwd(), NAMING_GOLDEN)}: ${entries.length} naming members`);
}

async function main() {
  const filter = process.argv[2] ? new RegExp(process.argv[2]) : null;
  const serverlessBin = findReference();
  recordNaming(serverlessBin);
  if (process.argv[2] === '--naming') return;
  // Some plugins load Serverless' own modules (`serverless/lib/…`, their peer dependency): the reference's.
  process.env.NODE_PATH = path.resolve(serverlessBin, '..', '..', '..');
  const { nodeModules } = pluginCache({ log: (line) => console.log(line) });
  const cases = fs
    .readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && (!filter || filter.test(entry.name)))
    .map((entry) => ({
      name: entry.name,
      dir: path.join(ROOT, entry.name),
      label: path.relative(process.cwd(), path.join(ROOT, entry.name)),
      // Next to the copy, not in it: found by Node's resolution, never zipped with the code.
      // An empty node_modules in the service (serverless-plugin-typescript links it into its build).
      prepare: (work) => {
        fs.symlinkSync(nodeModules, path.join(work, '..', 'node_modules'), 'dir');
        fs.mkdirSync(path.join(work, 'node_modules'));
      },
    }));
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      const started = Date.now();
      const { status } = await runCase(serverlessBin, c);
      console.log(`${c.label}: ${status} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Number(process.env.FW_GOLDEN_JOBS) || 3) }, worker));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
