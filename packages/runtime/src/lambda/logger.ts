/**
 * The one logger of every bundled handler: Powertools Logger (https://docs.powertools.aws.dev/lambda/typescript/latest/features/logger/),
 * one JSON line per entry on stdout with the level, the message, the service and (once `addContext` ran) the Lambda
 * request id. One instance per service and container, built on first use, so loading a handler module logs nothing
 * and costs nothing. Every string an entry carries (messages, attributes, an error's message and stack) passes through
 * `redactSecrets` (../core/errors) as the line is written, so no handler logs a credential whatever it hands the logger.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { redactSecrets } from '../core/errors';

/**
 * Powertools' `jsonReplacerFn` runs on every value of the entry before its own error formatting, and JSON.stringify
 * then visits the fields of what an Error becomes, so their strings come back through here too.
 */
const redactingReplacer = (_key: string, value: unknown): unknown => (typeof value === 'string' ? redactSecrets(value) : value);

const loggers = new Map<string, Logger>();

/** The logger of a handler (`service`: the name every entry carries, e.g. `sagemaker-mcp`). */
export function handlerLogger(service: string): Logger {
  let logger = loggers.get(service);
  if (!logger) {
    logger = new Logger({ serviceName: service, jsonReplacerFn: redactingReplacer });
    loggers.set(service, logger);
  }
  return logger;
}
