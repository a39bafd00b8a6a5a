import { InstanceSpec } from './instance-hardware';
import { instanceSpecs, knownInstanceSpecs } from '../private/instance-table';

/** Looks up instance hardware, for sizing checks of your own (jsii languages). */
export class InstanceSpecs {
  /**
   * The hardware of an instance type.
   *
   * @param instanceType e.g. `ml.g5.2xlarge`
   * @returns no value when the type is not in the table
   */
  public static of(instanceType: string): InstanceSpec | undefined {
    return instanceSpecs(instanceType);
  }

  /** Every instance type in the table. */
  public static all(): InstanceSpec[] {
    return knownInstanceSpecs();
  }

  private constructor() {}
}
