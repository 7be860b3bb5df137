import * as z from 'zod/mini';

/** Nothing is read from a body, so none is accepted: an empty one is `{}`, any field is refused. One schema for both routes. */
export const SandboxInvoiceActionRequest = z.strictObject({});
