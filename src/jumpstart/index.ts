export * from './jumpstart-model';
export { JumpStartPrecision } from './model-traits';
