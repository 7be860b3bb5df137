/**
 * The failures the service reports: one family, whether a use case or a repository
 * raised it. They say what went wrong, never which HTTP status it becomes:
 * `functions/error-outcomes/` says, in one table, what each becomes on the API and in the
 * embedded module.
 *
 * Each class sets `name` as a string literal (as stripe-node's errors do): bundles are
 * minified, so a name taken from the constructor would become `w` in the logs. A failure
 * caught on the way (an AWS error, say) travels on as `cause`.
 */
export abstract class DomainError extends Error {
  abstract override readonly name: string;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}
