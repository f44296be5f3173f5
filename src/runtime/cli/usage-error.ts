/** A mistake in how a command was called (a flag, a value, an argument): printed with the usage line, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
