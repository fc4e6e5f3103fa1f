import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { deepMerge, stripNulls } from '../../src/synth/merge';

const merge = suite('deepMerge and stripNulls');

merge('merges objects key by key and replaces lists and scalars', () => {
  assert.equal(deepMerge({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3] }, e: 2 }), { a: { b: 1, c: [3] }, d: 1, e: 2 });
});

merge('replaces an intrinsic whole instead of merging into it', () => {
  assert.equal(deepMerge({ Role: { 'Fn::GetAtt': ['A', 'Arn'] } }, { Role: { Ref: 'B' } }), { Role: { Ref: 'B' } });
  assert.equal(deepMerge({ Role: { Ref: 'A' } }, { Role: { Other: 1 } }), { Role: { Other: 1 } });
});

merge('ignores __proto__ and constructor keys', () => {
  const merged = deepMerge({}, JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"x": 1}, "ok": 1}')) as Record<string, unknown>;
  assert.equal(Object.keys(merged), ['ok']);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

merge('strips nulls at any depth, in objects inside lists too', () => {
  assert.equal(stripNulls({ a: null, b: { c: null, d: 1 }, e: [{ Key: 'k', Value: null }, null, 2] }), { b: { d: 1 }, e: [{ Key: 'k' }, 2] });
});

merge.run();
