/** An error a state raises: its name (`States.Runtime`, a function's errorType) and cause, as the history shows them. */
export class StatesError extends Error {
  constructor(
    readonly error: string,
    override readonly cause: string,
  ) {
    super(`${error}: ${cause}`);
    this.name = 'StatesError';
  }
}

export const runtimeError = (cause: string) => new StatesError('States.Runtime', cause);
