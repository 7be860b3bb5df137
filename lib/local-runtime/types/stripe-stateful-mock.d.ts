// The package ships JavaScript only; this is the one export the local stack uses.
declare module 'stripe-stateful-mock' {
  import type { RequestListener } from 'node:http';
  export function createExpressApp(): RequestListener;
}
