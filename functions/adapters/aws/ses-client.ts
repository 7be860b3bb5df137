import { SESv2Client } from '@aws-sdk/client-sesv2';
import { clientOptions } from './client-options';

export const createSesClient = (endpoint?: string): SESv2Client => new SESv2Client(clientOptions(endpoint));
