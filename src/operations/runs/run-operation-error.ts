/**
 * A refusal the operator can act on (unknown name, wrong status, archived schedule…): commands
 * print the message and exit 1. Anything else thrown by an operation is a bug or infrastructure.
 */
export class RunOperationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunOperationError';
  }
}
