import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../src/errors';
import { packageService } from '../../src/package/service';
import type { Template } from '../../src/synth/template';
import { REFUSED_SETTINGS } from '../../src/config/refused-settings';
import { CORRECTED_SETTINGS } from '../../src/config/corrected-settings';
import { FIXTURES, GOLDEN_TIME } from '../helpers/golden';
import { STILL_DIFFERING } from './settings-sweep-gaps';

/**
 * The settings sweep (scripts/settings-sweep.js recorded it with serverless@3.40.0): one minimal
 * service per leaf setting of the reference's schema. For each, fw's template must equal the
 * reference's (the companion service's template with the recorded changes), or fw must refuse the
 * setting with the one line REFUSED_SETTINGS gives. Settings listed in STILL_DIFFERING are known
 * gaps: the test checks they still differ, so a fix has to take them off the list.
 */
interface SweepEntry {
  companion: string;
  patch: Record<string, unknown>;
  changes?: Record<string, unknown>;
  refusedByReference?: string;
  ownedElsewhere?: boolean;
  warnings?: string[];
}
interface Sweep {
  companions: Record<string, { service: Record<string, unknown>; template: Template }>;
  settings: Record<string, SweepEntry>;
}

const sweep = JSON.parse(readFileSync(join(FIXTURES, 'settings-sweep.json'), 'utf8')) as Sweep;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function merge(a: unknown, b: unknown): unknown {
  if (!isObject(a) || !isObject(b)) return structuredClone(b);
  const out: Record<string, unknown> = structuredClone(a);
  for (const [k, v] of Object.entries(b)) {
    if (v === undefined || v === null) delete out[k];
    else out[k] = k in out ? merge(out[k], v) : structuredClone(v);
  }
  return out;
}

/** The swept service: the companion with the patch; a swept event replaces the companion's event of the same type. */
function serviceOf(entry: SweepEntry): Record<string, unknown> {
  const base = sweep.companions[entry.companion].service;
  const out = merge(base, entry.patch) as { functions?: { hello?: { events?: unknown[] } } };
  const baseEvents = (base as typeof out).functions?.hello?.events;
  const patchEvents = (entry.patch as typeof out).functions?.hello?.events;
  if (baseEvents && patchEvents) {
    const samePlace = Object.keys(patchEvents[0] as object)[0] === Object.keys(baseEvents[0] as object)[0];
    out.functions!.hello!.events = samePlace ? patchEvents : [...baseEvents, ...patchEvents];
  }
  return out as Record<string, unknown>;
}

/** The reference's template for an entry: its companion's with the recorded changes (a null change removes). */
function expectedTemplate(entry: SweepEntry): Record<string, unknown> {
  const template = structuredClone(sweep.companions[entry.companion].template) as unknown as Record<string, Record<string, unknown>>;
  for (const [key, value] of Object.entries(entry.changes ?? {})) {
    const dot = key.indexOf('.');
    if (dot < 0) {
      if (value === null) delete template[key];
      else template[key] = value as Record<string, unknown>;
      continue;
    }
    const [section, id] = [key.slice(0, dot), key.slice(dot + 1)];
    template[section] ??= {};
    if (value === null) delete template[section][id];
    else template[section][id] = value;
    if (Object.keys(template[section]).length === 0) delete template[section];
  }
  return template;
}

/** Fields that differ by construction: code hashes, the version ids built from them, layer hashes (and retained layers' ids). */
function normalize(template: unknown): Record<string, unknown> {
  const text = JSON.stringify(template)
    .replace(/LambdaVersion[0-9A-Za-z]{20,}/g, 'LambdaVersion<hash>')
    .replace(/LambdaLayer[0-9a-f]{40}/g, 'LambdaLayer<hash>')
    .replace(/"CodeSha256":"[^"]*"/g, '"CodeSha256":"<sha256>"');
  const out = JSON.parse(text) as { Outputs?: Record<string, { Value?: unknown }> };
  for (const [id, output] of Object.entries(out.Outputs ?? {})) if (id.endsWith('LambdaLayerHash')) output.Value = '<hash>';
  return out as Record<string, unknown>;
}

type Outcome = { template: Record<string, unknown> } | { refused: string };

