/** Why a submitted request ends ERROR when its order runs: its `error_code`, and a detail for the log. */
export class RequestFailure extends Error {
  constructor(
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}
