import { ConfigError, show } from '../errors';
import * as naming from './naming';

/**
 * The names fw derives from the configuration, checked before anything is built from them:
 * a name that cannot form a CloudFormation logical id, or that AWS would refuse at deploy
 * time, is a one-line error naming where it came from.
 */

/** What a function's config key may hold: it becomes logical ids (`HelloLambdaFunction`) and the deployed name. */
export const FUNCTION_KEY = /^[A-Za-z0-9_-]+$/;

/** Lambda: "1 to 64 letters, digits, - and _" for a function name (not an ARN). */
const LAMBDA_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** CloudFormation: "a letter, then letters, digits and -", at most 128 characters. */
const STACK_NAME = /^[A-Za-z][A-Za-z0-9-]{0,127}$/;

/** Why a function key cannot be used, or undefined when it can. */
export function functionKeyProblem(key: string): string | undefined {
  if (key in Object.prototype) return `a function cannot be named ${show(key)} (every JavaScript object has that property)`;
  if (!FUNCTION_KEY.test(key)) {
    return `a function name must be letters, digits, "-" and "_" (it forms logical ids such as ${naming.lambdaFunction('hello')}), got ${show(key)}`;
  }
  return undefined;
}

/**
 * Function keys that give the same logical ids (`hello` and `Hello`, `a-b` and `aDashb`):
 * for each later key, the earlier one it clashes with.
 */
export function clashingFunctionKeys(keys: readonly string[]): Array<{ key: string; earlier: string }> {
  const byLogicalId = new Map<string, string>();
  const clashes: Array<{ key: string; earlier: string }> = [];
  for (const key of keys) {
    const id = naming.normalizeName(key);
    const earlier = byLogicalId.get(id);
    if (earlier === undefined) byLogicalId.set(id, key);
    else clashes.push({ key, earlier });
  }
  return clashes;
}

/**
 * The deployed name of a function (its `name`, or `service-stage-key`), as Lambda accepts it.
 * A `name` the user wrote that Lambda refuses is an error. A derived name over 64 characters is
 * not: Serverless v3 packages it (AWS refuses it when the stack creates the function), so fw
 * writes the same template and returns the warning to print.
 */
export function checkFunctionName(name: unknown, key: string, fromConfig: boolean): string | undefined {
  if (typeof name !== 'string' || LAMBDA_NAME.test(name)) return undefined;
  if (fromConfig) {
    throw new ConfigError(`Invalid configuration in 'functions.${key}.name': expected a Lambda function name of 1 to 64 letters, digits, "-" and "_", got ${show(name)}`);
  }
  return `functions.${key}: its deployed name ${show(name)} is ${name.length} characters, over Lambda's 64: AWS refuses it when the stack creates the function (shorten the service, stage or function name, or set functions.${key}.name)`;
}

/** The stack name (`service-stage`, or `provider.stackName`), as CloudFormation accepts it. */
export function checkStackName(name: string, fromConfig: boolean): void {
  if (STACK_NAME.test(name)) return;
  const where = fromConfig ? 'provider.stackName' : 'service';
  const what = fromConfig ? 'the stack name' : 'the stack name "{service}-{stage}"';
  throw new ConfigError(
    `Invalid configuration in '${where}': ${what} must be a letter, then letters, digits and "-", at most 128 characters, got ${show(name)}${name.length > 128 ? ` (${name.length} characters)` : ''}`,
  );
}
