/**
 * Whether `value` is a CloudFormation intrinsic: one key, `Ref`, `Condition` or `Fn::…` (with
 * `allowed`, only those keys: `['Ref', 'Fn::GetAtt']`). The schema accepts one wherever a value is
 * expected, overrides replace it whole instead of merging into it, and the local cloud evaluates it.
 */
export function isIntrinsic(value: unknown, allowed?: readonly string[]): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1) return false;
  return allowed ? allowed.includes(keys[0]) : keys[0] === 'Ref' || keys[0] === 'Condition' || keys[0].startsWith('Fn::');
}
