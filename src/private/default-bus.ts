import { Arn, ArnFormat, Stack } from 'aws-cdk-lib';

/** `arn:<partition>:events:<region>:<account>:event-bus/default`: an account's default event bus in the stack's region. */
export function defaultBusArn(stack: Stack, account: string): string {
  return Arn.format({ service: 'events', account, resource: 'event-bus', resourceName: 'default', arnFormat: ArnFormat.SLASH_RESOURCE_NAME }, stack);
}
