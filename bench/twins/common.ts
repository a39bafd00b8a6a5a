/** What the synth twins (ours, raw L1s, the alpha peer) share: one account/region and one DLC image. */
export const ENV = { account: '123456789012', region: 'us-east-1' };
export const REPO = 'huggingface-pytorch-tgi-inference';
export const TAG = '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04';
/** Every twin's stack: one name, so that paths in the templates (a role's description) match. */
export const STACK_NAME = 'Endpoints';
