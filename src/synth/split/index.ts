export { splitTemplate, nestedTemplateFile, type SplitOptions, type SplitResult, type NestedTemplate, type Move } from './split';
export { ROOT, AUTO_STACKS, type Placement, type SplitMode } from './placement';
export { LIMITS, limitsExceeded } from './limits';
export { splittingConfig, describeMove, type SplittingConfig } from './config';
