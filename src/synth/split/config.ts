import { invalid } from '../../errors';
import { ROOT, type SplitMode } from './placement';
import type { Move } from './split';

export interface SplittingConfig {
  /** `off`: never split (a template over a limit is then CloudFormation's error). */
  mode: SplitMode | 'off';
  /** Whether the user's `resources` may move into nested stacks too (default: they stay in the root stack). */
  moveUserResources: boolean;
}

const MODES = ['auto', 'per-function', 'per-type', 'off'];

/**
 * `provider.stackSplitting`: `auto` (default: only when a limit is exceeded), `per-function`,
 * `per-type`, `off` / `false`; or `{ mode, resources: root | nested }`.
 */
export function splittingConfig(value: unknown): SplittingConfig {
  const path = 'provider.stackSplitting';
  if (value === undefined || value === null || value === true) return { mode: 'auto', moveUserResources: false };
  if (value === false) return { mode: 'off', moveUserResources: false };
  if (typeof value === 'string') {
    if (!MODES.includes(value)) throw invalid(path, `one of ${MODES.map(mode => `"${mode}"`).join(', ')}`, value);
    return { mode: value as SplittingConfig['mode'], moveUserResources: false };
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    const { mode = 'auto', resources = 'root', ...rest } = value as Record<string, unknown>;
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined) throw invalid(`${path}.${unknown}`, 'no such property (known: mode, resources)', rest[unknown]);
    if (typeof mode !== 'string' || !MODES.includes(mode)) throw invalid(`${path}.mode`, `one of ${MODES.map(m => `"${m}"`).join(', ')}`, mode);
    if (resources !== 'root' && resources !== 'nested') throw invalid(`${path}.resources`, '"root" or "nested"', resources);
    return { mode: mode as SplittingConfig['mode'], moveUserResources: resources === 'nested' };
  }
  throw invalid(path, 'a mode ("auto", "per-function", "per-type", "off") or { mode, resources }', value);
}

const stackName = (stack: string) => (stack === ROOT ? 'the root stack' : `nested stack ${stack}`);

/** `HelloLambdaFunction moves from the root stack to nested stack NestedStack3: CloudFormation replaces it` */
export const describeMove = (move: Move) =>
  `${move.logicalId} moves from ${stackName(move.from)} to ${stackName(move.to)}: CloudFormation replaces it (a new physical resource; data it holds is lost)`;
