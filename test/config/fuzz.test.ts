import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mutant, type Mutant } from './fuzz-mutants';
import { runCli, runInProcess, verdict } from './fuzz-run';

/**
 * Seeded mutants of a service (deep type swaps of every key, huge values, alias bombs, hostile
 * names, deep nesting, JS configs that throw, loop or never settle) must each end in a clean
 * one-line error or a package: never a stack trace, a hang or a silent exit. `npm run fuzz`
 * runs many more seeds.
 */
const SEED = 1;
const COUNT = 240;

const fuzz = suite('fuzzed service files');

fuzz(`${COUNT} mutants of seed ${SEED} in process: every one packaged or refused cleanly`, async () => {
  const failures: string[] = [];
  const tally = { packaged: 0, refused: 0, cliOnly: 0 };
  for (let index = 0; index < COUNT; index += 1) {
    const one = mutant(SEED, index);
    if (one.cliOnly) {
      tally.cliOnly += 1;
      continue;
    }
    const outcome = await runInProcess(one);
    const problem = verdict(outcome);
    if (problem) failures.push(`index ${index} (${one.description}): ${problem}`);
    else if ('ok' in outcome && outcome.ok) tally.packaged += 1;
    else tally.refused += 1;
  }
  assert.equal(failures, []);
  // The mix is fixed by the seed: a change here means the mutants (or fw) changed, so look.
  // 107: a function keyed by 300 x's (a derived name over Lambda's 64) packages with a warning, as Serverless v3 packages it.
  assert.equal(tally, { packaged: 107, refused: 131, cliOnly: 2 });
});

fuzz('a handful through the built CLI, including a config that keeps Node busy and never settles', async () => {
  const picked: Mutant[] = [];
  const wanted = [/keeps Node busy/, /exporting a promise that never settles/, /getter that throws/, /billion laughs/, /nested 250/];
  for (let index = 0; picked.length < wanted.length && index < 5000; index += 1) {
    const one = mutant(SEED, index);
    const pattern = wanted.find((candidate) => candidate.test(one.description));
    if (pattern && !picked.some((other) => pattern.test(other.description))) picked.push(one);
  }
  assert.is(picked.length, wanted.length);
  const results = [];
  for (const one of picked) results.push([one.description, verdict(await runCli(one)) ?? 'clean']);
  assert.equal(results.map(([, result]) => result), picked.map(() => 'clean'), JSON.stringify(results));
});

fuzz.run();
