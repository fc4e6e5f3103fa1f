import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** The random suffix CloudFormation appends to generated names: 12 to 13 upper-case letters and digits. */
export function randomSuffix(length = 13): string {
  const bytes = randomBytes(length);
  return [...bytes].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

/** `stack-LogicalId-RANDOM`, cut to a type's length limit the way CloudFormation does. */
export function generatedName(stackName: string, logicalId: string, maxLength = 64, lowerCase = false): string {
  const suffix = randomSuffix(lowerCase ? 12 : 13);
  const room = maxLength - suffix.length - 2;
  const stackPart = stackName.slice(0, Math.ceil(room / 2));
  const logicalPart = logicalId.slice(0, room - stackPart.length);
  const name = `${stackPart}-${logicalPart}-${suffix}`;
  return lowerCase ? name.toLowerCase() : name;
}

/** An id like API Gateway's: ten lower-case letters and digits. */
export function shortId(length = 10): string {
  return randomSuffix(length).toLowerCase();
}

export function arn(service: string, region: string, accountId: string, resource: string): string {
  return `arn:aws:${service}:${region}:${accountId}:${resource}`;
}
