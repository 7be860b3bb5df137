/**
 * The failures the service reports, one family (domain-error.ts), one file per area; this
 * is where the rest of the code imports them from.
 */
export * from './domain-error';
export * from './request-errors';
export * from './embed-errors';
export * from './organization-errors';
export * from './order-errors';
export * from './webhook-errors';
export * from './approval-errors';
export * from './billing-errors';
