/**
 * Where an SDK client points: nowhere special in AWS (the SDK's defaults), or a local
 * stand-in. The stand-ins accept any credentials; fixed ones keep a developer's real
 * AWS profile out of it.
 */
export const clientOptions = (endpoint?: string) =>
  endpoint ? { endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {};
