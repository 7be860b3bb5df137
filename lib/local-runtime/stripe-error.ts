/** An error the stand-in answers in Stripe's shape: its status, `type`, message, `code` and the `param` it is about. */
export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}
