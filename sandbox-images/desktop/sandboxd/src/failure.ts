/** A typed failure answered to the host as `{error: {code, message}}`. */
export class SandboxdFailure extends Error {
  constructor(
    readonly code: 'method_not_found' | 'invalid_params' | 'outside_home' | 'failed',
    message: string,
  ) {
    super(message);
  }
}
