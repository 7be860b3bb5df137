import { LogFormatter, LogItem, Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import type { Logger } from '../../domain/logger';

/**
 * Our line shape on Powertools: `level` in lower case and `msg` as everywhere else in the
 * service (the local stack's lines, the queries in docs/operations.md), then the Lambda
 * invocation's ids from its context (`lambdaRequestId`, `coldStart`), then the line's own fields.
 */
class ServiceLogFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additionalLogAttributes: LogAttributes): LogItem {
    const lambda = attributes.lambdaContext;
    const { [OWN_TIMESTAMP]: ownTimestamp, ...additional } = additionalLogAttributes;
    return new LogItem({
      attributes: {
        level: attributes.logLevel.toLowerCase(),
        timestamp: typeof ownTimestamp === 'string' ? ownTimestamp : this.formatTimestamp(attributes.timestamp),
        msg: attributes.message,
        service: attributes.serviceName,
        ...(lambda
          ? { functionName: lambda.functionName, lambdaRequestId: lambda.awsRequestId, coldStart: lambda.coldStart }
          : {}),
        ...(attributes.xRayTraceId ? { xrayTraceId: attributes.xRayTraceId } : {}),
      },
    }).addAttributes(additional);
  }
}

/**
 * Powertools reserves `timestamp` (and drops it, with a warning); a line that names its
 * own time (the request log: when the request arrived) passes it under this key instead.
 */
const OWN_TIMESTAMP = '__timestamp';

/**
 * Every level on stdout, one JSON object per line, as the service always wrote them
 * (Powertools prints warnings and errors to stderr; Lambda keeps both, but local tools and
 * the bundle tests read stdout).
 */
class StdoutLogger extends PowertoolsLogger {
  protected override printLog(_logLevel: number, log: LogItem): void {
    log.prepareForPrint();
    process.stdout.write(`${JSON.stringify(log.getAttributes())}\n`);
  }
}

/**
 * The Logger port on Powertools Logger: its level from `LOG_LEVEL` (Powertools reads
 * `POWERTOOLS_LOG_LEVEL`, then `LOG_LEVEL`; the stack sets `LOG_LEVEL`), the Lambda
 * context's request id and cold start on every line once `addContext` is called.
 */
export function powertoolsLogger(serviceName: string): Logger {
  const logger = new StdoutLogger({ serviceName, logFormatter: new ServiceLogFormatter() });
  const split = ({ msg, timestamp, ...rest }: Record<string, unknown>): [string, LogAttributes] => [
    String(msg ?? ''),
    (timestamp === undefined ? rest : { ...rest, [OWN_TIMESTAMP]: timestamp }) as LogAttributes,
  ];
  return {
    info: (entry) => logger.info(...split(entry)),
    error: (entry) => logger.error(...split(entry)),
    addContext: (context) => logger.addContext(context as Parameters<PowertoolsLogger['addContext']>[0]),
  };
}
