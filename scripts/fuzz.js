#!/usr/bin/env node
// Longer fuzzing of fw's input handling than `npm test` does: many mutants of a service, each
// run through load → resolve → validate → build → package in this process (and, with --cli,
// through the built CLI). Every mutant must end in a clean one-line error or a package.
//
//   npm run fuzz                         seeds 1..20, 200 mutants each
//   npm run fuzz -- --seed 7 --count 500
//   npm run fuzz -- --seed 7 --index 42  one mutant, printed in full
//   npm run fuzz -- --cli                the CLI-only mutants too, through bin/fw.js
//
// Needs `npm run build` first (it runs the compiled code in dist/).
'use strict';
const { parseArgs } = require('node:util');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist', 'test', 'config');
const { mutant } = require(join(dist, 'fuzz-mutants.js'));
const { runInProcess, runCli, verdict } = require(join(dist, 'fuzz-run.js'));

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    seeds: { type: 'string', default: '20' },
    count: { type: 'string', default: '200' },
    index: { type: 'string' },
    cli: { type: 'boolean', default: false },
  },
});
const seeds = values.seed !== undefined ? [Number(values.seed)] : Array.from({ length: Number(values.seeds) }, (_, i) => i + 1);
const count = Number(values.count);

async function main() {
  if (values.index !== undefined) {
    const one = mutant(seeds[0], Number(values.index));
    console.log(`seed ${seeds[0]} index ${values.index}: ${one.description}`);
    for (const [name, text] of Object.entries(one.files)) console.log(`--- ${name} (${text.length} characters)\n${text.length > 2000 ? `${text.slice(0, 2000)}…` : text}`);
    const outcome = one.cliOnly || values.cli ? await runCli(one) : await runInProcess(one);
    console.log('--- outcome', JSON.stringify(outcome).slice(0, 2000));
    console.log(verdict(outcome) ?? 'clean');
    return;
  }
  let failures = 0;
  let ran = 0;
  const started = Date.now();
  for (const seed of seeds) {
    const tally = { packaged: 0, refused: 0 };
    for (let index = 0; index < count; index += 1) {
      const one = mutant(seed, index);
      if (one.cliOnly && !values.cli) continue;
      const outcome = one.cliOnly || values.cli ? await runCli(one) : await runInProcess(one);
      ran += 1;
      const problem = verdict(outcome);
      if (problem) {
        failures += 1;
        console.log(`FAIL seed ${seed} index ${index}: ${one.description}\n  ${problem}\n  reproduce: npm run fuzz -- --seed ${seed} --index ${index}`);
      } else if (outcome.ok) tally.packaged += 1;
      else tally.refused += 1;
    }
    console.log(`seed ${seed}: ${count} mutants, ${tally.packaged} packaged, ${tally.refused} refused cleanly`);
  }
  console.log(`${ran} mutants in ${((Date.now() - started) / 1000).toFixed(1)} s, ${failures} failed`);
  process.exitCode = failures > 0 ? 1 : 0;
}

main().then(() => process.exit());
