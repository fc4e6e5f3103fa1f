/** Logical ids of the `alexaSkill` and `alexaSmartHome` events' permissions; `index` counts the function's events of this type from 1. */
import { normalizeName } from './normalize';

export const alexaSkillPermission = (fn: string, index: number) => `${normalizeName(fn)}LambdaPermissionAlexaSkill${index}`;
export const alexaSmartHomePermission = (fn: string, index: number) => `${normalizeName(fn)}LambdaPermissionAlexaSmartHome${index}`;
