/**
 * The one logger of every bundled handler: Powertools Logger (https://docs.powertools.aws.dev/lambda/typescript/latest/features/logger/),
 * one JSON line per entry on stdout with the level, the message, the service and (once `addContext` ran) the Lambda
 * request id. One instance per service and container, built on first use, so loading a handler module logs nothing
 * and costs nothing.
 */
import { Logger } from '@aws-lambda-powertools/logger';

const loggers = new Map<string, Logger>();

/** The logger of a handler (`service`: the name every entry carries, e.g. `sagemaker-mcp`). */
export function handlerLogger(service: string): Logger {
  let logger = loggers.get(service);
  if (!logger) {
    logger = new Logger({ serviceName: service });
    loggers.set(service, logger);
  }
  return logger;
}
