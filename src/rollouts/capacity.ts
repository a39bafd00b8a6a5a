/**
 * How much of a fleet one step of a rollout moves: a number of instances (endpoints), a number of copies (inference
 * components), or a percentage of the fleet. The API's `CapacitySize` / `InferenceComponentCapacitySize`: `Type`
 * `INSTANCE_COUNT` | `COPY_COUNT` | `CAPACITY_PERCENT` and an integer `Value` of at least 1
 * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_CapacitySize.html,
 * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_InferenceComponentCapacitySize.html).
 */
export class RolloutCapacity {
  /** A number of instances of the endpoint's variant (endpoints only). */
  public static instances(count: number): RolloutCapacity {
    return new RolloutCapacity('INSTANCE_COUNT', count);
  }

  /** A number of copies of the inference component (inference components only). */
  public static copies(count: number): RolloutCapacity {
    return new RolloutCapacity('COPY_COUNT', count);
  }

  /** A percentage (1-100) of the variant's instances, or of the inference component's copies. */
  public static percent(percentage: number): RolloutCapacity {
    return new RolloutCapacity('CAPACITY_PERCENT', percentage);
  }

  /** `INSTANCE_COUNT`, `COPY_COUNT` or `CAPACITY_PERCENT`, as the template writes it. */
  public readonly unit: string;
  /** The number of instances or copies, or the percentage. */
  public readonly value: number;

  private constructor(unit: string, value: number) {
    this.unit = unit;
    this.value = value;
  }

  /** True for `RolloutCapacity.percent`. */
  public get isPercent(): boolean {
    return this.unit === 'CAPACITY_PERCENT';
  }

  /** e.g. `2 instances`, `25%`: for messages. */
  public toString(): string {
    if (this.isPercent) return `${this.value}%`;
    return `${this.value} ${this.unit === 'COPY_COUNT' ? 'copies' : 'instances'}`;
  }
}
