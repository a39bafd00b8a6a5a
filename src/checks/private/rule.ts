import { TemplateView } from './template-view';
import { SageMakerMcpCheckLevel } from '../check-level';

/** One problem a rule found, on one resource of the template. */
export interface RuleFinding {
  /** Logical id of the resource to fix (and where acknowledgements are looked up). */
  readonly logicalId: string;
  /** What is wrong and what to change. */
  readonly message: string;
  /** Property path within the resource, e.g. `Properties.MinCapacity`. */
  readonly location?: string;
}

/** A checklist rule over one synthesized template. */
export interface CheckRule {
  /** e.g. `SMCP-RT1` */
  readonly id: string;
  readonly level: SageMakerMcpCheckLevel;
  /** One line: what the rule requires. */
  readonly description: string;
  check(view: TemplateView): RuleFinding[];
}
