#!/usr/bin/env node
// `npm run interop`: checks fw against other AWS emulators and clients on this machine, each check a
// PASS, FAIL or SKIP line (a missing tool is a skip, not a pass); exit code 1 when a check failed.
// scripts/interop/moto-deploy.js: fw deploy, update and remove against moto through --endpoint-url.
//
// Run `npm run build` first: fw runs from dist/.
'use strict';

const { motoDeployChecks } = require('./interop/moto-deploy');

async function main() {
  const results = [...(await motoDeployChecks())];
  console.log(results.join('\n'));
  const count = (kind) => results.filter((line) => line.startsWith(kind)).length;
  console.log(`\n${count('PASS')} passed, ${count('FAIL')} failed, ${count('SKIP')} skipped`);
  if (count('FAIL') > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
