import { S3Client } from '@aws-sdk/client-s3';
import { clientOptions } from './client-options';

/** Locally fauxqs serves S3 on its one port, so bucket names go in the path, not the host name. */
export const createS3Client = (endpoint?: string): S3Client =>
  new S3Client({ ...clientOptions(endpoint), ...(endpoint ? { forcePathStyle: true } : {}) });
