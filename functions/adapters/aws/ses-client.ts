import { SESv2Client } from '@aws-sdk/client-sesv2';
import { clientOptions } from './client-options';

/** `trace`: wraps the client for X-Ray (observability/tracing.ts) in the functions that trace. */
export const createSesClient = (endpoint?: string, trace: <C>(client: C) => C = (client) => client): SESv2Client =>
  trace(new SESv2Client(clientOptions(endpoint)));
