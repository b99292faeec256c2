/**
 * The results library could not do what was asked: a full disk, a folder it cannot write, a run
 * folder too damaged to open. Not bad input and not a bug: hosts show the message as it is (the
 * CLI on one line, with its own exit code).
 */
export class ResultsStoreError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ResultsStoreError";
  }
}
