/** An error the stand-in answers in Stripe's shape: its status, `type`, message and `code`. */
export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}
