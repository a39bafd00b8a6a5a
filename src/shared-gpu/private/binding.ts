import { Size } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { IDependable } from 'constructs';
import { CopyPropNames } from './capacity';
import { InstanceType } from '../../core/instance-type';
import { SharedGpuInstanceScalingOptions } from '../instance-scaling';

/**
 * Internal (not exported from the package): the contract between a shared-GPU endpoint and the inference components
 * bound to it, through `ISharedGpuEndpoint._bindInferenceComponent` and `_reserveCopies`.
 */

/** What an inference component learns from the endpoint it is bound to. */
export interface SharedGpuEndpointBinding {
  /** The endpoint's instance type, the priority-1 pool's with instance pools (undefined: an import that did not give it). */
  readonly instanceType?: InstanceType;
  /**
   * The endpoint's instance types, highest priority first: one per pool, or `[instanceType]` (undefined: an import that
   * gave neither). More than one distinct type makes the component render `Specifications`, one entry per type.
   */
  readonly instanceTypes?: InstanceType[];
  /** The role the component's model runs with (undefined: the component creates one). */
  readonly role?: iam.IRole;
  /** What the component must be created after (undefined: the endpoint exists already). */
  readonly dependable?: IDependable;
  /**
   * The endpoint's managed instance scaling when asked (it may be set after the component is bound), which decides whether a component may scale to zero copies: `none` when
   * the endpoint has none, `unknown` for an import that did not say (scale to zero is then not checked).
   */
  readonly instanceScaling: () => SharedGpuInstanceScalingOptions | 'none' | 'unknown';
}

/** The slice of an instance one copy of an inference component reserves, and how many copies it starts with. */
export interface InferenceComponentRequirement {
  /** How the component is named in messages. */
  readonly label: string;
  /** The instance type this slice is sized for (undefined: every type of the endpoint). */
  readonly instanceType?: string;
  /** The props its values came from, for messages (undefined: the component's own). */
  readonly propNames?: CopyPropNames;
  /** Accelerators one copy reserves (undefined: none, or a token). */
  readonly acceleratorCount?: number;
  /** Host memory one copy reserves (undefined: a token). */
  readonly minMemory?: Size;
  /** CPU cores one copy reserves (undefined: none, or a token). */
  readonly cpuCores?: number;
  /** Copies at creation (0 when unknown). */
  readonly copies: number;
}

/** Why a component's copies do not fit the endpoint. */
export enum CapacityProblemKind {
  /** One copy needs more than one instance has. */
  COPY_EXCEEDS_INSTANCE = 'COPY_EXCEEDS_INSTANCE',
  /** The initial copies of all components need more than the endpoint's instances have. */
  INITIAL_COPIES_EXCEED_ENDPOINT = 'INITIAL_COPIES_EXCEED_ENDPOINT',
}

/** One reason a reservation was refused; `message` names the prop, the value and what is expected. */
export interface CapacityProblem {
  readonly kind: CapacityProblemKind;
  readonly message: string;
}
