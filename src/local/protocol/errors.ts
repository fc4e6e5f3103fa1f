/**
 * An error the local cloud returns to the client in the AWS wire shape of the
 * protocol that asked (query XML, JSON, REST XML). Anything else thrown while
 * serving a request is a bug in the emulator and becomes an InternalFailure.
 */
export class AwsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AwsError';
  }
}

export const validationError = (message: string) => new AwsError('ValidationError', message);