async function packageWithFw(service: Record<string, unknown>): Promise<Outcome> {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-sweep-'));
  try {
    writeFileSync(join(cwd, 'serverless.json'), JSON.stringify(service));
    writeFileSync(join(cwd, 'handler.js'), 'exports.hello = async () => ({ statusCode: 200 });\nexports.other = exports.hello;\n');
    mkdirSync(join(cwd, 'layer'));
    writeFileSync(join(cwd, 'layer', 'sweep.txt'), 'sweep\n');
    const result = await packageService({ cwd, options: {}, now: GOLDEN_TIME });
    return { template: normalize(result.template) };
  } catch (error) {
    if (error instanceof ConfigError) return { refused: error.message };
    throw error;
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

const outcomeOf = async (entry: SweepEntry) => packageWithFw(serviceOf(entry));
const identical = (outcome: Outcome, entry: SweepEntry) =>
  'template' in outcome && JSON.stringify(outcome.template) === JSON.stringify(normalize(expectedTemplate(entry)));

const companions = suite('settings sweep: the companion services package as serverless@3.40.0 does');
for (const [name, companion] of Object.entries(sweep.companions)) {
  companions(`${name}: same template`, async () => {
    const outcome = await packageWithFw(companion.service);
    assert.ok('template' in outcome, `fw refused the companion service: ${(outcome as { refused: string }).refused}`);
    assert.equal((outcome as { template: unknown }).template, normalize(companion.template));
  });
}
companions.run();

const settings = suite('settings sweep: every setting gives the reference template or is refused with its reason');
for (const [path, entry] of Object.entries(sweep.settings)) {
  if (!sweep.companions[entry.companion]) continue;
  const refusal = REFUSED_SETTINGS[path];
  const gap = STILL_DIFFERING[path];
  const correction = CORRECTED_SETTINGS[path];
  if (correction) {
    settings(`${path}: the reference's template, corrected (${correction.reason})`, async () => {
      const outcome = await outcomeOf(entry);
      const reference = normalize(expectedTemplate(entry));
      const corrected = structuredClone(reference) as { Resources: Record<string, any> };
      correction.correct(corrected);
      assert.not.equal(corrected, reference, 'the correction changes nothing: take it off CORRECTED_SETTINGS');
      assert.ok('template' in outcome, `fw refused: ${(outcome as { refused: string }).refused}`);
      assert.equal((outcome as { template: unknown }).template, corrected);
    });
  } else if (refusal) {
    settings(`${path}: refused with one line naming it`, async () => {
      const outcome = await outcomeOf(entry);
      assert.equal(outcome, { refused: refusal.message });
    });
  } else if (gap) {
    settings(`${path}: still differs (known gap: ${gap})`, async () => {
      const outcome = await outcomeOf(entry);
      if (entry.refusedByReference) assert.ok('template' in outcome, `${path} is now refused as by the reference: take it off STILL_DIFFERING`);
      else assert.not.ok(identical(outcome, entry), `${path} is now identical: take it off STILL_DIFFERING`);
    });
  } else if (entry.refusedByReference) {
    settings(`${path}: refused, as by the reference`, async () => {
      const outcome = await outcomeOf(entry);
      assert.ok('refused' in outcome, `the reference refuses this sample (${entry.refusedByReference}); fw accepts it`);
    });
  } else {
    settings(`${path}: same template`, async () => {
      const outcome = await outcomeOf(entry);
      assert.ok('template' in outcome, `fw refused: ${(outcome as { refused: string }).refused}`);
      assert.equal((outcome as { template: unknown }).template, normalize(expectedTemplate(entry)));
    });
  }
}
settings.run();

const tables = suite('settings sweep: the tables name swept settings');
tables('every refused or still-differing setting is one the sweep recorded', () => {
  const unknown = [...Object.keys(REFUSED_SETTINGS), ...Object.keys(STILL_DIFFERING), ...Object.keys(CORRECTED_SETTINGS)].filter(path => !(path in sweep.settings));
  assert.equal(unknown, []);
});
/** A section of docs/reference/compatibility.md (written by scripts/docs.js from the lists here). */
function compatibilitySection(title: string): string[][] {
  const page = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'reference', 'compatibility.md'), 'utf8');
  const section = page.slice(page.indexOf(`## ${title}`)).split('\n## ')[0];
  return [...section.matchAll(/^\| `([^`]+)` \| (.+) \|$/gm)].map(m => [m[1], m[2]]);
}
tables('the compatibility reference lists exactly the refused settings, with their reasons', () => {
  assert.equal(compatibilitySection('Settings fw refuses on purpose'), Object.entries(REFUSED_SETTINGS).map(([path, { reason }]) => [path, reason]));
});
tables('the compatibility reference lists exactly the corrected settings, with their reasons', () => {
  const listed = compatibilitySection('Settings fw writes corrected');
  assert.equal(listed.slice(0, Object.keys(CORRECTED_SETTINGS).length), Object.entries(CORRECTED_SETTINGS).map(([path, { reason }]) => [path, reason]));
});
tables.run();
