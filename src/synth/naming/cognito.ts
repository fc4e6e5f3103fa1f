/** Logical ids of the `cognitoUserPool` event's pools, permissions and existing-pool custom resources. */
import { normalizeName, normalizeNameToAlphaNumericOnly } from './normalize';

export const cognitoUserPool = (pool: string) => `CognitoUserPool${normalizeNameToAlphaNumericOnly(pool)}`;
export const cognitoUserPoolPermission = (fn: string, pool: string, trigger: string) =>
  `${normalizeName(fn)}LambdaPermission${cognitoUserPool(pool)}TriggerSource${trigger}`;
/** `{Fn}CustomCognitoUserPool1`: the custom resource attaching a function's triggers to an existing pool. */
export const existingCognitoUserPool = (fn: string) => `${normalizeName(fn)}CustomCognitoUserPool1`;
