import { Stack, Token } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { IConstruct } from 'constructs';

/**
 * Widgets whose content is read when the dashboard is synthesized, not when it is built: every alarm under the given
 * constructs (also those added after the dashboard, e.g. by a later `autoScale`), and a text computed then.
 */

/** An alarm status widget over every CloudWatch alarm in the subtrees of `subjects`. */
export class SubtreeAlarmsWidget extends cloudwatch.ConcreteWidget {
  constructor(private readonly title: string, private readonly subjects: () => IConstruct[], width: number, height: number) {
    super(width, height);
  }

  /** The alarms found, in construct-path order (one each, even when two subjects share a subtree). */
  public alarms(): cloudwatch.IAlarm[] {
    const seen = new Map<string, cloudwatch.IAlarm>();
    for (const subject of this.subjects()) {
      for (const c of subject.node.findAll()) {
        if (c instanceof cloudwatch.AlarmBase) seen.set(c.node.path, c);
      }
    }
    return [...seen.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, alarm]) => alarm);
  }

  public toJson(): any[] {
    const alarms = this.alarms();
    const widget: cloudwatch.ConcreteWidget = alarms.length > 0
      ? new cloudwatch.AlarmStatusWidget({
        title: this.title, alarms, width: this.width, height: this.height, sortBy: cloudwatch.AlarmStatusWidgetSortBy.STATE_UPDATED_TIMESTAMP,
      })
      : new cloudwatch.TextWidget({ markdown: `### ${this.title}\nNo alarms.`, width: this.width, height: this.height });
    widget.position(this.x ?? 0, this.y ?? 0);
    return widget.toJson();
  }
}

/** A markdown text widget whose text is produced at synth. */
export class LazyTextWidget extends cloudwatch.ConcreteWidget {
  constructor(private readonly markdown: () => string, width: number, height: number) {
    super(width, height);
  }

  public toJson(): any[] {
    const widget = new cloudwatch.TextWidget({ markdown: this.markdown(), width: this.width, height: this.height });
    widget.position(this.x ?? 0, this.y ?? 0);
    return widget.toJson();
  }
}

/** A construct's name on the dashboard: its id path below the stack. */
export function displayName(c: IConstruct): string {
  const stackPath = Stack.of(c).node.path;
  const path = c.node.path.startsWith(`${stackPath}/`) ? c.node.path.slice(stackPath.length + 1) : c.node.path;
  return Token.isUnresolved(path) ? c.node.id : path;
}
